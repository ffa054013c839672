/**
 * The pattern lists, as data. Each rule looks at one simple command already unwrapped from
 * `sudo`, `env`, `xargs`, … (see `detect.ts`), by its name at command position, so an argument
 * that merely mentions a command (`grep -r "rm -rf" .`) never matches. A rule's description is its
 * key: what "allow for this session" and `command_allowlist` remember.
 */
import type { SimpleCommand, Word } from './shellSyntax.ts';
import { resolvePath, type PathContext } from './pathRules.ts';

/** One simple command as the rules see it. */
export interface CommandView {
  /** Basename at command position, lowercased (`/bin/RM` → `rm`). */
  name: string;
  args: string[];
  words: Word[];
  /** Wrappers it ran under, outermost first (`sudo`, `xargs`, …). */
  wrappers: string[];
  /** `sudo -S`: the password comes from stdin. */
  sudoStdin: boolean;
  command: SimpleCommand;
  /** The commands piped into this one, nearest first. */
  upstream: CommandView[];
}

export interface CommandRule {
  level: 'dangerous' | 'hardline';
  description: string;
  /** Names at command position the rule applies to. */
  names: readonly string[] | ((name: string) => boolean);
  test: (view: CommandView, ctx: PathContext) => boolean;
}

export const KEYS = {
  deleteSystem: 'recursive delete of the root, a system directory or home',
  formatDisk: 'format or wipe a disk',
  forkBomb: 'fork bomb',
  killAll: 'kill every process (kill -1)',
  shutdown: 'shut down or reboot the machine',
  recursiveDelete: 'recursive delete',
  forceDelete: 'force delete',
  xargsDelete: 'delete files listed by xargs',
  findDelete: 'delete files with find',
  worldWritable: 'make files world-writable',
  recursiveChmod: 'recursive permission or ownership change',
  dd: 'raw copy with dd',
  sqlDrop: 'SQL DROP (drops a database or table)',
  sqlTruncate: 'SQL TRUNCATE (empties a table)',
  sqlDeleteAll: 'SQL DELETE without WHERE (deletes every row)',
  redisFlush: 'wipe a Redis database',
  remoteToShell: 'run downloaded code in a shell (curl | sh)',
  decodedToShell: 'run decoded data in a shell (base64 -d | sh)',
  eval: 'eval of a dynamic string',
  interpreter: 'interpreter one-liner that runs commands or deletes files',
  metadata: 'cloud metadata endpoint access',
  gitResetHard: 'git reset --hard (discards uncommitted work)',
  gitForcePush: 'git force push',
  gitClean: 'git clean -f (deletes untracked files)',
  gitBranchDelete: 'git branch -D (force-deletes a branch)',
  uninstall: 'uninstall packages',
  killByName: 'kill processes by name (pkill -9, killall)',
  sudoStdin: 'sudo reading a password from stdin',
  service: 'stop or disable a system service',
  crontabRemove: 'remove all cron jobs (crontab -r)',
  tooNested: 'command too deeply nested to check',
} as const;

export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh']);
const INTERPRETER = /^(?:python[\d.]*|pypy\d?|node|nodejs|deno|bun|perl|ruby|php)$/;
const SQL_CLIENTS = new Set(['psql', 'mysql', 'mariadb', 'sqlite3', 'sqlite', 'duckdb', 'sqlcmd', 'clickhouse-client', 'mongo', 'mongosh']);
const DOWNLOADERS = /(?:^|[\s;|&(`])(?:\S*\/)?(?:curl|wget|fetch|aria2c|http|https|xh)\s/;
// Programs that only print or search their arguments: an address in them is text, not a request.
export const PROSE = new Set(['echo', 'printf', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'man', 'git']);

const METADATA = /169\.254\.169\.254|169\.254\.170\.2\b|metadata\.google\.internal|metadata\.azure\.com|100\.100\.100\.200|fd00:ec2::254|\b2852039166\b|0xa9fea9fe/i;
const INTERPRETER_DANGER =
  /\b(?:os\.system|os\.popen|os\.exec\w*|subprocess|rmtree|os\.remove|os\.unlink|os\.rmdir|removedirs|unlink|child_process|rmsync|rmdirsync|unlinksync|fileutils\.rm\w*|file\.delete|fork)\b|\b(?:exec(?:sync|filesync)?|spawn(?:sync)?|system|fs\.rm)\s*\(|`[^`]+`/i;

/** Short flags (`-rf` → r, f) and long flags (`--force`) of an argument list, up to `--`. */
export function flags(args: readonly string[]): { short: Set<string>; long: Set<string>; operands: string[] } {
  const short = new Set<string>();
  const long = new Set<string>();
  const operands: string[] = [];
  let done = false;
  for (const arg of args) {
    if (done || arg === '-' || !arg.startsWith('-')) operands.push(arg);
    else if (arg === '--') done = true;
    else if (arg.startsWith('--')) long.add(arg.split('=')[0]!);
    else for (const ch of arg.slice(1)) short.add(ch);
  }
  return { short, long, operands };
}

const has = (args: readonly string[], ...values: string[]) => args.some((a) => values.includes(a));
const lowered = (args: readonly string[]) => args.map((a) => a.toLowerCase());

function rmShape(args: readonly string[]) {
  const f = flags(args.map((a) => (a.startsWith('-') ? a.toLowerCase() : a)));
  return {
    recursive: f.short.has('r') || f.long.has('--recursive') || f.long.has('--no-preserve-root'),
    force: f.short.has('f') || f.long.has('--force'),
    targets: f.operands,
  };
}

/** `/`, `/*`, a top-level system directory, or home itself (the things hardline protects). */
export function isProtectedDir(raw: string, ctx: PathContext): boolean {
  const p = resolvePath(raw.replace(/\/\*$/, '/'), { home: ctx.home, hermesHome: ctx.hermesHome }).toLowerCase();
  if (p === ctx.home.toLowerCase().replace(/\/+$/, '')) return true;
  return PROTECTED_DIRS.has(p);
}

const PROTECTED_DIRS = new Set([
  '/', '/etc', '/usr', '/bin', '/sbin', '/boot', '/var', '/lib', '/lib32', '/lib64', '/sys', '/proc', '/dev',
  '/home', '/root', '/opt', '/srv', '/system', '/library', '/users', '/applications', '/private',
]);

/** The first subcommand after git's global options (`git -C dir push` → push). */
function gitArgs(args: readonly string[]): { sub: string; rest: string[] } {
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-')) i += ['-C', '-c', '--git-dir', '--work-tree', '--namespace'].includes(args[i]!) ? 2 : 1;
  return { sub: args[i] ?? '', rest: args.slice(i + 1) };
}

/** SQL a client would run: its arguments, heredocs and whatever `echo`/`cat` pipe into it. */
export function sqlText(view: CommandView): string {
  const index = view.args.findIndex((a) => SQL_CLIENTS.has(a.split('/').pop()!.toLowerCase()));
  const own = SQL_CLIENTS.has(view.name) ? view.args : index >= 0 ? view.args.slice(index + 1) : null;
  if (!own) return '';
  const piped = view.upstream.flatMap((u) => (u.name === 'echo' || u.name === 'printf' || u.name === 'cat' ? [...u.args, ...u.command.stdinText] : []));
  return [...own, ...view.command.stdinText, ...piped].join('\n').toLowerCase();
}

const sqlStatements = (view: CommandView) => sqlText(view).split(';');
const usesSql = (name: string) => name !== '' && !PROSE.has(name);

/** A command feeds this one with something fetched or decoded (walks the whole pipeline). */
const fedBy = (view: CommandView, test: (u: CommandView) => boolean) => view.upstream.some(test);
const isDownloader = (u: CommandView) => ['curl', 'wget', 'fetch', 'aria2c', 'http', 'https', 'xh'].includes(u.name);
function isDecoder(u: CommandView): boolean {
  const f = flags(u.args);
  if (u.name === 'base64' || u.name === 'base32') return f.short.has('d') || f.short.has('D') || f.long.has('--decode');
  if (u.name === 'xxd') return f.short.has('r');
  if (u.name === 'openssl') return f.short.has('d') || has(u.args, 'base64', 'enc');
  return ['uudecode', 'tr', 'rev', 'gunzip', 'zcat'].includes(u.name);
}
const runsCode = (view: CommandView) =>
  SHELLS.has(view.name) || (INTERPRETER.test(view.name) && (view.args.length === 0 || view.args[0] === '-'));
const subsOf = (view: CommandView) => view.words.flatMap((w) => w.subs).map((s) => s.source);
const evaluates = (name: string) => SHELLS.has(name) || INTERPRETER.test(name) || ['eval', 'source', '.'].includes(name);
const DECODER_IN_TEXT = /\bbase(?:64|32)\s+(?:-\w*[dD]|--decode)|\bxxd\s+-\w*r|\bopenssl\b.*\s-d\b/;

export const COMMAND_RULES: readonly CommandRule[] = [
  // ── hardline: never runs ──
  {
    level: 'hardline',
    description: KEYS.deleteSystem,
    names: ['rm'],
    test: (v, ctx) => {
      const rm = rmShape(v.args);
      return rm.recursive && rm.targets.some((t) => isProtectedDir(t, ctx));
    },
  },
  {
    level: 'hardline',
    description: KEYS.formatDisk,
    names: (n) => n.startsWith('mkfs') || ['mke2fs', 'mkswap', 'newfs', 'wipefs', 'sgdisk', 'blkdiscard', 'shred', 'diskutil'].includes(n),
    test: (v) => {
      if (v.name === 'wipefs') return flags(v.args).short.has('a') || has(v.args, '--all');
      if (v.name === 'sgdisk') return flags(v.args).short.has('Z') || flags(v.args).short.has('o') || has(v.args, '--zap-all', '--clear');
      if (v.name === 'shred') return v.args.some((a) => a.startsWith('/dev/'));
      if (v.name === 'diskutil') return /^(?:erase\w*|zerodisk|secureerase|reformat)$/i.test(v.args[0] ?? '');
      return true;
    },
  },
  {
    level: 'hardline',
    description: KEYS.killAll,
    names: ['kill'],
    // pid -1 means every process the user may signal. A lone `kill -1` is caught as Hermes does;
    // `kill -1 1234` (SIGHUP to one pid) is not.
    test: (v) => {
      const args = v.args.filter((a) => a !== '--');
      if (args.length === 1) return args[0] === '-1';
      const signalled = /^-(?:\d+|[A-Za-z]+\d*)$/.test(args[0] ?? '') ? args.slice(1) : args[0] === '-s' || args[0] === '-n' ? args.slice(2) : args;
      return signalled.includes('-1');
    },
  },
  {
    level: 'hardline',
    description: KEYS.shutdown,
    names: ['shutdown', 'reboot', 'halt', 'poweroff', 'init', 'telinit', 'systemctl'],
    test: (v) => {
      if (v.name === 'init' || v.name === 'telinit') return has(v.args, '0', '6');
      if (v.name === 'systemctl') return has(lowered(flags(v.args).operands), 'poweroff', 'reboot', 'halt', 'kexec');
      return true;
    },
  },
  // ── dangerous: asks ──
  { level: 'dangerous', description: KEYS.recursiveDelete, names: ['rm'], test: (v) => rmShape(v.args).recursive },
  { level: 'dangerous', description: KEYS.forceDelete, names: ['rm'], test: (v) => rmShape(v.args).force },
  { level: 'dangerous', description: KEYS.xargsDelete, names: ['rm', 'unlink', 'shred'], test: (v) => v.wrappers.includes('xargs') },
  {
    level: 'dangerous',
    description: KEYS.findDelete,
    names: ['find'],
    test: (v) =>
      has(v.args, '-delete') ||
      v.args.some((a, i) => ['-exec', '-execdir', '-ok', '-okdir'].includes(a) && /^(?:\S*\/)?(?:rm|unlink|shred)$/.test(v.args[i + 1] ?? '')),
  },
  {
    level: 'dangerous',
    description: KEYS.worldWritable,
    names: ['chmod'],
    test: (v) =>
      flags(v.args).operands.some((m) => /^0?[0-7]?[0-7]{2}[2367]$/.test(m) || /(?:^|,)[ugo]*[oa][ugoa]*[+=][rwxXst]*w/.test(m)),
  },
  {
    level: 'dangerous',
    description: KEYS.recursiveChmod,
    names: ['chmod', 'chown', 'chgrp'],
    test: (v) => flags(v.args).short.has('R') || has(v.args, '--recursive'),
  },
  { level: 'dangerous', description: KEYS.dd, names: ['dd'], test: () => true },
  {
    level: 'dangerous',
    description: KEYS.sqlDrop,
    names: usesSql,
    test: (v) => /\bdrop\s+(?:table|database|schema|view|index|user|role|collection)\b|\.dropdatabase\(|\.drop\(\)/.test(sqlText(v)),
  },
  { level: 'dangerous', description: KEYS.sqlTruncate, names: usesSql, test: (v) => /\btruncate\s+(?:table\s+)?[\w"`]/.test(sqlText(v)) },
  {
    level: 'dangerous',
    description: KEYS.sqlDeleteAll,
    names: usesSql,
    test: (v) => sqlStatements(v).some((s) => /\bdelete\s+from\b/.test(s) && !/\bwhere\b/.test(s)),
  },
  { level: 'dangerous', description: KEYS.redisFlush, names: ['redis-cli'], test: (v) => v.args.some((a) => /^flush(?:all|db)$/i.test(a)) },
  {
    level: 'dangerous',
    description: KEYS.remoteToShell,
    names: evaluates,
    test: (v) => (runsCode(v) && fedBy(v, isDownloader)) || subsOf(v).some((s) => DOWNLOADERS.test(` ${s} `)),
  },
  {
    level: 'dangerous',
    description: KEYS.decodedToShell,
    names: evaluates,
    test: (v) => (runsCode(v) && fedBy(v, isDecoder)) || subsOf(v).some((s) => DECODER_IN_TEXT.test(s)),
  },
  { level: 'dangerous', description: KEYS.eval, names: ['eval'], test: () => true },
  {
    level: 'dangerous',
    description: KEYS.interpreter,
    names: (n) => INTERPRETER.test(n),
    test: (v) => interpreterPayload(v) !== null && INTERPRETER_DANGER.test(interpreterPayload(v)!),
  },
  { level: 'dangerous', description: KEYS.metadata, names: (n) => !PROSE.has(n), test: (v) => v.args.some((a) => METADATA.test(a)) },
  { level: 'dangerous', description: KEYS.gitResetHard, names: ['git'], test: (v) => gitArgs(v.args).sub === 'reset' && has(gitArgs(v.args).rest, '--hard') },
  {
    level: 'dangerous',
    description: KEYS.gitForcePush,
    names: ['git'],
    test: (v) => {
      const { sub, rest } = gitArgs(v.args);
      const f = flags(rest);
      return sub === 'push' && (f.short.has('f') || [...f.long].some((l) => l.startsWith('--force')) || f.operands.some((o) => o.startsWith('+')));
    },
  },
  {
    level: 'dangerous',
    description: KEYS.gitClean,
    names: ['git'],
    test: (v) => gitArgs(v.args).sub === 'clean' && (flags(gitArgs(v.args).rest).short.has('f') || has(gitArgs(v.args).rest, '--force')),
  },
  {
    level: 'dangerous',
    description: KEYS.gitBranchDelete,
    names: ['git'],
    test: (v) => {
      const { sub, rest } = gitArgs(v.args);
      const f = flags(rest);
      const deletes = f.short.has('D') || (f.short.has('d') || f.long.has('--delete')) && (f.short.has('f') || f.long.has('--force'));
      return sub === 'branch' && deletes;
    },
  },
  {
    level: 'dangerous',
    description: KEYS.uninstall,
    names: ['npm', 'pnpm', 'yarn', 'bun', 'pip', 'pip3', 'pipx', 'apt', 'apt-get', 'aptitude', 'dnf', 'yum', 'zypper', 'pacman', 'brew', 'snap', 'gem', 'cargo', 'conda', 'port'],
    test: (v) => {
      const { short, long, operands } = flags(v.args);
      const sub = operands[0] ?? '';
      const globally = short.has('g') || long.has('--global');
      if (['npm', 'pnpm', 'bun'].includes(v.name)) return ['uninstall', 'un', 'remove', 'rm', 'r', 'unlink'].includes(sub) && globally;
      if (v.name === 'yarn') return sub === 'global' && operands[1] === 'remove';
      if (v.name === 'pacman') return [...short].some((c) => c === 'R') || long.has('--remove');
      if (['apt', 'apt-get', 'aptitude', 'dnf', 'yum', 'zypper'].includes(v.name)) return ['remove', 'purge', 'autoremove', 'erase', 'rm'].includes(sub);
      return ['uninstall', 'remove', 'rm'].includes(sub);
    },
  },
  {
    level: 'dangerous',
    description: KEYS.uninstall,
    names: (n) => /^python[\d.]*$/.test(n),
    test: (v) => v.args.join(' ').includes('-m pip uninstall'),
  },
  {
    level: 'dangerous',
    description: KEYS.killByName,
    names: ['pkill', 'killall'],
    test: (v) => v.name === 'killall' || /(?:^| )(?:-9|-kill|-sigkill|--signal[ =](?:9|kill|sigkill)|-s (?:9|kill|sigkill))(?: |$)/i.test(v.args.join(' ')),
  },
  // Without -S sudo reads the terminal, not the pipe, so only -S lets a piped password through.
  { level: 'dangerous', description: KEYS.sudoStdin, names: () => true, test: (v) => v.sudoStdin },
  {
    level: 'dangerous',
    description: KEYS.service,
    names: ['systemctl', 'service', 'launchctl'],
    test: (v) => v.args.some((a) => /^(?:stop|disable|mask|kill|restart|unload|bootout|remove)$/.test(a)),
  },
  { level: 'dangerous', description: KEYS.crontabRemove, names: ['crontab'], test: (v) => flags(v.args).short.has('r') },
];

/** The code string of `python -c …`, `node -e …`, `perl -e …`, … or null. */
export function interpreterPayload(view: CommandView): string | null {
  const i = view.args.findIndex((a) => ['-c', '-e', '-E', '-r', '--eval', '-p', '--print', 'eval'].includes(a) || /^-\w*[ce]$/.test(a));
  return i >= 0 ? (view.args[i + 1] ?? null) : null;
}

/** Names rules apply to, resolved once per rule. */
export function ruleApplies(rule: CommandRule, name: string): boolean {
  return typeof rule.names === 'function' ? rule.names(name) : rule.names.includes(name);
}

/** Files a command writes or deletes (besides redirects), for the path rules. */
export function writeTargets(view: CommandView): string[] {
  const { args, name } = view;
  const { operands, short } = flags(args);
  const valueOf = (...names: string[]) => {
    const i = args.findIndex((a) => names.includes(a));
    if (i >= 0) return args[i + 1];
    const joined = args.find((a) => names.some((n) => n.startsWith('--') && a.startsWith(`${n}=`)));
    return joined?.split('=').slice(1).join('=');
  };
  switch (name) {
    case 'tee':
    case 'truncate':
    case 'rm':
    case 'unlink':
    case 'shred':
    case 'mv':
      return operands;
    case 'cp':
    case 'install':
    case 'ln':
    case 'rsync': {
      const dir = valueOf('-t', '--target-directory');
      return dir ? [dir] : operands.length >= 2 ? [operands[operands.length - 1]!] : [];
    }
    case 'sed': {
      if (!args.some((a) => /^-[^-]*i/.test(a) || a.startsWith('--in-place'))) return [];
      const scripted = short.has('e') || short.has('f');
      const files = args.filter((a, i) => !a.startsWith('-') && !['-e', '-f'].includes(args[i - 1] ?? ''));
      return scripted ? files : files.slice(1);
    }
    case 'perl':
      return short.has('i') ? args.filter((a, i) => !a.startsWith('-') && !/^-\w*[eE]$/.test(args[i - 1] ?? '')) : [];
    case 'dd':
      return args.filter((a) => a.startsWith('of=')).map((a) => a.slice(3));
    case 'curl':
    case 'wget': {
      const out = name === 'curl' ? valueOf('-o', '--output') : valueOf('-O', '--output-document');
      return out && out !== '-' ? [out] : [];
    }
    default:
      return [];
  }
}
