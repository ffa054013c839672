/**
 * Which paths are protected, as classes a human recognises (`~/.ssh`, `$HERMES_HOME`, `/etc`, …), and
 * whether a path pattern can reach one. Patterns come from words as bash expands them: literal parts,
 * globs (`/e?c`, `~/.ss[h]`) and parts only known at run time. A glob counts when it can match.
 * Comparisons ignore case (macOS file systems do).
 */
import type { WordValue } from './words.ts';

export interface PathFacts {
  home: string;
  hermesHome: string;
  /** The project directory (the session's cwd), for `.hermes/plugins`. */
  cwd: string | null;
}

/** One path segment: a literal, or a regular expression when it has globs or unknown parts. */
type Segment = { text: string; re: RegExp | null };

export interface ResolvedPath {
  /** Absolute segments after `.`/`..` folding; empty for `/`. */
  segments: Segment[];
  /** The path for a human (`/home/alice/.ssh/*`). */
  display: string;
  /** Begins with a part known only at run time (`$dir/x`, or relative with an unknown cwd). */
  unknownRoot: boolean;
}

export type WriteLevel = 'dangerous' | 'hardline';

export interface PathClass {
  /** The target class, what approvals remember: `~/.ssh`, `/etc`, `raw disk`, … */
  target: string;
  level: WriteLevel;
  why: string;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Resolves a word naming a path against `cwd`. */
export function resolvePath(word: WordValue, cwd: string | null): ResolvedPath {
  let source = '';
  let first = true;
  let unknownRoot = false;
  for (const piece of word.pieces) {
    if (first && piece.kind === 'unknown') unknownRoot = true;
    first = false;
    source += piece.kind === 'lit' ? piece.text.replace(/[\u0001\u0002]/g, '') : piece.kind === 'glob' ? `\u0001${piece.text}\u0002` : '\u0001*\u0002';
  }
  if (!source.startsWith('/') && !unknownRoot) {
    if (cwd === null) unknownRoot = true;
    else source = `${cwd.replace(/\/+$/, '')}/${source}`;
  }
  const out: Segment[] = [];
  // `/proc/self/root/etc` and `/proc/1/root/etc` are `/etc` seen through a process's root.
  source = source.replace(/^\/proc\/(?:self|thread-self|\d+|\u0001\*\u0002)\/root(?=\/|$)/, '') || '/';
  // `/proc/self/cwd/../.hermes/.env`: a process's working directory, taken as the one the command runs in.
  const procCwd = /^\/proc\/(?:self|thread-self|\d+|\u0001\*\u0002)\/cwd(?=\/|$)/;
  if (procCwd.test(source)) {
    if (cwd === null) unknownRoot = true;
    else source = source.replace(procCwd, cwd.replace(/\/+$/, ''));
  }
  for (const raw of source.split('/')) {
    if (raw === '' || raw === '.') continue;
    if (raw === '..') {
      out.pop();
      continue;
    }
    out.push(segmentOf(raw));
  }
  const display = (unknownRoot ? '' : '/') + out.map((s) => s.text).join('/');
  return { segments: out, display: unknownRoot ? display.replace(/^\//, '') : display, unknownRoot };
}

function segmentOf(raw: string): Segment {
  const text = raw.replace(/[\u0001\u0002]/g, '');
  if (!raw.includes('\u0001')) return { text, re: null };
  let re = '';
  for (const part of raw.split(/(\u0001[^\u0002]*\u0002)/)) {
    if (!part.startsWith('\u0001')) re += escape(part);
    else {
      const glob = part.slice(1, -1);
      // Runs of `*` are one `*`: `[^/]*[^/]*…` backtracks exponentially on a name that does not match.
      if (glob === '*') re += re.endsWith('[^/]*') ? '' : '[^/]*';
      else re += glob === '?' ? '[^/]' : glob.replace(/^\[!/, '[^');
    }
  }
  try {
    return { text, re: new RegExp(`^${re}$`, 'i') };
  } catch {
    return { text, re: /^.*$/ };
  }
}

/** A concrete anchor segment; `*` stands for any one segment. */
function segmentMatches(segment: Segment, anchor: string): boolean {
  if (anchor === '*') return true;
  return segment.re ? segment.re.test(anchor) : segment.text.toLowerCase() === anchor.toLowerCase();
}

const split = (p: string) => p.split('/').filter(Boolean);

/** The pattern can name `anchor` itself or something under it. */
export function reaches(p: ResolvedPath, anchor: string): boolean {
  if (p.unknownRoot) return false;
  const a = split(anchor);
  if (p.segments.length < a.length) return false;
  return a.every((seg, i) => segmentMatches(p.segments[i]!, seg));
}

/** Removing or replacing the pattern's tree takes `anchor` with it: it names the anchor, an ancestor, or all its contents. */
export function covers(p: ResolvedPath, anchor: string): boolean {
  if (p.unknownRoot) return false;
  const a = split(anchor);
  const n = Math.min(p.segments.length, a.length);
  for (let i = 0; i < n; i += 1) if (!segmentMatches(p.segments[i]!, a[i]!)) return false;
  // Deeper than the anchor: only when the rest is "everything in it" (`~/*`, `~/**`, `/etc/.*`).
  return p.segments.slice(a.length).every(isEverything);
}

/** A segment that matches every name (`*`, `**`, `.*`, `.[!.]*`, `..?*`), or one known only at run time. */
const isEverything = (s: Segment) => s.re !== null && /^\.?(?:\*|\?|\[[^\]]+\])*\*$|^\.\.\?\*$/.test(s.text.replace(/\*+/g, '*'));

/** How deep a pattern names, not counting trailing "everything in it" segments (`/usr/lib/*` is 2). */
function namedDepth(p: ResolvedPath): number {
  let n = p.segments.length;
  while (n > 0 && isEverything(p.segments[n - 1]!)) n -= 1;
  return n;
}

export function homesOf(facts: PathFacts): string[] {
  return [facts.home, '/root', '/home/*', '/Users/*'];
}

const SYSTEM_TOP = ['/bin', '/boot', '/dev', '/etc', '/lib', '/lib32', '/lib64', '/libx32', '/nix', '/opt', '/proc', '/root', '/run', '/sbin', '/snap', '/srv', '/sys', '/usr', '/var', '/home', '/Users', '/System', '/Library', '/Applications', '/private', '/Volumes', '/mnt', '/media', '/efi', '/gnu', '/lost+found'];
const SECOND_LEVEL = ['/usr/*', '/var/*', '/etc/*', '/lib/*', '/boot/*', '/System/*', '/Library/*', '/private/*', '/nix/*', '/snap/*'];
const NOT_TREES = ['/var/tmp', '/var/folders', '/private/tmp', '/private/var'];

/**
 * What a recursive delete, chmod, chown or move may never take: `/`, system directories (and their
 * children, like `/usr/lib`), and any home. Returns the class, or null.
 */
export function protectedTree(p: ResolvedPath, facts: PathFacts): string | null {
  if (p.unknownRoot) return null;
  if (p.segments.length === 0 || covers(p, '/')) return '/';
  for (const home of homesOf(facts)) if (covers(p, home) && split(home).length <= p.segments.length) return 'home';
  if (covers(p, facts.home)) return 'home';
  for (const dir of SYSTEM_TOP) if (covers(p, dir)) return dir === '/home' || dir === '/Users' || dir === '/root' ? 'home' : 'system directory';
  if (NOT_TREES.some((d) => reaches(p, d))) return null;
  for (const dir of SECOND_LEVEL) if (covers(p, dir) && namedDepth(p) <= 2) return 'system directory';
  return null;
}

const RC_FILES = [
  '.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.bash_aliases', '.profile', '.zshrc', '.zshenv', '.zprofile',
  '.zlogin', '.zlogout', '.kshrc', '.mkshrc', '.cshrc', '.tcshrc', '.login', '.inputrc', '.xprofile', '.xinitrc', '.xsessionrc',
  '.pam_environment', '.config/fish', '.config/environment.d', '.bash.d', '.zshrc.d', '.bashrc.d', '.profile.d', '.config/zsh', '.zsh',
  '.oh-my-zsh/custom', '.config/bash', '.config/nushell', '.config/xonsh', '.xonshrc', '.config/powershell', '.tmux.conf', '.config/tmux',
  '.vimrc', '.config/nvim', '.gvimrc', '.exrc', '.emacs', '.emacs.d', '.config/emacs', '.npmrc', '.yarnrc', '.pythonrc', '.irbrc', '.pryrc',
];
const CREDENTIALS = ['.aws', '.netrc', '.pgpass', '.git-credentials', '.npmrc', '.pypirc', '.docker/config.json', '.kube', '.gnupg', '.config/gh', '.config/gcloud', '.azure', '.terraform.d/credentials.tfrc.json', '.cargo/credentials', '.cargo/credentials.toml', '.gem/credentials', '.config/hub'];
const BLOCK_DEVICE = /^(?:sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|r?disk\d|md\d|dm-\d|loop\d|sr\d|fd\d|mapper|disk|block|root|zd\d|rbd\d|nbd\d|bcache\d|mtdblock\d|mtd\d|ubi|pmem\d|mem$|kmem$|port$)/i;
const BENIGN_DEVICE = /^(?:null|zero|full|random|urandom|stdin|stdout|stderr|tty|ptmx|pts|fd|shm)$/i;
const DOTENV = /^\.env(?:\.[\w.-]+)?$/i;
const DOTENV_TEMPLATE = /\.(?:example|sample|template|dist|defaults?|schema)$/i;

interface Rule {
  anchors: (f: PathFacts) => string[];
  target: string;
  level: WriteLevel;
  why: string;
}

const underHomes = (...rel: string[]) => (f: PathFacts) => homesOf(f).flatMap((h) => rel.map((r) => `${h}/${r}`));

const RULES: Rule[] = [
  { anchors: () => ['/proc/sysrq-trigger', '/boot', '/proc/sys/kernel/sysrq'], target: 'kernel', level: 'hardline', why: 'the kernel or boot files' },
  { anchors: (f) => [f.hermesHome], target: '$HERMES_HOME', level: 'dangerous', why: "hermes's own config, secrets, sessions and plugins" },
  { anchors: underHomes('.ssh'), target: '~/.ssh', level: 'dangerous', why: 'ssh keys and authorized_keys' },
  { anchors: underHomes(...RC_FILES), target: 'shell startup file', level: 'dangerous', why: 'a file every new shell runs' },
  { anchors: underHomes('.gitconfig', '.config/git'), target: '~/.gitconfig', level: 'dangerous', why: 'git configuration (aliases and hooks run code)' },
  {
    anchors: (f) => [
      ...underHomes('.config/autostart', '.config/autostart-scripts', '.config/systemd', '.local/share/systemd', 'Library/LaunchAgents', '.config/upstart', '.config/plasma-workspace/env', '.config/plasma-workspace/shutdown', '.kde/Autostart', '.xsession', '.xinitrc', '.config/openbox/autostart', '.config/i3/config', '.config/sway/config', '.config/hypr')(f),
      '/etc/systemd', '/lib/systemd/system', '/usr/lib/systemd/system', '/etc/xdg/autostart', '/Library/LaunchAgents', '/Library/LaunchDaemons', '/etc/init.d', '/etc/rc.local',
    ],
    target: 'autostart',
    level: 'dangerous',
    why: 'programs started at login or boot',
  },
  { anchors: () => ['/var/spool/cron', '/var/spool/anacron', '/etc/cron.d', '/etc/crontab', '/etc/cron.daily', '/etc/cron.hourly', '/etc/cron.weekly', '/etc/cron.monthly', '/var/at', '/usr/lib/cron/tabs'], target: 'cron', level: 'dangerous', why: 'scheduled jobs' },
  { anchors: () => ['/etc/sudoers', '/etc/sudoers.d', '/private/etc/sudoers'], target: 'sudoers', level: 'dangerous', why: 'who may become root' },
  { anchors: () => ['/etc', '/private/etc'], target: '/etc', level: 'dangerous', why: 'system configuration' },
  { anchors: underHomes(...CREDENTIALS), target: 'credentials', level: 'dangerous', why: 'stored credentials' },
  { anchors: () => ['/sys', '/proc'], target: 'kernel settings', level: 'dangerous', why: 'live kernel settings' },
  { anchors: () => ['/dev/tcp', '/dev/udp'], target: 'network', level: 'dangerous', why: 'a network connection opened by bash (as reverse shells do)' },
  { anchors: () => ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/nix', '/snap', '/System', '/Library', '/Applications'], target: 'system directory', level: 'dangerous', why: 'installed system files' },
];

/** The pattern can name `$HERMES_HOME/.env` itself, where hermes keeps API keys (reading it asks). */
export function namesHomeDotenv(p: ResolvedPath, facts: PathFacts): boolean {
  const anchor = `${facts.hermesHome.replace(/\/+$/, '')}/.env`;
  return !p.unknownRoot && p.segments.length === split(anchor).length && reaches(p, anchor);
}

/**
 * The pattern can name another process's environment (`/proc/$PPID/environ`, a glob over /proc,
 * `/proc/1/task/1/environ`): hermes's own holds the API keys it was started with, which no value
 * redactor recognises once encoded (`base64 /proc/$PPID/environ`). A process's own (`self`) is its own.
 */
export function namesProcessEnvironment(p: ResolvedPath): boolean {
  const s = p.segments;
  if (p.unknownRoot || !(s.length === 3 || (s.length === 5 && segmentMatches(s[2]!, 'task'))) || !segmentMatches(s[0]!, 'proc')) return false;
  if (!segmentMatches(s.at(-1)!, 'environ')) return false;
  return !(s[1]!.re === null && /^(?:self|thread-self)$/i.test(s[1]!.text));
}

/** The protected classes a write to `p` would touch (most severe first), or an empty list. */
export function classifyWrite(p: ResolvedPath, facts: PathFacts): PathClass[] {
  if (p.unknownRoot) return [];
  const found: PathClass[] = [];
  const names = p.segments.map((s) => s.text.toLowerCase());
  const dev = names[0] === 'dev' && p.segments[1];
  if (dev) {
    const device = p.segments[1]!;
    if (segmentTests(device, BLOCK_DEVICE)) found.push({ target: 'raw disk', level: 'hardline', why: `${p.display} is a disk: writing it destroys the file systems on it` });
    else if (!['tcp', 'udp'].includes(names[1]!) && !segmentTests(device, BENIGN_DEVICE)) found.push({ target: 'device', level: 'dangerous', why: `${p.display} is a device file` });
  }
  for (const rule of RULES) {
    if (rule.anchors(facts).some((a) => reaches(p, a))) found.push({ target: rule.target, level: rule.level, why: `${p.display}: ${rule.why}` });
  }
  if (names.some((n, i) => n === '.hermes' && names[i + 1] === 'plugins')) found.push({ target: '.hermes/plugins', level: 'dangerous', why: `${p.display}: hermes plugins run as code` });
  // `.git/hooks`, `.git/config`, and submodules' `.git/modules/NAME/hooks`.
  if (names.some((n, i) => (n === '.git' || (names[i - 2] === '.git' && names[i - 1] !== undefined && i >= 2)) && (names[i + 1] === 'hooks' || names[i + 1] === 'config'))) found.push({ target: '.git/hooks', level: 'dangerous', why: `${p.display}: git hooks and config run code` });
  const last = p.segments[p.segments.length - 1];
  if (last && segmentTests(last, DOTENV) && !DOTENV_TEMPLATE.test(last.text)) found.push({ target: '.env file', level: 'dangerous', why: `${p.display} holds secrets` });
  if (!found.length && reaches(p, '/var') && !['tmp', 'folders'].includes(names[1] ?? '')) found.push({ target: 'system directory', level: 'dangerous', why: `${p.display}: system state` });
  return dedupe(found);
}

/** A literal segment tested by a regex, or a glob segment that can match a typical name the regex accepts. */
function segmentTests(segment: Segment, re: RegExp): boolean {
  if (!segment.re) return re.test(segment.text);
  return ['sda', 'sdb', 'nvme0n1', 'disk', 'mapper', '.env', 'null', 'tty'].some((name) => segment.re!.test(name) && re.test(name));
}

function dedupe(found: PathClass[]): PathClass[] {
  const seen = new Set<string>();
  return found.filter((c) => !seen.has(c.target) && seen.add(c.target)).sort((a, b) => (a.level === b.level ? 0 : a.level === 'hardline' ? -1 : 1));
}
