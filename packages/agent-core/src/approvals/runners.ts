/**
 * Runners that are not plain option-then-command wrappers: bwrap's multi-valued options, terminal
 * emulators' `-e`, tmux and screen sessions, hyperfine's command strings, `start-stop-daemon --exec`,
 * `perf stat`, `machinectl shell`, `lxc exec`, `coproc`, `parallel … ::: …` and `watch`.
 */
import type { Invocation, Judgement } from './judgement.ts';
import { hasOpt, optValues, parseOptions, posixSpec as posix } from './options.ts';
import { display, lit, literal, type WordValue } from './words.ts';

/** bwrap's options take 0, 1 or 2 values; the command follows them (paths it binds map to the host). */
const BWRAP_VALUES: Record<string, number> = {
  '--bind': 2, '--ro-bind': 2, '--dev-bind': 2, '--bind-try': 2, '--ro-bind-try': 2, '--dev-bind-try': 2, '--symlink': 2, '--setenv': 2,
  '--dev': 1, '--proc': 1, '--tmpfs': 1, '--mqueue': 1, '--dir': 1, '--chdir': 1, '--unsetenv': 1, '--uid': 1, '--gid': 1, '--hostname': 1,
  '--perms': 1, '--size': 1, '--file': 2, '--bind-data': 2, '--ro-bind-data': 2, '--remount-ro': 1, '--exec-label': 1, '--file-label': 1,
  '--lock-file': 1, '--sync-fd': 1, '--info-fd': 1, '--json-status-fd': 1, '--block-fd': 1, '--userns-block-fd': 1, '--seccomp': 1,
  '--add-seccomp-fd': 1, '--args': 1, '--cap-add': 1, '--cap-drop': 1, '--userns': 1, '--userns2': 1, '--pidns': 1, '--argv0': 1,
};

/** `bwrap OPTIONS… CMD…`: options with their values skipped; paths are the host's when `/` is bound. */
export function bwrap(inv: Invocation, j: Judgement): boolean {
  let i = 0;
  while (i < inv.args.length) {
    const text = literal(inv.args[i]!) ?? '';
    if (text === '--') {
      i += 1;
      break;
    }
    if (!text.startsWith('--')) break;
    i += 1 + (BWRAP_VALUES[text] ?? 0);
  }
  j.command(inv.args.slice(i), inv, 'bwrap');
  return true;
}

/** One word is a command line (run by a shell); several are a command and its arguments. */
function commandOrCode(words: WordValue[], inv: Invocation, j: Judgement, label: string): void {
  if (words.length === 1) j.code(literal(words[0]!) ?? display(words[0]!), inv);
  else if (words.length) j.command(words, inv, label);
}

/** Terminal emulators: the words after one of these options are the command they run. */
const TERMINALS: Record<string, string[]> = {
  xterm: ['-e'], uxterm: ['-e'], urxvt: ['-e'], rxvt: ['-e'], st: ['-e'], alacritty: ['-e', '--command'], kitty: ['--', ''], konsole: ['-e'],
  'gnome-terminal': ['--', '-x', '-e'], 'xfce4-terminal': ['-x', '-e'], tilix: ['-e'], terminator: ['-x', '-e'], foot: ['--', ''],
  wezterm: ['--'], lxterminal: ['-e'], 'mate-terminal': ['-x', '-e'], terminology: ['-e'], qterminal: ['-e'], sakura: ['-x', '-e'],
  'x-terminal-emulator': ['-e'], 'cool-retro-term': ['-e'], ghostty: ['-e'],
};

/** Runners whose command sits after a marker option or in one string. */
export const SPECIAL_RUNNERS: Record<string, (inv: Invocation, j: Judgement) => void> = {
  // `coreutils --coreutils-prog=rm -rf ~`: the multi-call binary runs the named tool.
  coreutils: (inv, j) => {
    const first = literal(inv.args[0] ?? lit('')) ?? '';
    const prog = /^--coreutils-prog=(.+)$/.exec(first)?.[1];
    if (prog) j.command([lit(prog), ...inv.args.slice(1)], inv, 'coreutils');
    else if (first && !first.startsWith('-')) j.command(inv.args, inv, 'coreutils');
  },
  // `autossh -M PORT [ssh options] HOST CMD`: ssh with a monitor port.
  autossh: (inv, j) => {
    const at = inv.args.findIndex((w) => literal(w) === '-M');
    j.command([lit('ssh'), ...(at >= 0 ? [...inv.args.slice(0, at), ...inv.args.slice(at + 2)] : inv.args)], inv, 'autossh');
  },
  // `gdb --args CMD…` (run under the debugger), `sbatch --wrap=CMD`, `nix-shell --run CMD`, `nix develop -c CMD`.
  gdb: (inv, j) => {
    const at = inv.args.findIndex((w) => literal(w) === '--args');
    if (at >= 0) j.command(inv.args.slice(at + 1), inv, 'gdb --args');
  },
  sbatch: (inv, j) => {
    for (const [k, w] of inv.args.entries()) {
      const text = literal(w) ?? '';
      const wrap = /^--wrap=(.*)$/s.exec(text)?.[1] ?? (text === '--wrap' ? literal(inv.args[k + 1] ?? lit('')) : null);
      if (wrap) j.code(wrap, { ...inv, cwd: null });
    }
  },
  'nix-shell': (inv, j) => {
    const at = inv.args.findIndex((w) => ['--run', '--command'].includes(literal(w) ?? ''));
    if (at >= 0 && inv.args[at + 1]) j.code(literal(inv.args[at + 1]!) ?? display(inv.args[at + 1]!), inv);
  },
  nix: (inv, j) => {
    const texts = inv.args.map((w) => literal(w) ?? '');
    const c = texts.findIndex((t) => t === '-c' || t === '--command');
    const dashDash = texts.indexOf('--');
    if (['develop', 'shell'].includes(texts[0] ?? '') && c >= 0) j.command(inv.args.slice(c + 1), inv, `nix ${texts[0]}`);
    else if (['run', 'shell'].includes(texts[0] ?? '') && dashDash >= 0) j.command(inv.args.slice(dashDash + 1), inv, `nix ${texts[0]}`);
  },
  // `podman unshare CMD…`, `buildah unshare CMD…`: the command runs in a user namespace, on the host's files.
  ...Object.fromEntries(
    ['podman', 'buildah'].map((name) => [
      name,
      (inv: Invocation, j: Judgement) => {
        if (literal(inv.args[0] ?? lit('')) === 'unshare') j.command(inv.args.slice(1), inv, `${name} unshare`);
      },
    ]),
  ),
  // `start-stop-daemon --start --exec PROG -- ARGS…`
  'start-stop-daemon': (inv, j) => {
    const texts = inv.args.map((w) => literal(w) ?? '');
    const exec = texts.findIndex((t) => t === '--exec' || t === '-x' || t === '--startas' || t === '-a');
    const dashDash = texts.indexOf('--');
    if (exec >= 0 && inv.args[exec + 1]) j.command([inv.args[exec + 1]!, ...(dashDash >= 0 ? inv.args.slice(dashDash + 1) : [])], inv, 'start-stop-daemon');
  },
  // `hyperfine [OPTIONS] CMD…`: each command (and --prepare/--setup/--cleanup) is shell code.
  hyperfine: (inv, j) => {
    const parsed = parseOptions(inv.args, { short: 'w:m:M:r:p:c:s:S:iNuP:L:', long: ['warmup=', 'min-runs=', 'max-runs=', 'runs=', 'prepare=', 'conclude=', 'cleanup=', 'setup=', 'shell=', 'ignore-failure', 'style=', 'export-json=', 'export-csv=', 'export-markdown=', 'show-output', 'output=', 'command-name=', 'parameter-scan=', 'parameter-list=', 'time-unit=', 'sort=', 'input=', 'N'] });
    for (const code of [...parsed.operands.map((w) => literal(w) ?? display(w)), ...optValues(parsed, 'p', 'prepare', 'c', 'cleanup', 's', 'setup', 'conclude')]) j.code(code, inv);
  },
  // `tmux new -d CMD…`, `tmux send-keys 'CMD' Enter`, `screen -dmS NAME CMD…`
  tmux: (inv, j) => {
    const texts = inv.args.map((w) => literal(w) ?? '');
    const at = texts.findIndex((t) => /^(?:new|new-session|new-window|neww|split-window|splitw|respawn-pane|respawnp|respawn-window|respawnw|run-shell|run|send-keys|send|if-shell|if)$/.test(t));
    if (at < 0) return;
    const parsed = parseOptions(inv.args.slice(at + 1), { short: 'c:e:F:n:s:t:x:y:f:l:p:L:bdhvAEPDZIkKMRHlNX', posix: true });
    commandOrCode(parsed.operands.filter((w) => !/^(?:Enter|C-m|KPEnter)$/.test(literal(w) ?? '')), inv, j, 'tmux');
  },
  screen: (inv, j) => commandOrCode(parseOptions(inv.args, { short: 'aAc:dDe:fFh:iilLmOp:qQrRs:S:t:T:UvwxX:', posix: true }).operands, inv, j, 'screen'),
  // `just --command CMD…`, `machinectl shell [USER@HOST] CMD…`, `perf stat|record|trace [OPTIONS] CMD…`
  just: (inv, j) => {
    const at = inv.args.findIndex((w) => ['--command', '-c'].includes(literal(w) ?? ''));
    if (at >= 0) j.command(inv.args.slice(at + 1), inv, 'just --command');
  },
  machinectl: (inv, j) => {
    if (literal(inv.args[0] ?? lit('')) !== 'shell') return;
    const rest = parseOptions(inv.args.slice(1), { short: 'M:H:E:', long: ['uid=', 'setenv=', 'machine=', 'host='], posix: true }).operands;
    j.command(rest.slice(1), { ...inv, cwd: null }, 'machinectl shell');
  },
  perf: (inv, j) => {
    const sub = literal(inv.args[0] ?? lit('')) ?? '';
    if (!['stat', 'record', 'trace', 'c2c', 'mem', 'sched', 'lock', 'kvm', 'ftrace'].includes(sub)) return;
    const parsed = parseOptions(inv.args.slice(1), { short: 'e:o:p:t:u:C:G:F:c:m:r:I:x:j:b:k:D:d:L:aAgsinqRTvBMN', long: ['event=', 'output=', 'pid=', 'tid=', 'uid=', 'cpu=', 'cgroup=', 'freq=', 'count=', 'mmap-pages=', 'repeat=', 'interval-print=', 'field-separator=', 'call-graph=', 'all-cpus', 'no-inherit', 'quiet', 'verbose'], posix: true });
    j.command(parsed.operands, inv, `perf ${sub}`);
  },
  // `lxc|incus exec NAME -- CMD…`, `multipass exec NAME -- CMD…`, `flatpak-spawn --host CMD…`
  'flatpak-spawn': (inv, j) => j.command(parseOptions(inv.args, { long: ['host', 'watch-bus', 'expose-pids', 'share-pids', 'no-network', 'clear-env', 'latest-version', 'sandbox', 'directory=', 'env=', 'forward-fd=', 'sandbox-expose=', 'sandbox-expose-ro=', 'sandbox-flag=', 'unset-env='], posix: true }).operands, inv, 'flatpak-spawn'),
  ...Object.fromEntries(
    Object.entries(TERMINALS).map(([name, markers]) => [
      name,
      (inv: Invocation, j: Judgement) => {
        const at = inv.args.findIndex((w) => markers.includes(literal(w) ?? '') && literal(w) !== '');
        // kitty and foot also run their operands when no marker is given.
        commandOrCode(at >= 0 ? inv.args.slice(at + 1) : markers.includes('') ? parseOptions(inv.args, posix('1dho:c:T:')).operands : [], inv, j, name);
      },
    ]),
  ),
  ...Object.fromEntries(
    ['lxc', 'incus', 'multipass', 'lxd'].map((name) => [
      name,
      (inv: Invocation, j: Judgement) => {
        const texts = inv.args.map((w) => literal(w) ?? '');
        const dashDash = texts.indexOf('--');
        if (texts[0] === 'exec' && dashDash > 0) j.command(inv.args.slice(dashDash + 1), { ...inv, mapPath: () => null }, `${name} exec`);
      },
    ]),
  ),
};

/** `coproc [NAME] { …; }` or `coproc CMD`: the grammar reads the braces as words; the command is inside. */
export function coproc(inv: Invocation, j: Judgement): boolean {
  let words = inv.args;
  const text = (k: number) => (words[k] ? literal(words[k]!) : null);
  if (text(1) === '{' || text(1) === '(') words = words.slice(2);
  else if (text(0) === '{' || text(0) === '(') words = words.slice(1);
  j.command(words.filter((w) => !['{', '}', '(', ')'].includes(literal(w) ?? '')), inv, 'coproc');
  return true;
}

/** `parallel CMD ::: ARGS`: the command with its arguments; without `:::` they come from stdin. */
export function parallel(inv: Invocation, j: Judgement): boolean {
  const parsed = parseOptions(inv.args, posix('j:k0qvuX', ['jobs=', 'keep-order', 'null', 'dry-run', 'semaphore', 'pipe', 'bar', 'eta', 'halt=', 'joblog=', 'results=', 'tag', 'verbose', 'ungroup', 'line-buffer', 'group', 'shuf', 'timeout=', 'retries=', 'delay=', 'colsep=', 'header=', 'arg-file=']));
  const words = parsed.operands;
  const sep = words.findIndex((w) => /^:::+$|^::::$/.test(literal(w) ?? ''));
  const command = sep >= 0 ? words.slice(0, sep) : words;
  const args = sep >= 0 ? words.slice(sep + 1).filter((w) => !/^:::+$/.test(literal(w) ?? '')) : [];
  // `parallel ::: 'CMD' …`: with no command, each argument is a command line.
  if (!command.length) {
    for (const arg of args) j.code(literal(arg) ?? display(arg), inv);
    if (sep < 0 && inv.fact.stdin) j.add('dangerous', 'code.from-data', 'command', 'parallel runs the command lines it reads from its input');
    return true;
  }
  if (command.length === 1 && /\s/.test(literal(command[0]!) ?? '')) j.code([display(command[0]!), ...args.map(display)].join(' '), inv);
  else if (command.length) j.command([...command, ...args], { ...inv, moreArgs: sep < 0 }, 'parallel');
  return true;
}

/** `watch -n1 CMD…` runs its arguments joined as shell code (with `-x`, as a command). */
export function watch(inv: Invocation, j: Judgement): boolean {
  const parsed = parseOptions(inv.args, posix('n:dgtbexpcwq:', ['interval=', 'differences', 'chgexit', 'no-title', 'beep', 'errexit', 'exec', 'precise', 'color', 'no-wrap', 'equexit=', 'no-rerun']));
  if (hasOpt(parsed, 'x', 'exec')) j.command(parsed.operands, inv, 'watch');
  else if (parsed.operands.length) j.code(parsed.operands.map((w) => literal(w) ?? display(w)).join(' '), inv);
  return true;
}
