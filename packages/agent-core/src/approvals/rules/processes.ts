/**
 * Processes and power: killing every process (pid -1, init, a pid list of everything, a name pattern
 * that matches every name, every process of a user), and shutting down or rebooting in any spelling
 * (init systems, session managers, D-Bus).
 */
import type { Invocation, Judgement } from '../judgement.ts';
import { hasOpt, optValues, parseOptions, type OptionSpec } from '../options.ts';
import { register } from '../programRules.ts';
import { display, lit, literal, type WordValue } from '../words.ts';

const texts = (words: WordValue[]) => words.map((w) => literal(w) ?? display(w));
const hard = (j: Judgement, rule: string, target: string, why: string) => j.add('hardline', rule, target, why);
const everything = (j: Judgement, why: string) => hard(j, 'kill.everything', 'all processes', why);

// ── which processes a name pattern selects ──

/** Process names unlike each other: a pattern that matches all of them matches every process. */
const SAMPLE_NAMES = ['a', 'Z', '7', '_', 'sh', 'sshd', 'systemd', 'kworker/0:1', '(sd-pam)', 'Xorg', 'node server.js', '-bash', '.'];
const POSIX_CLASSES: Record<string, string> = { alpha: 'A-Za-z', digit: '0-9', alnum: 'A-Za-z0-9', upper: 'A-Z', lower: 'a-z', space: '\\s', blank: ' \\t', punct: '!-\\/:-@\\[-`{-~', print: ' -~', graph: '!-~', xdigit: '0-9A-Fa-f', word: '\\w' };

/** The regular expression (POSIX extended, unanchored unless `exact`) matches every process name. */
function matchesEveryName(pattern: string, exact = false, ignoreCase = false): boolean {
  const source = pattern.replace(/\[:(\w+):\]/g, (m, c: string) => POSIX_CLASSES[c] ?? m).replace(/\\[<>]/g, '\\b');
  try {
    const re = new RegExp(exact ? `^(?:${source})$` : source, ignoreCase ? 'i' : '');
    return SAMPLE_NAMES.every((name) => re.test(name));
  } catch {
    return false;
  }
}

const SIGNAL_NAMES = /^-(?:SIG)?(?:HUP|INT|QUIT|ILL|TRAP|ABRT|IOT|BUS|FPE|KILL|USR1|SEGV|USR2|PIPE|ALRM|TERM|STKFLT|CHLD|CONT|STOP|TSTP|TTIN|TTOU|URG|XCPU|XFSZ|VTALRM|PROF|WINCH|IO|POLL|PWR|SYS|RTMIN|RTMAX)(?:[+-]\d+)?$|^-\d+$/i;
const PGREP: OptionSpec = { short: 'acdefhilnorvwxALHQ:F:g:G:P:s:t:u:U:O:q:', long: ['signal=', 'euid=', 'uid=', 'group=', 'pgroup=', 'session=', 'terminal=', 'parent=', 'pidfile=', 'older=', 'runstates=', 'queue=', 'full', 'exact', 'newest', 'oldest', 'inverse', 'ignore-case', 'logpidfile', 'ignore-ancestors', 'require-handler', 'lightweight', 'list-name', 'list-full', 'count', 'delimiter=', 'echo', 'ns=', 'nslist=', 'cgroup=', 'env=', 'help', 'version'] };
const KILLALL: OptionSpec = { short: 'eIgilqrvVwZmdzhs:n:o:u:y:c:t:', long: ['exact', 'ignore-case', 'process-group', 'interactive', 'list', 'quiet', 'regexp', 'verbose', 'version', 'wait', 'signal=', 'ns=', 'older-than=', 'younger-than=', 'user=', 'context='] };

/**
 * pkill, pgrep and killall (psmisc and macOS): why their selection is every process (or every one
 * of a user), or null. `-u USER` with no pattern, `--inverse`, `-P 1`, or a pattern that matches
 * every name (`.`, `''`, `.*`; with killall only as a regular expression, `-r`/`-m`).
 */
function selectsEverything(name: string, args: WordValue[]): string | null {
  const words = args.filter((w) => !SIGNAL_NAMES.test(literal(w) ?? ''));
  const killall = name === 'killall';
  const p = parseOptions(words, killall ? KILLALL : PGREP);
  const patterns = p.operands.map((w) => literal(w)).filter((t) => t === null || killall || !/^\d+$/.test(t));
  const shown = `${name} ${texts(args).join(' ')}`;
  if (hasOpt(p, 'u', 'U', 'euid', 'uid', 'user') && !patterns.length) return `${shown} matches every process of a user`;
  if (!killall && !patterns.length && optValues(p, 'P', 'parent').some((v) => v.split(',').includes('1'))) return `${shown} matches every child of init (nearly every service)`;
  if (!killall && (hasOpt(p, 'inverse') || (name === 'pgrep' && hasOpt(p, 'v')))) return `${shown} matches every process but the ones named`;
  if (killall && !hasOpt(p, 'r', 'regexp', 'm')) return null;
  const exact = !killall && hasOpt(p, 'x', 'exact');
  const ignoreCase = hasOpt(p, 'i', 'I', 'ignore-case');
  const all = patterns.find((t) => t !== null && matchesEveryName(t, exact, ignoreCase));
  return all === undefined ? null : `${shown}: the pattern '${all}' matches every process name`;
}

function pkill(inv: Invocation, j: Judgement): void {
  const all = selectsEverything(inv.name, inv.args);
  if (all) return everything(j, all);
  const a = texts(inv.args);
  const kill = a.some((t, k) => /^-(?:9|kill|sigkill)$|^--signal=(?:9|kill|sigkill)$/i.test(t) || (/^-(?:s|-signal)$/.test(t) && /^(?:9|kill|sigkill)$/i.test(a[k + 1] ?? '')));
  if (kill) j.add('dangerous', 'kill.by-name', 'processes', `${inv.name} ${a.join(' ')} kills processes by name with SIGKILL`);
}
register(['pkill', 'killall'], pkill);
register(['killall5'], (_inv, j) => everything(j, 'killall5 signals every process'));

// ── kill with a list of every pid ──

type Stage = string[];

/** The shell words of a command substitution's pipeline (`$(ps -eo pid= | tail -n +2)`). */
function substitutionStages(source: string): Stage[] | null {
  const inner = /^(?:\$\(|`)([\s\S]*?)(?:\)|`)$/.exec(source.trim())?.[1];
  if (inner === undefined) return null;
  return inner.split('|').map((stage) => [...stage.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!));
}

/** Stages that pass a pid list on without choosing among it (`awk '{print $2}'`, `tail -n +2`, `grep -v grep`). */
const PASS_THROUGH: [RegExp, (args: string[]) => boolean][] = [
  [/^[gmn]?awk$/, (args) => args.some((a) => /^\s*(?:NR\s*[>!]=?\s*\d+\s*)?\{\s*print\s+\$\d+\s*(?:;\s*)?\}\s*$/.test(a))],
  [/^(?:cut|tr|sort|uniq)$/, () => true],
  [/^tail$/, (args) => args.some((a) => /^\+?\d+$|^-n\+?\d+$/.test(a))],
  // `grep -v …`, or a grep for all-digit names (what /proc's pid directories are).
  [/^[ef]?grep$/, (args) => args.some((a) => /^-\w*v/.test(a) || /^\^?\[0-9\]\+?\$?$|^\^?\[\[:digit:\]\]\+\$?$|\\d\+/.test(a))],
];

/** Why the output of `stages` (producer first) is every pid on the machine (or of a user), or null. */
function everyPid(stages: Stage[]): string | null {
  const [producer, ...filters] = stages;
  const [program = '', ...args] = producer ?? [];
  const name = program.split('/').pop()!;
  if (!filters.every(([f = '', ...rest]) => PASS_THROUGH.some(([re, ok]) => re.test(f.split('/').pop()!) && ok(rest)))) return null;
  if (name === 'pgrep') return selectsEverything('pgrep', args.map((a) => lit(a)));
  // `ls /proc | grep '^[0-9]'`, `top -b -n1 | awk …`: listings of every process.
  if ((name === 'ls' || name === 'find') && args.some((a) => /^\/proc\/?$/.test(a))) return '/proc lists every process';
  if ((name === 'top' || name === 'htop') && args.some((a) => /^-\w*b/.test(a))) return `${name} -b lists every process`;
  if (name !== 'ps') return null;
  const line = ` ${args.join(' ')} `;
  if (/\s-\w*[CpqstG]\b|--(?:pid|ppid|sid|tty|quick-pid|Group)\b/.test(line)) return null;
  if (/\s(?:-(?=\w*[eA])\w+|a?x\w*|aux\w*|--all)\s/.test(line) || /\s-\w*[uU]\b|--user\b/.test(line)) return `${args.length ? `ps ${args.join(' ')}` : 'ps'} lists every process`;
  return null;
}

/** The `for … in …` header a command sits in, if any. */
function loopHeader(node: Invocation['fact']['node']): string {
  for (let n = node.parent; n; n = n.parent) if (n.type === 'for_statement') return n.text.split(/;|\bdo\b/)[0] ?? '';
  return '';
}

function kill(inv: Invocation, j: Judgement): void {
  const args = inv.args;
  const targets: WordValue[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const t = literal(args[i]!) ?? '';
    if (t === '--') {
      targets.push(...args.slice(i + 1));
      break;
    }
    if (['-s', '-n', '--signal'].includes(t)) i += 1;
    else if (['-l', '-L', '--list', '--table'].includes(t)) return;
    else if (t === '-1' && (i > 0 || args.length === 1)) targets.push(args[i]!);
    else if (!(t.startsWith('-') && i === 0 && args.length > 1)) targets.push(args[i]!);
  }
  const shown = `${inv.name} ${texts(args).join(' ')}`;
  for (const target of targets) {
    const t = literal(target);
    if (t === '-1') everything(j, `${shown} signals every process it may (pid -1)`);
    if (t === '0' || t === '-0') j.add('dangerous', 'kill.group', 'process group', 'kill 0 signals the whole process group');
    if (t === '1') hard(j, 'kill.everything', 'init', 'signalling pid 1 (init) can bring the machine down');
    // `for p in /proc/[0-9]*; do kill ${p#/proc/}; done`: the loop variable runs over every pid.
    if (/\$\{?(\w+)/.test(target.source) && inv.fact.node.parent && /\bin\s+\/proc\/(?:\[0-9\]|\*)/.test(loopHeader(inv.fact.node))) everything(j, `${inv.name} in a loop over every pid in /proc`);
    // `kill $(ps -e -o pid=)`, `` kill `pgrep .` ``: every process id on the machine.
    const stages = substitutionStages(target.source);
    const all = stages && everyPid(stages);
    if (all) everything(j, `${inv.name} of every process id: ${all}`);
  }
  // `ps -eo pid= | xargs kill`: the pids arrive on xargs's stdin.
  const upstream = inv.moreArgs ? inv.fact.stdin?.upstream : undefined;
  if (upstream?.length) {
    const all = everyPid([...upstream].reverse().map((f) => texts(f.words)));
    if (all) everything(j, `${shown} of every process id piped in: ${all}`);
  }
}
register(['kill'], kill);

// ── shutdown and reboot in any spelling ──

const POWER_WORDS = /^(?:poweroff|reboot|halt|kexec|shutdown|suspend|hibernate|hybrid-sleep|soft-reboot|rescue|emergency)$/;
const POWER_TARGETS = /^(?:poweroff|reboot|halt|kexec|shutdown|rescue|emergency|soft-reboot|ctrl-alt-del|exit|runlevel[0156])\.target$/;
const say = (j: Judgement, what: string) => hard(j, 'power.off', 'machine', what);
const endSession = (j: Judgement, what: string) => j.add('dangerous', 'kill.session', 'user session', what);

/** Programs whose options name what to do, `[names, power options, logout options]`. */
const SESSION_TOOLS: [string[], RegExp, RegExp | null][] = [
  [['openrc-shutdown'], /^-\w*[prHks]|^--(?:poweroff|reboot|halt|kexec|single)/, null],
  [['xfce4-session-logout'], /^-\w*[hrsib]|^--(?:halt|reboot|suspend|hibernate|hybrid-sleep)/, /^-\w*l|^--logout/],
  [['gnome-session-quit', 'cinnamon-session-quit', 'mate-session-quit'], /^--(?:power-off|reboot)/, /^--logout/],
  [['lxqt-leave'], /^--(?:shutdown|reboot|hibernate|suspend)/, /^--logout/],
  [['s6-linux-init-shutdown'], /^-\w*[hpr]/, null],
];

function power(inv: Invocation, j: Judgement): void {
  const a = texts(inv.args).map((x) => x.toLowerCase());
  const shown = `${inv.name} ${a.join(' ')}`.trim();
  if (a.some((x) => ['--help', '--version', '-?'].includes(x))) return;
  if (['shutdown', 'reboot', 'halt', 'poweroff', 'fasthalt', 'fastboot', 's6-poweroff', 's6-reboot', 's6-halt', 'shutdown.exe'].includes(inv.name)) {
    if (a.some((x) => ['-c', '-k', '--show', '/a'].includes(x))) return;
    return say(j, `${inv.name} shuts down or reboots the machine`);
  }
  if (['init', 'telinit', 'runit-init'].includes(inv.name)) {
    if (a.some((x) => ['0', '6', 's', '1'].includes(x))) say(j, `${shown} changes the runlevel (halt, reboot or single-user)`);
    return;
  }
  if (inv.name === 'kexec') {
    if (a.some((x) => /^-\w*e$|^--exec$/.test(x))) say(j, 'kexec -e reboots into another kernel');
    return;
  }
  if (inv.name === 'openrc' || inv.name === 'dinitctl') {
    if (a.some((x) => /^(?:shutdown|reboot|poweroff|halt|kexec|single|softreboot|off)$/.test(x))) say(j, `${shown} shuts down or reboots the machine`);
    return;
  }
  if (inv.name === 's6-svscanctl') {
    if (a.some((x) => /^-\w*[0678]/.test(x))) say(j, `${shown} tells the supervision tree to halt, reboot or power off`);
    else if (a.some((x) => /^-\w*[tqb]/.test(x))) j.add('dangerous', 'service.stop', 'system service', `${shown} stops every supervised service`);
    return;
  }
  const tool = SESSION_TOOLS.find(([names]) => names.includes(inv.name));
  if (tool) {
    const raw = texts(inv.args);
    if (raw.some((x) => tool[1].test(x))) say(j, `${shown} shuts down, reboots or suspends the machine`);
    else if (tool[2] && raw.some((x) => tool[2]!.test(x))) endSession(j, `${shown} ends the login session`);
    return;
  }
  if (inv.name === 'systemctl' || inv.name === 'loginctl') {
    const ops = a.filter((x) => !x.startsWith('-'));
    const verb = ops[0] ?? '';
    if (POWER_WORDS.test(verb)) return say(j, `${inv.name} ${verb} shuts down, reboots or suspends the machine`);
    if (['start', 'isolate', 'restart', 'reload-or-restart', 'try-restart', 'enable', 'default'].includes(verb) && ops.slice(1).some((u) => POWER_TARGETS.test(u) || /^(?:poweroff|reboot|halt|kexec)$/.test(u))) {
      return say(j, `${inv.name} ${verb} ${ops.slice(1).join(' ')} shuts down or reboots the machine`);
    }
    if (verb === 'set-default' && ops.slice(1).some((u) => POWER_TARGETS.test(u))) return say(j, 'boots into power-off on every start');
    // `systemctl kill --signal=KILL user-1000.slice`: every process of a user.
    if (verb === 'kill' && ops.slice(1).some((u) => /^user(?:-\d+)?\.slice$|^user@\d+\.service$|^-\.slice$|^init\.scope$/.test(u))) {
      return everything(j, `${shown} kills every process of a user or of the system`);
    }
    if (inv.name !== 'loginctl') return;
    if (['terminate-user', 'kill-user'].includes(verb)) everything(j, `loginctl ${verb} ${ops.slice(1).join(' ')} kills every process of a user`);
    else if (['terminate-session', 'kill-session', 'terminate-seat'].includes(verb)) endSession(j, `loginctl ${verb} ends a login session`);
  }
}
/** `launchctl reboot`, `ipmitool [chassis] power off|cycle|reset`, `wsl.exe --shutdown`, `skill -u USER`, `slay USER`. */
register(['launchctl', 'ipmitool', 'wsl', 'wsl.exe', 'skill', 'slay', 'snice'], (inv, j) => {
  const a = texts(inv.args).map((x) => x.toLowerCase());
  if (inv.name === 'launchctl' && /^(?:reboot|halt)$/.test(a[0] ?? '')) say(j, `launchctl ${a.join(' ')} reboots or halts the machine`);
  if (inv.name === 'ipmitool' && a.includes('power') && a.some((x) => /^(?:off|cycle|reset|soft|diag)$/.test(x))) say(j, `ipmitool ${a.join(' ')} powers the machine off or resets it`);
  if (inv.name.startsWith('wsl') && a.some((x) => /^(?:--shutdown|--terminate|-t)$/.test(x))) j.add('dangerous', 'power.off', 'machine', `${inv.name} ${a.join(' ')} stops every WSL distribution`);
  if ((inv.name === 'skill' || inv.name === 'snice') && a.some((x) => /^-u$|^--user/.test(x)) && inv.name === 'skill') everything(j, `skill ${a.join(' ')} signals every process of a user`);
  if (inv.name === 'slay' && a.length) everything(j, `slay ${a.join(' ')} kills every process of a user`);
});

register(
  ['shutdown.exe', 'shutdown', 'reboot', 'halt', 'poweroff', 'fasthalt', 'fastboot', 'init', 'telinit', 'runit-init', 'kexec', 'systemctl', 'loginctl', 'openrc', 'dinitctl', 's6-svscanctl', 's6-poweroff', 's6-reboot', 's6-halt', ...SESSION_TOOLS.flatMap(([names]) => names)],
  power,
);

/** D-Bus calls to logind, a session manager (GNOME, Xfce, KDE's ksmserver) or systemd that power off or reboot. */
register(['busctl', 'dbus-send', 'gdbus', 'qdbus', 'qdbus6', 'qdbus-qt5'], (inv, j) => {
  const text = texts(inv.args).join(' ');
  const generic = /login1|SessionManager|ConsoleKit|systemd1/i.test(text) && /\b(?:PowerOff|Reboot|Halt|Suspend|Hibernate|KExec|RequestShutdown|RequestReboot|Shutdown)\b/i.test(text);
  // ksmserver's `logout CONFIRM TYPE MODE`: type 1 reboots, 2 halts; Plasma 6 has org.kde.Shutdown.
  const kde = /ksmserver|org\.kde\.(?:Shutdown|LogoutPrompt)/i.test(text) && /\blogout\s+(?:int32:)?-?\d+\s+(?:int32:)?[12]\b|\b(?:logoutAndShutdown|logoutAndReboot|promptShutDown|promptReboot)\b/i.test(text);
  if (generic || kde) say(j, `${inv.name} asks the system to power off or reboot over D-Bus`);
});

