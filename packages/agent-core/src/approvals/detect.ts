/**
 * Dangerous-command detection: normalize, split into every simple command that would run, strip
 * wrappers (`sudo`, `env`, `xargs`, `/bin/…`), follow code handed to another interpreter
 * (`bash -c`, `eval`, `ssh host …`, heredocs piped to a shell), then apply the pattern lists. The
 * most severe finding wins; among equals, the first. Pure: no I/O, no environment reads.
 */
import { normalizeCommand } from './normalize.ts';
import { classifyPath, type PathContext } from './pathRules.ts';
import { COMMAND_RULES, KEYS, SHELLS, interpreterPayload, ruleApplies, writeTargets, type CommandView } from './patterns.ts';
import { parseShell, type SimpleCommand, type Word } from './shellSyntax.ts';
import type { Detection } from './types.ts';

export type DetectContext = PathContext;

const SAFE: Detection = { level: 'safe' };
// Deeper nesting than any real command is itself a sign of obfuscation.
const MAX_DEPTH = 6;
const FORK_BOMB = /([^\s(){};|&]+)\s*\(\)\s*\{[^}]*?\1\s*\|\s*&?\s*\1\s*&/;

export function detectCommand(command: string, ctx: DetectContext): Detection {
  return detectText(normalizeCommand(command), ctx, 0);
}

/** For file tools: a write to `filePath` (absolute, or relative to `ctx.cwd`). */
export function detectWrite(filePath: string, ctx: DetectContext): Detection {
  const found = classifyPath(filePath, ctx);
  return found ? { level: found.level, key: found.description, description: found.description } : SAFE;
}

function detectText(text: string, ctx: DetectContext, depth: number): Detection {
  if (depth > MAX_DEPTH) return finding('dangerous', KEYS.tooNested);
  const found: Detection[] = [];
  const unquoted = text.replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, "''");
  if (FORK_BOMB.test(unquoted)) found.push(finding('hardline', KEYS.forkBomb));
  for (const command of parseShell(text)) {
    const view = toView(command);
    for (const target of command.redirects.filter(isWriteRedirect).map((r) => r.target)) found.push(...pathFinding(target, ctx));
    for (const v of [view, ...execViews(view)]) {
      found.push(...judge(v, ctx, depth));
      for (const payload of v.payloads) found.push(detectText(normalizeCommand(payload), ctx, depth + 1));
    }
    if (SHELLS.has(view.name) && !view.payloads.length) {
      for (const input of shellInput(view)) found.push(detectText(normalizeCommand(input), ctx, depth + 1));
    }
  }
  return mostSevere(found);
}

function judge(view: CommandView, ctx: DetectContext, depth: number): Detection[] {
  const found: Detection[] = [];
  for (const rule of COMMAND_RULES) {
    if (ruleApplies(rule, view.name) && rule.test(view, ctx)) found.push(finding(rule.level, rule.description));
  }
  if (found.some((d) => d.level !== 'safe' && d.key === KEYS.interpreter)) {
    // `python -c "os.system('rm -rf /')"`: the strings it runs may be worse than the call itself.
    const literals = [...(interpreterPayload(view) ?? '').matchAll(/'([^']*)'|"([^"]*)"/g)].map((m) => m[1] ?? m[2] ?? '');
    for (const literal of literals) found.push(detectText(normalizeCommand(literal), ctx, depth + 1));
  }
  for (const target of writeTargets(view)) found.push(...pathFinding(target, ctx));
  return found;
}

interface JudgedView extends CommandView {
  /** Code this command hands to a shell: `bash -c X`, `eval X`, `ssh host X`, `watch X`. */
  payloads: string[];
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const RESERVED = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', '!', '{', '}', 'case', 'esac', 'coproc']);
/** Commands that run their arguments as a command, with the options that take a value. */
const WRAPPERS: Record<string, { valued: string[]; skipOperands?: number }> = {
  sudo: { valued: ['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-U', '-T', '--user', '--group', '--host', '--prompt', '--chdir', '--role', '--type', '--other-user'] },
  doas: { valued: ['-u', '-C'] },
  env: { valued: ['-u', '-C', '--unset', '--chdir'] },
  nice: { valued: ['-n', '--adjustment'] },
  nohup: { valued: [] },
  time: { valued: ['-f', '-o', '--format', '--output'] },
  timeout: { valued: ['-s', '-k', '--signal', '--kill-after'], skipOperands: 1 },
  stdbuf: { valued: ['-i', '-o', '-e'] },
  ionice: { valued: ['-c', '-n', '-p', '--class', '--classdata'] },
  xargs: { valued: ['-I', '-n', '-P', '-L', '-d', '-E', '-a', '-s', '--delimiter', '--max-args', '--max-procs', '--arg-file', '--max-lines', '--eof', '--max-chars'] },
  exec: { valued: ['-a'] },
  command: { valued: [] },
  builtin: { valued: [] },
  unbuffer: { valued: [] },
  caffeinate: { valued: ['-t', '-w'] },
  chroot: { valued: ['--userspec', '--groups'], skipOperands: 1 },
  doit: { valued: [] },
};
const SSH_VALUED = new Set(['-b', '-c', '-D', '-E', '-e', '-F', '-I', '-i', '-J', '-L', '-l', '-m', '-O', '-o', '-p', '-Q', '-R', '-S', '-W', '-w', '-B']);

const basename = (word: string) => (word.split('/').pop() ?? word).toLowerCase();

function toView(command: SimpleCommand): JudgedView {
  const upstream: CommandView[] = [];
  for (let from = command.pipeFrom; from; from = from.pipeFrom) upstream.push(unwrap(from.words, from, []));
  return unwrap(command.words, command, upstream);
}

/** Peels wrappers off a command's words until the command that really runs. */
function unwrap(all: Word[], command: SimpleCommand, upstream: CommandView[]): JudgedView {
  const wrappers: string[] = [];
  const payloads: string[] = [];
  let sudoStdin = false;
  let i = 0;
  for (;;) {
    while (i < all.length && ((ASSIGNMENT.test(all[i]!.text) && !all[i]!.quoted) || RESERVED.has(all[i]!.text))) i += 1;
    const name = all[i] ? basename(all[i]!.text) : '';
    const spec = WRAPPERS[name];
    if (!spec) break;
    wrappers.push(name);
    i += 1;
    let operands = spec.skipOperands ?? 0;
    while (i < all.length) {
      const arg = all[i]!.text;
      if (arg === '--') { i += 1; break; }
      if (name === 'command' && (arg === '-v' || arg === '-V')) return view('', [], command, upstream, wrappers, false, []);
      if (name === 'env' && (arg === '-S' || arg === '--split-string')) { payloads.push(all.slice(i + 1).map((w) => w.text).join(' ')); return view('env', all.slice(i + 1), command, upstream, wrappers, sudoStdin, payloads); }
      if (name === 'env' && ASSIGNMENT.test(arg)) { i += 1; continue; }
      if (arg.startsWith('-') && arg.length > 1) {
        if (name === 'sudo' && (arg === '--stdin' || (!arg.startsWith('--') && arg.includes('S')))) sudoStdin = true;
        i += spec.valued.includes(arg) ? 2 : 1;
      } else if (operands > 0) {
        operands -= 1;
        i += 1;
      } else break;
    }
  }
  const name = all[i] ? basename(all[i]!.text) : '';
  const rest = all.slice(i + 1);
  const texts = rest.map((w) => w.text);
  if (SHELLS.has(name)) {
    const c = texts.findIndex((a) => /^-[a-z]*c[a-z]*$/i.test(a) && !a.startsWith('--'));
    const code = c >= 0 ? texts.slice(c + 1).find((a) => !a.startsWith('-')) : undefined;
    if (code !== undefined) payloads.push(code);
  } else if (name === 'su') {
    const c = texts.findIndex((a) => a === '-c' || a === '--command');
    if (c >= 0 && texts[c + 1] !== undefined) payloads.push(texts[c + 1]!);
  } else if (name === 'eval' || name === 'watch') {
    const code = name === 'watch' ? texts.filter((a, k) => !a.startsWith('-') && !['-n', '--interval'].includes(texts[k - 1] ?? '')) : texts;
    if (code.length) payloads.push(code.join(' '));
  } else if (name === 'ssh') {
    let k = 0;
    while (k < texts.length && texts[k]!.startsWith('-')) k += SSH_VALUED.has(texts[k]!) ? 2 : 1;
    if (texts.length > k + 1) payloads.push(texts.slice(k + 1).join(' '));
  }
  return view(name, rest, command, upstream, wrappers, sudoStdin, payloads);
}

function view(name: string, words: Word[], command: SimpleCommand, upstream: CommandView[], wrappers: string[], sudoStdin: boolean, payloads: string[]): JudgedView {
  return { name, words, args: words.map((w) => w.text), wrappers, sudoStdin, command, upstream, payloads };
}

/** `find … -exec rm -rf {} \;`: the command find runs, judged on its own as well. */
function execViews(v: CommandView): JudgedView[] {
  if (v.name !== 'find') return [];
  const out: JudgedView[] = [];
  v.words.forEach((w, i) => {
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(w.text)) return;
    const rest = v.words.slice(i + 1);
    const end = rest.findIndex((x) => x.text === ';' || x.text === '+');
    out.push(unwrap(end >= 0 ? rest.slice(0, end) : rest, v.command, []));
  });
  return out;
}

/** What a shell reads as code from stdin: heredocs, here-strings, `echo …` or `cat <<EOF` piped in. */
function shellInput(v: CommandView): string[] {
  const near = v.upstream[0];
  const piped = near && ['echo', 'printf', 'cat'].includes(near.name) ? [...(near.name === 'cat' ? [] : [near.args.join(' ')]), ...near.command.stdinText] : [];
  return [...v.command.stdinText, ...piped];
}

const isWriteRedirect = (r: { op: string; target: string }) => r.op.includes('>') && !/^(?:\d+|-)$/.test(r.target);

function pathFinding(target: string, ctx: DetectContext): Detection[] {
  const found = classifyPath(target, ctx);
  return found ? [finding(found.level, found.description)] : [];
}

function finding(level: 'dangerous' | 'hardline', description: string): Detection {
  return { level, key: description, description };
}

function mostSevere(found: Detection[]): Detection {
  return found.find((d) => d.level === 'hardline') ?? found.find((d) => d.level === 'dangerous') ?? SAFE;
}
