/**
 * Which file paths are sensitive to write (or delete), shared by the file tools (`detectWrite`) and
 * by shell writes (redirects, `tee`, `cp`, `sed -i`, …) so that one "always allow" covers both.
 * Rules are tried in order; the first that matches decides, and a `safe` rule stops the search.
 */
import path from 'node:path';

export interface PathContext {
  home: string;
  hermesHome: string;
  /** Resolves relative paths; without it they are judged by their segments and names only. */
  cwd?: string;
}

export type PathLevel = 'safe' | 'dangerous' | 'hardline';

export interface PathRule {
  level: PathLevel;
  description: string;
  /** `p` is normalized and lowercased (macOS file systems ignore case, so `/ETC` is `/etc`). */
  test: (p: string, ctx: PathContext) => boolean;
}

export const PATH_KEYS = {
  blockDevice: 'write to a raw block device',
  kernelFs: 'modify /boot, /sys or /proc',
  device: 'write to a device file',
  hermesConfig: 'modify hermes config',
  etc: 'modify files in /etc',
  ssh: 'modify ~/.ssh',
  shellRc: 'modify a shell startup file',
  credentials: 'modify a credentials file',
  dotenv: 'modify a .env file',
  systemDir: 'modify a system directory',
} as const;

const under = (p: string, dir: string) => p === dir || p.startsWith(`${dir}/`);
const lower = (p: string) => p.toLowerCase();
const segments = (p: string) => p.split('/');

const BLOCK_DEVICE = /^\/dev\/(?:sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|r?disk\d|md\d|dm-\d|mapper\/|loop\d)/;
// Device files that are ordinary plumbing for programs and harmless to write.
const BENIGN_DEVICE = /^\/dev\/(?:null|zero|full|random|urandom|stdin|stdout|stderr|tty|pts\/.*|fd\/.*|shm(?:\/.*)?)$/;
const SHELL_RC = new Set([
  '.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.profile', '.zshrc', '.zshenv', '.zprofile',
  '.zlogin', '.zlogout', '.kshrc', '.cshrc', '.tcshrc', '.inputrc', 'config.fish',
]);
const CREDENTIAL_NAMES = new Set(['.netrc', '.pgpass', '.git-credentials']);
const HOME_CREDENTIALS = ['.npmrc', '.pypirc', '.aws', '.docker/config.json', '.kube/config', '.gnupg', '.config/gh/hosts.yml'];
const DOTENV = /^\.env(?:\.[\w.-]+)?$/;
// Templates are meant to be edited and hold no secrets.
const DOTENV_TEMPLATE = /\.(?:example|sample|template|dist|defaults?)$/;
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/system'];

export const PATH_RULES: readonly PathRule[] = [
  { level: 'hardline', description: PATH_KEYS.blockDevice, test: (p) => BLOCK_DEVICE.test(p) },
  { level: 'safe', description: 'harmless device file', test: (p) => BENIGN_DEVICE.test(p) },
  { level: 'hardline', description: PATH_KEYS.kernelFs, test: (p) => ['/boot', '/sys', '/proc'].some((d) => under(p, d)) },
  { level: 'dangerous', description: PATH_KEYS.device, test: (p) => under(p, '/dev') },
  {
    level: 'dangerous',
    description: PATH_KEYS.hermesConfig,
    test: (p, ctx) => ['config.yaml', '.env'].some((f) => p === lower(path.join(ctx.hermesHome, f))),
  },
  { level: 'dangerous', description: PATH_KEYS.etc, test: (p) => under(p, '/etc') || under(p, '/private/etc') },
  { level: 'dangerous', description: PATH_KEYS.ssh, test: (p) => segments(p).includes('.ssh') },
  { level: 'dangerous', description: PATH_KEYS.shellRc, test: (p) => SHELL_RC.has(path.posix.basename(p)) },
  {
    level: 'dangerous',
    description: PATH_KEYS.credentials,
    test: (p, ctx) =>
      CREDENTIAL_NAMES.has(path.posix.basename(p)) || HOME_CREDENTIALS.some((f) => under(p, lower(path.join(ctx.home, f)))),
  },
  {
    level: 'dangerous',
    description: PATH_KEYS.dotenv,
    test: (p) => DOTENV.test(path.posix.basename(p)) && !DOTENV_TEMPLATE.test(p),
  },
  { level: 'dangerous', description: PATH_KEYS.systemDir, test: (p) => SYSTEM_DIRS.some((d) => under(p, d)) },
];

/**
 * Expands `~`, `$HOME` and `$HERMES_HOME` and normalizes `..`, `//` and trailing slashes, so that
 * `/etc/../etc/`, `"$HOME"/.ssh` and `~/.ssh` all compare equal. Other variables stay as written.
 */
export function resolvePath(raw: string, ctx: PathContext): string {
  let p = raw
    .replace(/^~(?=$|\/)/, ctx.home)
    .replace(/\$\{HOME\}|\$HOME\b/g, ctx.home)
    .replace(/\$\{HERMES_HOME\}|\$HERMES_HOME\b/g, ctx.hermesHome);
  if (!p.startsWith('/') && ctx.cwd) p = path.posix.join(ctx.cwd, p);
  p = path.posix.normalize(p);
  return p.length > 1 ? p.replace(/\/+$/, '') : p;
}

/** The first rule matching `raw` (a path as written), or null when the write is unremarkable. */
export function classifyPath(raw: string, ctx: PathContext): { level: 'dangerous' | 'hardline'; description: string } | null {
  const p = lower(resolvePath(raw, ctx));
  for (const rule of PATH_RULES) {
    if (!rule.test(p, ctx)) continue;
    return rule.level === 'safe' ? null : { level: rule.level, description: rule.description };
  }
  return null;
}
