/**
 * Programs that run another command (`sudo rm …`, `timeout 5 rm …`, `xargs rm`, `busybox rm`,
 * `npx rimraf`): their own options are parsed as they parse them, and the command they run is judged
 * in their place. A wrapper may also run shell code from an option (`flock -c`, `su -c`, `script -c`,
 * `env -S`), change the directory (`env -C`, `sudo -D`), or take more arguments at run time (`xargs`).
 */
import path from 'node:path';
import type { Invocation, Judgement } from './judgement.ts';
import { hasOpt, optValue, optValues, parseOptions, posixSpec as posix, type OptionSpec, type ParsedOptions } from './options.ts';
import { isKnownProgram } from './programRules.ts';
import { SPECIAL_RUNNERS, bwrap, coproc, parallel, watch } from './runners.ts';
import { onEveryFile } from './rules/deletion.ts';
import { judgeAssignment } from './rules/environment.ts';
import { display, lit, literal, type WordValue } from './words.ts';

interface Wrapper {
  options: OptionSpec;
  /** Operands before the command (`timeout DURATION`, `flock FILE`, `chroot DIR`). */
  operands?: number;
  /** Options whose value is shell code. */
  code?: string[];
  /** Options whose value is the directory the command runs in. */
  chdir?: string[];
  /** Options after which no command runs (`command -v`, `sudo -l`). */
  noCommand?: string[];
  /** Arguments are appended at run time. */
  moreArgs?: boolean;
  /** Anything more it does with its options. */
  extra?: (inv: Invocation, parsed: ParsedOptions, j: Judgement) => void;
}



const SUDO_LONG = ['askpass', 'background', 'bell', 'close-from=', 'chdir=', 'preserve-env', 'edit', 'group=', 'set-home', 'help', 'host=', 'login', 'remove-timestamp', 'reset-timestamp', 'list', 'non-interactive', 'preserve-groups', 'prompt=', 'chroot=', 'role=', 'stdin', 'shell', 'type=', 'command-timeout=', 'other-user=', 'user=', 'version', 'validate'];

const WRAPPERS: Record<string, Wrapper> = {
  sudo: {
    options: posix('ABbEeHhiKkLlNnPSsVvg:p:r:t:U:u:C:D:R:T:', SUDO_LONG),
    chdir: ['D', 'chdir'],
    // `-k` runs the command after dropping cached credentials; only these run none.
    noCommand: ['l', 'list', 'v', 'validate', 'V', 'version', 'help'],
    extra: (inv, parsed, j) => {
      if (hasOpt(parsed, 'S', 'stdin') && inv.fact.stdin && inv.fact.stdin.kind !== 'file') {
        j.add('dangerous', 'sudo.password-from-stdin', 'sudo', 'sudo -S reads the password from piped input');
      }
      if (hasOpt(parsed, 'e', 'edit')) for (const file of parsed.operands) j.write(file, inv, 'sudo --edit of');
    },
  },
  doas: { options: posix('nsLu:C:') },
  pkexec: { options: posix('', ['user=', 'disable-internal-agent', 'keep-cwd', 'help', 'version']) },
  run0: { options: posix('u:g:D:', ['user=', 'group=', 'chdir=', 'unit=', 'property=', 'description=', 'slice=', 'nice=', 'setenv=', 'background=', 'machine=', 'no-ask-password']), chdir: ['D', 'chdir'] },
  env: {
    options: posix('0iu:C:S:vP:a:', ['ignore-environment', 'null', 'unset=', 'chdir=', 'split-string=', 'debug', 'help', 'version', 'block-signal', 'default-signal', 'ignore-signal', 'list-signal-handling', 'argv0=']),
    chdir: ['C', 'chdir'],
    code: ['S', 'split-string'],
  },
  nice: { options: posix('n:', ['adjustment=']) },
  nohup: { options: posix('') },
  time: { options: posix('o:f:apqv', ['output=', 'format=', 'append', 'portability', 'quiet', 'verbose']) },
  command: { options: posix('pvV'), noCommand: ['v', 'V'] },
  builtin: { options: posix('') },
  exec: { options: posix('cla:') },
  stdbuf: { options: posix('i:o:e:', ['input=', 'output=', 'error=']) },
  unbuffer: { options: posix('p') },
  caffeinate: { options: posix('disimut:w:') },
  timeout: { options: posix('s:k:vf', ['signal=', 'kill-after=', 'preserve-status', 'foreground', 'verbose']), operands: 1 },
  setsid: { options: posix('cfw', ['ctty', 'fork', 'wait']) },
  flock: {
    options: posix('sexnouFw:E:c:', ['shared', 'exclusive', 'unlock', 'nonblock', 'close', 'wait=', 'timeout=', 'conflict-exit-code=', 'command=', 'no-fork', 'verbose']),
    operands: 1,
    code: ['c', 'command'],
  },
  ionice: { options: posix('c:n:p:P:u:t', ['class=', 'classdata=', 'pid=', 'pgid=', 'uid=', 'ignore']) },
  taskset: { options: posix('pac', ['pid', 'all-tasks', 'cpu-list']), operands: 1 },
  chrt: { options: posix('bdfiorRpaTPD:', ['batch', 'deadline', 'fifo', 'idle', 'other', 'rr', 'reset-on-fork', 'all-tasks', 'pid', 'verbose']), operands: 1 },
  strace: { options: posix('cfFhiqrtTvVxyzZCDwa:b:e:I:o:O:p:P:s:S:u:E:X:U:') },
  ltrace: { options: posix('bcCfhiLrStTVa:A:D:e:F:l:n:o:p:s:u:w:x:') },
  nsenter: {
    options: posix('t:S:G:mMuinpUCTrwFZa', ['target=', 'mount', 'uts', 'ipc', 'net', 'pid', 'user', 'cgroup', 'time', 'root', 'wd', 'setuid=', 'setgid=', 'all', 'preserve-credentials', 'no-fork', 'follow-context']),
  },
  unshare: { options: posix('muinpUCTrfcR:w:S:G:', ['mount', 'uts', 'ipc', 'net', 'pid', 'user', 'cgroup', 'time', 'fork', 'map-root-user', 'map-current-user', 'root=', 'wd=', 'setuid=', 'setgid=', 'propagation=', 'kill-child', 'mount-proc', 'keep-caps']) },
  firejail: { options: posix('') },
  'systemd-run': {
    options: posix('p:E:u:M:H:dqGPtS', ['unit=', 'property=', 'description=', 'slice=', 'uid=', 'gid=', 'nice=', 'working-directory=', 'setenv=', 'user', 'system', 'scope', 'wait', 'pty', 'pipe', 'collect', 'quiet', 'remain-after-exit', 'service-type=', 'on-calendar=', 'on-active=', 'on-boot=', 'on-startup=', 'timer-property=', 'same-dir', 'shell', 'machine=', 'host=', 'no-block', 'no-ask-password', 'send-sighup']),
    chdir: ['working-directory'],
    // A timer runs the command later, like a cron job.
    extra: (_inv, parsed, j) => {
      const timer = [...parsed.opts.keys()].find((k) => /^on-/.test(k));
      if (timer) j.add('dangerous', 'service.persist', 'autostart', `systemd-run --${timer} schedules a command to run later`);
    },
  },
  script: { options: { short: 'aeEfqTB:I:O:t:c:', long: ['append', 'command=', 'echo=', 'return', 'flush', 'force', 'quiet', 'timing=', 'log-in=', 'log-out=', 'log-io=', 'log-timing=', 'logging-format='] }, code: ['c', 'command'], operands: 99 },
  su: { options: { short: 'c:s:lmpPg:G:w:', long: ['command=', 'shell=', 'login', 'preserve-environment', 'session-command=', 'whitelist-environment=', 'group=', 'supp-group=', 'pty'] }, code: ['c', 'command', 'session-command'], operands: 99 },
  runuser: { options: { short: 'c:s:lmpPg:G:u:w:', long: ['command=', 'shell=', 'login', 'preserve-environment', 'session-command=', 'user=', 'group=', 'supp-group=', 'whitelist-environment=', 'pty'] }, code: ['c', 'command', 'session-command'] },
  sg: { options: { short: 'c:' }, code: ['c'], operands: 99 },
  chroot: { options: posix('', ['userspec=', 'groups=', 'skip-chdir']), operands: 1 },
  xargs: {
    // GNU's -i and -l take an optional attached value only; as separate words they are plain flags.
    options: posix('0a:d:E:I:L:n:P:s:prtxoil', ['null', 'arg-file=', 'delimiter=', 'eof=', 'replace=', 'max-lines=', 'max-args=', 'max-procs=', 'max-chars=', 'interactive', 'no-run-if-empty', 'verbose', 'exit', 'process-slot-var=', 'open-tty', 'show-limits']),
    moreArgs: true,
  },
  sshpass: { options: posix('p:f:d:e:vhV') },
  cgexec: { options: posix('g:', ['sticky']) },
  entr: { options: posix('acdnprsz') },
  'xvfb-run': { options: posix('ae:f:n:l:p:s:w:', ['auto-servernum', 'error-file=', 'auth-file=', 'server-num=', 'listen-tcp', 'xauth-protocol=', 'server-args=', 'wait=']) },
  'dbus-run-session': { options: posix('', ['config-file=', 'dbus-daemon=']) },
  fakeroot: { options: posix('l:s:i:bu', ['lib=', 'faked=', 'unknown-is-real']) },
  eatmydata: { options: posix('') },
  proxychains: { options: posix('qf:') },
  proxychains4: { options: posix('qf:') },
  torsocks: { options: posix('idaqu:p:P:', ['user=', 'pass=', 'address=', 'port=', 'isolate']) },
  torify: { options: posix('') },
  catchsegv: { options: posix('') },
  valgrind: { options: posix('hvqd') },
  prlimit: { options: posix('p:o:', ['pid=', 'output=', 'noheadings', 'raw', 'verbose']) },
  numactl: { options: posix('ailbC:m:N:p:P:s:H', ['all', 'interleave=', 'cpunodebind=', 'physcpubind=', 'localalloc', 'preferred=', 'membind=']) },
  mpirun: { options: posix('n:c:H:', ['np=', 'host=', 'hostfile=']) },
  chronic: { options: posix('ev') },
  watchexec: { options: posix('w:e:f:i:d:s:rcpWnoNvh', ['watch=', 'exts=', 'filter=', 'ignore=', 'debounce=', 'signal=', 'restart', 'clear', 'postpone', 'shell=', 'no-shell', 'on-busy-update=', 'project-origin=', 'workdir=', 'env=']) },
  nodemon: { options: posix('w:e:x:i:d:V', ['watch=', 'ext=', 'exec=', 'ignore=', 'delay=', 'signal=', 'config=', 'verbose', 'legacy-watch', 'quiet']), code: ['x', 'exec'] },
  dotenv: { options: posix('e:c:v:p:', ['e', 'c', 'v', 'p', 'debug', 'override']) },
  'dotenvx': { options: posix('f:', ['env-file=', 'overload', 'quiet', 'debug', 'convention=']), operands: 0 },
  ifne: { options: posix('n') },
  lckdo: { options: posix('wWqsE:'), operands: 1 },
  faketime: { options: posix('m:f:', ['exclude-monotonic', 'date-prog=']), operands: 1 },
  nq: { options: posix('cqtw') },
  tsp: { options: posix('nfgLD:N:ul') },
  srun: { options: posix('n:N:c:p:t:J:o:e:w:A:G:', ['ntasks=', 'nodes=', 'cpus-per-task=', 'partition=', 'time=', 'job-name=', 'output=', 'error=', 'nodelist=', 'account=', 'gres=', 'mem=', 'pty', 'exclusive']) },
  logsave: { options: posix('asv'), operands: 1 },
  'run-one': { options: posix('') },
  'run-this-one': { options: posix('') },
  'keep-one-running': { options: posix('') },
  gksudo: { options: posix('u:m:D:kSgdP', ['user=', 'message=', 'description=', 'preserve-env', 'sudo-mode', 'su-mode']) },
  gksu: { options: posix('u:m:D:kSgdP', ['user=', 'message=', 'description=', 'preserve-env', 'sudo-mode', 'su-mode']) },
  kdesu: { options: posix('u:c:tnsfdi', ['noignorebutton', 'attach=']), code: ['c'] },
  kdesudo: { options: posix('u:c:tnsfdi'), code: ['c'] },
  'dbus-launch': { options: posix('', ['exit-with-session', 'exit-with-x11', 'autolaunch=', 'binary-syntax', 'close-stderr', 'config-file=', 'csh-syntax', 'sh-syntax', 'version', 'help']) },
  'systemd-inhibit': { options: posix('', ['what=', 'who=', 'why=', 'mode=', 'list', 'no-pager', 'no-legend']) },
  'systemd-cat': { options: posix('t:p:', ['identifier=', 'priority=', 'stderr-priority=', 'level-prefix=', 'namespace=']) },
  cpulimit: { options: posix('l:p:e:zikvfqbm', ['limit=', 'pid=', 'exe=', 'path=', 'lazy', 'include-children', 'kill', 'verbose', 'foreground', 'quiet', 'background', 'monitor-forks']) },
  trickle: { options: posix('hvVsd:u:w:t:l:n:') },
  nocache: { options: posix('n:') },
  rlwrap: { options: posix('aAbcCDfgGhHiIlmnNoOpPqrRsStTUvwWzE:', ['always-readline', 'ansi-colour-aware', 'break-chars=', 'complete-filenames', 'command-name=', 'history-no-dupes=', 'file=', 'forget-matching=', 'help', 'history-filename=', 'histsize=', 'remember', 'renice', 'version']) },
  'aa-exec': { options: posix('p:n:iv', ['profile=', 'namespace=', 'immediate', 'verbose', 'debug']) },
  runcon: { options: posix('u:r:t:l:c', ['user=', 'role=', 'type=', 'range=', 'compute']) },
  chpst: { options: posix('u:U:b:e:n:l:L:m:d:o:p:f:c:r:t:/:vP012') },
  setuidgid: { options: posix(''), operands: 1 },
  envuidgid: { options: posix(''), operands: 1 },
  envdir: { options: posix(''), operands: 1 },
  softlimit: { options: posix('m:d:s:l:a:o:p:f:c:r:t:') },
  setlock: { options: posix('nNxX'), operands: 1 },
  pgrphack: { options: posix('') },
  daemonize: { options: posix('ac:e:E:l:o:p:u:v') },
  'sandbox-exec': { options: posix('f:n:p:D:') },
  arch: { options: posix('36ih') },
  mosh: { options: posix('p:a:n', ['client=', 'server=', 'ssh=', 'predict=', 'port=', 'bind-server=', 'family=', 'no-init', 'local', 'experimental-remote-ip=']), operands: 1 },
  toolbox: { options: posix('c:r:d:', ['container=', 'release=', 'distro=']), operands: 1 },
  'distrobox-enter': { options: posix('n:e:T', ['name=', 'additional-flags=', 'no-tty', 'no-workdir', 'clean-path']) },
  bwrap: { options: { short: '', long: [], posix: true } },
  'ssh-agent': { options: posix('cdDkE:a:P:t:O:') },
  tini: { options: posix('svgwlpe:') },
  'dumb-init': { options: posix('cvr:', ['single-child', 'rewrite=', 'verbose', 'version']) },
  catatonit: { options: posix('gpP') },
  gosu: { options: posix(''), operands: 1 },
  'su-exec': { options: posix(''), operands: 1 },
  setpriv: { options: posix('d', ['reuid=', 'regid=', 'groups=', 'init-groups', 'clear-groups', 'keep-groups', 'inh-caps=', 'ambient-caps=', 'bounding-set=', 'securebits=', 'pdeathsig=', 'selinux-label=', 'apparmor-profile=', 'reset-env', 'nnp', 'no-new-privs']) },
  setarch: { options: posix('vRFZLXBITS3', ['verbose', 'addr-no-randomize', 'fdpic-funcptrs', 'mmap-page-zero', 'addr-compat-layout', 'read-implies-exec', '32bit', 'short-inode', 'whole-seconds', 'sticky-timeouts', '3gb', 'uname-2.6']), operands: 1 },
  linux32: { options: posix('') },
  linux64: { options: posix('') },
  busybox: { options: posix('') },
  toybox: { options: posix('') },
  npx: { options: posix('yqc:p:', ['yes', 'no', 'quiet', 'package=', 'call=', 'ignore-existing', 'no-install', 'prefer-offline', 'prefer-online', 'shell=', 'workspace=', 'workspaces', 'include-workspace-root']), code: ['c', 'call'] },
  pnpx: { options: posix('yq', ['yes']) },
  bunx: { options: posix('', ['bun', 'package=']) },
  uvx: { options: posix('', ['from=', 'with=', 'python=']) },
};

/** Subcommand forms (`npm exec`, `bundle exec`, `poetry run`, `direnv exec DIR`, `mise x TOOL -- …`): how each finds its command. */
interface SubcommandWrapper {
  subs: string[];
  /** Options of the subcommand, POSIX-style (they end at the command). */
  options?: OptionSpec;
  /** Operands before the command (`direnv exec DIR`, `nvm exec VERSION`). */
  operands?: number;
  /** Everything before `--` is the tool's (`mise x node@20 -- node app.js`). */
  untilDashDash?: boolean;
}

const RUNNER_OPTIONS = posix('yqc:p:n:', ['yes', 'no', 'quiet', 'package=', 'call=', 'shell=', 'spec=', 'python=', 'pip-args=', 'index-url=', 'name=', 'prefix=', 'cwd=', 'with=', 'from=', 'env=', 'env-file=', 'group=', 'directory=', 'project=', 'no-capture-output', 'live-stream', 'frozen', 'locked', 'isolated', 'no-sync', 'offline']);
const SUBCOMMAND_WRAPPERS: Record<string, SubcommandWrapper> = {
  npm: { subs: ['exec', 'x'] }, pnpm: { subs: ['dlx', 'exec'] }, yarn: { subs: ['dlx', 'exec'] }, pipx: { subs: ['run'] }, bun: { subs: ['x'] },
  bundle: { subs: ['exec'] }, poetry: { subs: ['run'] }, pipenv: { subs: ['run'] }, uv: { subs: ['run'] }, pdm: { subs: ['run'] },
  rye: { subs: ['run'] }, hatch: { subs: ['run'] }, conda: { subs: ['run'] }, mamba: { subs: ['run'] }, micromamba: { subs: ['run'] },
  mise: { subs: ['exec', 'x'], untilDashDash: true }, rtx: { subs: ['exec', 'x'], untilDashDash: true }, asdf: { subs: ['exec'] },
  direnv: { subs: ['exec'], operands: 1 }, nvm: { subs: ['exec', 'run'], operands: 1 }, volta: { subs: ['run'] }, devbox: { subs: ['run'] },
  deno: { subs: ['x'] }, cargo: { subs: ['exec'] },
  dotnet: { subs: ['exec'] }, op: { subs: ['run'], untilDashDash: true }, doppler: { subs: ['run'], untilDashDash: true },
  infisical: { subs: ['run'], untilDashDash: true }, pixi: { subs: ['run', 'exec'] }, pueue: { subs: ['add'] },
  distrobox: { subs: ['enter'], untilDashDash: true }, ip: { subs: ['netns'], operands: 2 }, aws: { subs: ['exec'] }, 'aws-vault': { subs: ['exec'], operands: 1, untilDashDash: true },
};

/** The subcommand a tool was given, skipping its global options (`pnpm --filter x dlx …`), or null. */
function subcommandOf(inv: Invocation, spec: SubcommandWrapper): number | null {
  for (let i = 0; i < inv.args.length; i += 1) {
    const text = literal(inv.args[i]!) ?? '';
    if (text.startsWith('-')) continue;
    return spec.subs.includes(text) ? i : null;
  }
  return null;
}

/** Judges the command a subcommand wrapper runs; true when `inv` was one. */
function subcommandWrapper(inv: Invocation, j: Judgement): boolean {
  const spec = SUBCOMMAND_WRAPPERS[inv.name];
  const at = spec ? subcommandOf(inv, spec) : null;
  if (!spec || at === null) return false;
  let rest = inv.args.slice(at + 1);
  const dashDash = rest.findIndex((w) => literal(w) === '--');
  if (spec.untilDashDash && dashDash >= 0) rest = rest.slice(dashDash + 1);
  else {
    const parsed = parseOptions(rest, spec.options ?? RUNNER_OPTIONS);
    for (const code of optValues(parsed, 'c', 'call')) if (code !== '\u0000') j.code(code, inv);
    rest = parsed.operands.slice(spec.operands ?? 0);
  }
  j.command(rest, inv, `${inv.name} ${literal(inv.args[at]!)}`);
  return true;
}

/**
 * Judges the command a wrapper runs in its place. Returns true when `inv` was a wrapper (judged here),
 * false when it is an ordinary program for the rules.
 */
export function afterWrappers(inv: Invocation, j: Judgement): boolean {
  if (subcommandWrapper(inv, j)) return true;
  if (inv.name === 'coproc') return coproc(inv, j);
  if (inv.name === 'bwrap') return bwrap(inv, j);
  const special = SPECIAL_RUNNERS[inv.name];
  if (special) {
    special(inv, j);
    // A program with rules of its own (gdb, podman) is judged by them too.
    return !isKnownProgram(inv.name);
  }
  if (inv.name === 'parallel' || inv.name === 'sem') return parallel(inv, j);
  if (inv.name === 'watch') return watch(inv, j);
  const spec = WRAPPERS[inv.name];
  if (!spec) return false;
  const parsed = parseOptions(inv.args, spec.options);
  spec.extra?.(inv, parsed, j);
  const codes = optValues(parsed, ...(spec.code ?? [])).filter((c) => c !== '\u0000');
  // `env -S 'rm -rf' ~`: the words after the split string are appended to it (even ones env would
  // reject as options: judging them costs nothing, and a variant env may accept them).
  if (inv.name === 'env' && codes.length) {
    const at = inv.args.findIndex((w) => /^-\w*S|^--split-string/.test(literal(w) ?? ''));
    const attached = /^(?:-\w*S|--split-string=)(.+)$/s.exec(literal(inv.args[at]!) ?? '');
    const after = inv.args.slice(at + (attached ? 1 : 2)).map((w) => literal(w) ?? display(w));
    j.code([codes[codes.length - 1]!, ...after].join(' '), inv);
    return true;
  }
  for (const code of codes) j.code(code, inv);
  if (spec.noCommand?.some((o) => parsed.opts.has(o))) return true;
  let words = parsed.operands;
  // env, sudo and doas take `NAME=value` words before the command: the environment it runs with.
  if (['env', 'sudo', 'doas', 'run0'].includes(inv.name)) {
    while (words[0] && /^[A-Za-z_][\w%()]*=/.test(literal(words[0]) ?? '')) {
      const text = literal(words[0])!;
      judgeAssignment(text.slice(0, text.indexOf('=')), lit(text.slice(text.indexOf('=') + 1)), inv, j);
      words = words.slice(1);
    }
  }
  // `su -- USER -c CMD`: after `--`, the words after USER go to the user's shell, `-c CMD` included.
  if ((inv.name === 'su' || inv.name === 'runuser') && !codes.length) {
    const rest = parsed.operands.slice(1).map((w) => literal(w) ?? display(w));
    const c = rest.findIndex((t) => t === '-c' || t === '--command');
    if (c >= 0 && rest[c + 1]) j.code(rest[c + 1]!, inv);
  }
  // `sg GROUP 'CMD'`: the command string runs in sh.
  if (inv.name === 'sg' && !codes.length && parsed.operands[1]) j.code(parsed.operands.slice(1).map((w) => literal(w) ?? display(w)).join(' '), inv);
  if (inv.name === 'runuser') {
    // `runuser -u USER [--] CMD…` runs CMD; `runuser [-l] USER [-c CMD]` is su's form.
    if (hasOpt(parsed, 'u', 'user')) words = parseOptions(inv.args, { ...spec.options, posix: true }).operands;
    else words = [];
  }
  const skip = spec.operands === 99 ? words.length : spec.operands ?? 0;
  const skipped = words.slice(0, skip);
  words = words.slice(skip);
  if (skip && literal(words[0] ?? lit('')) === '--') words = words.slice(1);
  // `flock FILE -c CMD`: the command option may follow the lock file.
  if (inv.name === 'flock' && ['-c', '--command'].includes(literal(words[0] ?? lit('')) ?? '') && words[1]) {
    const code = literal(words[1]);
    if (code !== null) j.code(code, inv);
    return true;
  }
  if (inv.name === 'xargs' && xargsWithKnownInput(words, parsed, inv, j)) return true;
  const chdir = optValue(parsed, ...(spec.chdir ?? []));
  const next: Invocation = {
    ...inv,
    cwd: chdir === undefined ? inv.cwd : chdir === '\u0000' ? null : path.posix.resolve(inv.cwd ?? '/', chdir),
    moreArgs: inv.moreArgs || spec.moreArgs === true || hasOpt(parsed, 'I', 'i', 'replace'),
  };
  if (inv.name === 'chroot' && skipped[0]) next.mapPath = chrootMap(skipped[0], inv);
  // `npx rimraf@5 ~`, `npx https://…/pkg.tgz`: the package's command, or code from the network.
  if (/^(?:npx|pnpx|bunx|uvx)$/.test(inv.name) && words[0]) {
    const spec = literal(words[0]) ?? '';
    if (/^(?:https?:|git\+|github:|[\w.-]+\/[\w.-]+#)/.test(spec)) j.add('dangerous', 'code.from-network', 'command', `${inv.name} runs a package fetched from ${spec}`);
    words = [lit(spec.replace(/^(@?[^@]+)@.*$/, '$1').split('/').pop()!), ...words.slice(1)];
  }
  // One word with blanks (`gksudo 'rm -rf /'`): runners like gksudo take a command line; for the rest it
  // names no program, and reading it as a command line costs nothing.
  if (words.length === 1 && /\s/.test(literal(words[0]!) ?? '')) j.code(literal(words[0]!)!, next);
  else if (words.length) j.command(words, next, inv.name);
  // `sudo -s`, `sudo -i`, `su`, `runuser -l user` without a command start a shell that reads stdin.
  else if (SHELL_WITHOUT_COMMAND[inv.name]?.(parsed) && !optValues(parsed, ...(spec.code ?? [])).length) {
    if (!inv.fact.stdin) j.add('dangerous', 'sudo.shell', 'root shell', `${inv.name} ${inv.args.map(display).join(' ')} opens a shell as another user`);
    j.command([lit('sh')], next, inv.name);
  }
  return true;
}

const SHELL_WITHOUT_COMMAND: Record<string, (parsed: ParsedOptions) => boolean> = {
  sudo: (p) => hasOpt(p, 's', 'i', 'shell', 'login'),
  su: () => true,
  runuser: () => true,
  doas: (p) => hasOpt(p, 's'),
  sg: () => true,
};

/**
 * xargs whose input is known: a text (`echo … |`, a here-string) gives its items; `find DIR … |` gives
 * what is under DIR (judged as DIR itself). With `-I STR` each item replaces STR; otherwise items are
 * appended. Returns false when the input is not known.
 */
function xargsWithKnownInput(words: WordValue[], parsed: ParsedOptions, inv: Invocation, j: Judgement): boolean {
  const stdin = inv.fact.stdin;
  const producer = stdin?.upstream[0];
  let items: WordValue[] | null = null;
  let everyFile: WordValue | null = null;
  if (stdin?.text) {
    const delimiter = optValue(parsed, 'd', 'delimiter');
    const split = hasOpt(parsed, '0', 'null') ? stdin.text.split('\0') : delimiter !== undefined ? stdin.text.split(delimiter.replace(/^\\n$/, '\n')) : hasOpt(parsed, 'I', 'i', 'replace') ? stdin.text.split('\n') : stdin.text.split(/\s+/);
    items = split.filter(Boolean).map((t) => lit(t));
  } else if (producer && ['find', 'fd', 'fdfind'].includes((literal(producer.words[0] ?? lit('')) ?? '').split('/').pop()!)) {
    const start = producer.words.slice(1).find((w) => !(literal(w) ?? '-').startsWith('-'));
    // Every file under START: a delete or permission change of all of them is one of the tree.
    if (start) everyFile = start;
  }
  if (everyFile && words.length) {
    j.command(onEveryFile(words, everyFile), { ...inv, moreArgs: true }, 'xargs');
    return true;
  }
  if (!items || !words.length) return false;
  const replace = optValue(parsed, 'I', 'replace') ?? (hasOpt(parsed, 'i') ? '{}' : undefined);
  const next = { ...inv, moreArgs: stdin?.text ? false : true };
  if (replace === undefined) j.command([...words, ...items], next, 'xargs');
  else {
    for (const item of items.slice(0, 20)) {
      const value = literal(item) ?? '';
      j.command(words.map((w) => (literal(w)?.includes(replace) ? lit(literal(w)!.split(replace).join(value)) : w)), next, 'xargs');
    }
  }
  return true;
}

/** Paths inside `chroot DIR` are under DIR on the host; `chroot /` changes nothing. */
function chrootMap(dirWord: WordValue, inv: Invocation): Invocation['mapPath'] {
  const dir = literal(dirWord);
  if (dir === null || path.posix.resolve(inv.cwd ?? '/', dir) === '/') return inv.mapPath;
  return () => null;
}

/** A program hermes unwraps (so an unknown program passing it its arguments may be running a command). */
export function isWrapper(name: string): boolean {
  return name in WRAPPERS || name in SUBCOMMAND_WRAPPERS || ['parallel', 'sem', 'watch', 'coproc'].includes(name);
}
