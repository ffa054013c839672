/**
 * The approval gate's judgement of one command or file write, as a pure function of the text and
 * where it runs: parse (bash grammar) → command facts → rules by effect → one verdict with every
 * finding. Nothing here defaults to safe for what it cannot read: unreadable syntax, unusual
 * characters and command names decided at run time all ask.
 */
import type { Parser } from 'web-tree-sitter';
import { loadBashParser, parseBash, type SyntaxNode } from './bashParser.ts';
import { walkProgram, type CommandFact } from './commandFacts.ts';
import { Judgement, type Invocation } from './judgement.ts';
import { isKnownProgram, programNames, rulesFor } from './programRules.ts';
import { classifyWrite, resolvePath } from './protectedPaths.ts';
import { MAX_BRACE_WORDS, braceReading, continuationReading, emptySubstitutionReading, ifsReading, statementReadings } from './readings.ts';
import './rules/index.ts';
import { staticOutput } from './staticEval.ts';
import type { Finding, JudgeContext, Verdict } from './types.ts';
import { afterWrappers, isWrapper } from './wrappers.ts';
import { judgeAssignment } from './rules/environment.ts';
import { metadataRedirect } from './rules/network.ts';
import { display, isDynamic, lit, literal, type Scope, type WordValue } from './words.ts';

/**
 * Judges a shell command as bash would run it in `ctx.cwd`. Loads the bash grammar on first use.
 * Fails closed: a command that cannot be judged (the grammar failed to load, input too deep to walk)
 * asks, with the reason as its finding.
 */
export async function judgeCommand(command: string, ctx: JudgeContext): Promise<Verdict> {
  try {
    return judgeCommandWith(await loadBashParser(), command, ctx);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { level: 'dangerous', findings: [{ level: 'dangerous', rule: 'gate.error', target: 'command', why: `hermes could not judge this command (${reason})` }] };
  }
}

/** The same, once the grammar is loaded (see `loadBashParser`); throws what `judgeCommand` turns into a finding. */
export function judgeCommandWith(parser: Parser, command: string, ctx: JudgeContext): Verdict {
  const j = new Judgement(ctx, { code: (text, inv, parent, strict, vars) => nested(parser, text, inv, parent, strict, vars), command: judgeWords });
  judgeText(parser, command, scopeOf(ctx), j, true, true);
  return verdictOf(j.findings);
}

/** Judges a file write by `write_file`/`patch` to `filePath` (absolute, or relative to `ctx.cwd`). */
export function judgeWrite(filePath: string, ctx: JudgeContext): Verdict {
  const p = resolvePath(lit(filePath), ctx.cwd ?? null);
  const findings = classifyWrite(p, { home: ctx.home, hermesHome: ctx.hermesHome, cwd: ctx.cwd ?? null }).map(
    (c): Finding => ({ level: c.level, rule: 'write.protected', target: c.target, why: `write ${c.why}` }),
  );
  return verdictOf(findings);
}

export { loadBashParser };

function verdictOf(findings: Finding[]): Verdict {
  const sorted = [...findings].sort((a, b) => (a.level === b.level ? 0 : a.level === 'hardline' ? -1 : 1));
  return { level: sorted[0]?.level ?? 'safe', findings: sorted };
}

function scopeOf(ctx: JudgeContext): Scope {
  return { vars: new Map(), home: ctx.home, hermesHome: ctx.hermesHome, cwd: ctx.cwd ?? null };
}

/**
 * Judges `text` as bash code. `strict`: syntax hermes cannot read, unusual characters and dynamic
 * command names are findings (off for other readings of the same line and for strings pulled out of
 * interpreter code, which only add effects).
 */
function judgeText(parser: Parser, text: string, scope: Scope, j: Judgement, strict: boolean, outermost = false): void {
  const tree = parseBash(parser, text);
  try {
    const walked = walkProgram(tree.rootNode, scope, text);
    const problemLine = (line: number) => {
      if (outermost) j.line = line;
    };
    const unreadable = walked.unreadable[0];
    if (strict && unreadable) {
      problemLine(unreadable.line);
      j.add('dangerous', 'shell.unreadable', 'command', `hermes could not read this command the way bash would (near "${unreadable.text}")`);
    }
    if (strict && (walked.unusual.length || /[\x00-\x08\x0b-\x1f\x7f-\x9f]/.test(text))) {
      problemLine(walked.unusual[0]?.line ?? 1);
      j.add('dangerous', 'shell.unusual-characters', 'command', `unusual characters outside quotes (${describeUnusual(walked.unusual.map((u) => u.text).join(' ') || text)})`);
    }
    // Quoted code in a value runs if the line evaluates it: arithmetic, prompts, eval, `declare -i`.
    const evaluates = /\$\(\(|\(\(|\[\[|\blet\b|\bdeclare\s+-\w*i|@P\}|\bPS[0-4]=|\bPROMPT_COMMAND=|\beval\b|\bprintf\s+-v\b|\btest\s+-v\b/.test(text);
    for (const code of [...walked.embedded, ...(evaluates ? walked.deferred : [])]) {
      if (outermost) j.line = code.line;
      judgeText(parser, code.text, scope, j, strict);
    }
    for (const bomb of walked.forkBombs) {
      if (outermost) j.line = bomb.line;
      j.add('hardline', 'fork-bomb', 'machine', `${bomb.text} (a fork bomb)`);
    }
    for (const fact of walked.commands) {
      // Lines are those of the text the human sees: only the outermost reading knows them.
      if (outermost) j.line = fact.node.startPosition.row + 1;
      judgeFact(fact, j, strict);
    }
    if (outermost) j.line = null;
    // Brace and $IFS readings keep the line breaks, so their findings keep lines too.
    const braces = braceReading(text);
    if (braces === 'too many' && strict) {
      j.add('dangerous', 'shell.unreadable', 'command', `a brace expansion here makes more than ${MAX_BRACE_WORDS} words; hermes does not read that many`);
    }
    const sameLines = [braces === 'too many' ? null : braces, ifsReading(text), emptySubstitutionReading(text)];
    const otherLines = [continuationReading(text), ...(walked.unreadable.length ? statementReadings(text) : [])];
    for (const reading of sameLines) if (reading && reading !== text) judgeText(parser, reading, scope, j, false, outermost);
    for (const reading of otherLines) if (reading && reading !== text) judgeText(parser, reading, scope, j, false);
  } finally {
    tree.delete();
  }
}

function describeUnusual(text: string): string {
  const chars = [...new Set([...text].filter((c) => /[^\t\n\x20-\x7e]/.test(c)))].slice(0, 4);
  return chars.map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`).join(', ');
}

/** Code run by another command: one level deeper, with the scope and directory it runs in. */
function nested(parser: Parser, text: string, inv: Invocation, parent: Judgement, strict: boolean, vars?: ReadonlyMap<string, string | null>): void {
  const inner = new Judgement(parent.ctx, { code: (t, i, p, s, v) => nested(parser, t, i, p, s, v), command: judgeWords }, parent.depth + 1);
  inner.mapPath = inv.mapPath;
  inner.line = parent.line;
  judgeText(parser, text, { ...inv.fact.scope, vars: new Map([...inv.fact.scope.vars, ...(vars ?? [])]), cwd: inv.cwd }, inner, strict);
  for (const f of inner.findings) parent.add(f.level, f.rule, f.target, f.why);
}

const OUTPUT_REDIRECT = /^(?:>|>>|&>|&>>|>\||<>|>&)$/;

function judgeFact(fact: CommandFact, j: Judgement, strict: boolean): void {
  const base: Invocation = { name: '', args: [], fact, cwd: fact.scope.cwd, wrappers: [], mapPath: j.mapPath, moreArgs: false };
  for (const r of fact.redirects) {
    if (r.target && OUTPUT_REDIRECT.test(r.op)) j.write(r.target, base, `redirect ${r.op}`);
    if (r.target) metadataRedirect(r.target, j);
  }
  for (const a of fact.assignments) judgeAssignment(a.name, a.value, base, j);
  const reader = fact.words[0] ? (literal(fact.words[0]) ?? display(fact.words[0])) : 'a redirect';
  for (const word of fact.words.slice(1)) j.read(word, base, `${reader} reads`);
  for (const r of fact.redirects) if (r.target && !OUTPUT_REDIRECT.test(r.op)) j.read(r.target, base, `redirect ${r.op} reads`);
  if (fact.words.length) {
    const nameNode = fact.node.childForFieldName('name');
    if (nameNode && isComputedName(nameNode, fact.words[0]!)) {
      if (strict) j.add('dangerous', 'command.dynamic-name', 'command', `the command name \`${nameNode.text}\` is decided when it runs`);
      const alias = SHELL_VARIABLES.test(nameNode.text) && isDynamic(fact.words[0]!) ? [lit('bash'), ...fact.words.slice(1)] : null;
      judgeWords(alias ?? fact.words, base, j, '');
    } else judgeWords(fact.words, base, j, '');
  }
  const out = staticOutput(fact);
  // `: > db.sqlite`, `echo -n > f`, `cat /dev/null > f`, a bare `> f`: the file is emptied.
  const empties = (fact.words.length === 0 && !fact.stdin) || out === '' || /^(?::|true|false)$/.test(literal(fact.words[0]!) ?? '') || (literal(fact.words[0]!) === 'cat' && fact.words.length > 1 && fact.words.slice(1).every((w) => literal(w) === '/dev/null'));
  if (empties) for (const r of fact.redirects) if (r.target && /^(?:>|>\|)$/.test(r.op)) j.truncate(r.target, base, `${r.op} with nothing written`);
  for (const r of fact.redirects) {
    if (!r.target || !/^(?:>|>>|>\|)$/.test(r.op)) continue;
    const p = j.path(r.target, base);
    if (p && !p.unknownRoot) j.written.set(p.display, out);
  }
}

const SHELL_VARIABLES = /^"?\$\{?(?:SHELL|BASH|0|ZSH_NAME)\}?"?$/;

function isComputedName(node: SyntaxNode, word: WordValue): boolean {
  if (isDynamic(word) || word.pieces.some((p) => p.kind === 'glob')) return true;
  const computed = ['simple_expansion', 'expansion', 'command_substitution', 'process_substitution', 'arithmetic_expansion'];
  return computed.includes(node.type) || node.descendantsOfType(computed).length > 0 || /[{}]/.test(node.text.replace(/'[^']*'|"[^"]*"/g, ''));
}

/** Judges a command given as words: its wrappers, then the rules for the program that runs. */
function judgeWords(words: WordValue[], outer: Invocation, j: Judgement, wrapper: string): void {
  // `time { rm -rf ~; }`, `! { …; }`: a group the grammar read as words; the command is inside.
  if (words[0] && /^[{(]$/.test(literal(words[0]) ?? '')) {
    return judgeWords(words.slice(1).filter((w) => !/^[})];?$|^;$/.test(literal(w) ?? '')).map((w) => (/;$/.test(literal(w) ?? '') ? lit(literal(w)!.slice(0, -1)) : w)), outer, j, wrapper);
  }
  const [head, ...args] = words;
  if (!head) return;
  const written = literal(head);
  // Behind a wrapper (`sudo $CMD`, `nice $(which rm)`), a name decided at run time asks as at top level.
  if (wrapper && (written === null || /[$`]/.test(head.source))) {
    j.add('dangerous', 'command.dynamic-name', 'command', `\`${wrapper}\` runs a command whose name is decided when it runs (${head.source || display(head)})`);
  }
  // `/???/?m`, `/bin/r[m]`: a glob as the name runs whatever it matches; judge the programs it can be.
  if (head.pieces.some((p) => p.kind === 'glob')) {
    const base = resolvePath(head, null).segments.at(-1);
    const pattern = base?.re ?? null;
    if (pattern) for (const name of programNames().filter((n) => pattern.test(n)).slice(0, 12)) judgeWords([lit(name), ...args], outer, j, wrapper);
  }
  // `ln -s /bin/rm ./ls && ./ls -rf ~`: a link made earlier in the line runs the program it points to.
  const linkPath = written?.includes('/') ? j.path(head, outer) : null;
  const linked = linkPath ? j.links.get(linkPath.display) : undefined;
  const runs = linked && literal(linked) ? literal(linked)! : (written ?? display(head));
  const inv: Invocation = {
    ...outer,
    name: canonicalName(runs.split('/').pop()!.toLowerCase()),
    args,
    wrappers: wrapper ? [...outer.wrappers, wrapper] : outer.wrappers,
  };
  if (written !== null && inv.fact.defined.has(written) && !wrapper) {
    j.add('dangerous', 'command.defined-in-line', 'command', `\`${written}\` is a function or alias defined in this command`);
    // Its body was judged where it was defined; with arguments it may do something else (`f() { rm -rf "$1"; }; f /`).
    const code = inv.fact.defined.get(written)!;
    const params = [lit(written), ...args].map(literal);
    const all = params.slice(1).every((p) => p !== null) ? params.slice(1).join(' ') : null;
    if (args.length) j.code(code, inv, true, new Map([...params.map((p, k): [string, string | null] => [String(k), p]), ['@', all], ['*', all]]));
    // An alias's value is spliced in front of the arguments.
    if (!/^\s*\{/.test(code) && args.length) j.code([code, ...args.map((w) => literal(w) ?? display(w))].join(' '), inv, false);
  }
  if (written !== null && (written.includes('/') || j.written.has(written))) runsWrittenFile(written, inv, j);
  buildFilesWritten(inv, j);
  if (afterWrappers(inv, j)) return;
  for (const rule of rulesFor(inv.name)) rule(inv, j);
  if (!isKnownProgram(inv.name)) hiddenCommand(inv, j);
}

/** GNU tools installed with a prefix (`gxargs`, `gchmod` on macOS) and uutils' `uu-rm` are the tools themselves. */
function canonicalName(name: string): string {
  if (isKnownProgram(name) || isWrapper(name)) return name;
  const bare = /^(?:g|uu[-_]|gnu-?)(.+)$/.exec(name)?.[1];
  return bare && (isKnownProgram(bare) || isWrapper(bare)) ? bare : name;
}

/** `./x.sh` or `/tmp/i.sh` written earlier in the same line: its content is code from data. */
function runsWrittenFile(file: string, inv: Invocation, j: Judgement): boolean {
  const p = j.path(lit(file), inv);
  const before = p ? j.writtenBefore(p.display) : null;
  if (!p || !before) return false;
  j.add('dangerous', 'code.from-data', 'command', `runs ${p.display}, a file written or fetched earlier in this command`);
  if (before.content) j.code(before.content, inv);
  return true;
}

/** Build tools and the files that tell them what to run. */
const BUILD_FILES: Record<string, string[]> = {
  make: ['Makefile', 'makefile', 'GNUmakefile'], gmake: ['Makefile', 'makefile', 'GNUmakefile'],
  npm: ['package.json', '.npmrc'], yarn: ['package.json', '.yarnrc', '.yarnrc.yml'], pnpm: ['package.json', '.npmrc'], bun: ['package.json', 'bunfig.toml'],
  pytest: ['conftest.py', 'pytest.ini', 'pyproject.toml', 'setup.cfg', 'tox.ini'], pip: ['setup.py', 'pyproject.toml', 'setup.cfg'], pip3: ['setup.py', 'pyproject.toml', 'setup.cfg'],
  just: ['justfile', 'Justfile', '.justfile'], rake: ['Rakefile', 'rakefile'], cargo: ['Cargo.toml', 'build.rs', '.cargo/config.toml'],
  gradle: ['build.gradle', 'build.gradle.kts', 'settings.gradle'], mvn: ['pom.xml'], tox: ['tox.ini'], nox: ['noxfile.py'], task: ['Taskfile.yml', 'Taskfile.yaml'],
  'docker-compose': ['docker-compose.yml', 'compose.yaml'], poetry: ['pyproject.toml'], uv: ['pyproject.toml'], go: ['go.mod'], cmake: ['CMakeLists.txt'],
};

/** A build tool run on files written (or fetched) earlier in the line runs what they say: code from data. */
function buildFilesWritten(inv: Invocation, j: Judgement): void {
  const files = BUILD_FILES[inv.name];
  if (!files || inv.cwd === null) return;
  const dirOption = inv.args.findIndex((w) => ['-C', '--directory', '--prefix', '--cwd'].includes(literal(w) ?? ''));
  const dir = dirOption >= 0 ? (j.path(inv.args[dirOption + 1] ?? lit('.'), inv)?.display ?? inv.cwd) : inv.cwd;
  for (const file of files) {
    const before = j.writtenBefore(`${dir.replace(/\/$/, '')}/${file}`);
    if (!before) continue;
    j.add('dangerous', 'code.from-data', 'command', `${inv.name} runs what ${file}, written or fetched earlier in this command, tells it to`);
    if (before.content) j.code(buildCommands(file, before.content), inv, false);
  }
}

/** The commands a build file would run: a Makefile's or justfile's recipes, package.json's scripts; else the text. */
function buildCommands(file: string, content: string): string {
  if (/^(?:GNU)?[Mm]akefile$|^\.?[Jj]ustfile$/.test(file)) {
    return [...content.matchAll(/^[^\n:=#]+:[^;\n=]*;(.*)$|^\t(.+)$|^ {2,}(.+)$/gm)].map((m) => (m[1] ?? m[2] ?? m[3] ?? '').replace(/^[@-]+/, '')).join('\n');
  }
  if (file === 'package.json') {
    try {
      const scripts = (JSON.parse(content) as { scripts?: Record<string, unknown> }).scripts ?? {};
      return Object.values(scripts).filter((v): v is string => typeof v === 'string').join('\n');
    } catch {
      return content;
    }
  }
  // Python build files (conftest.py, setup.py, noxfile.py) are judged as the Python they are.
  if (/\.py$/.test(file)) return `python3 - <<'HERMES_PY_EOF'\n${content}\nHERMES_PY_EOF`;
  return content;
}

const PROSE = new Set([':', 'set', 'shopt', 'getent', 'id', 'groups', 'finger', 'whois', 'dig', 'host', 'nslookup', 'echo', 'printf', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'man', 'info', 'which', 'type', 'whereis', 'whatis', 'apropos', 'help', 'tldr', 'history', 'journalctl', 'pgrep', 'git', 'gh', 'jq', 'yq', 'cat', 'less', 'more', 'head', 'tail', 'wc', 'sort', 'uniq', 'cut', 'tr', 'last', 'ls', 'test', '[', '[[', 'read', 'export', 'local', 'declare', 'true', 'false', 'cd', 'pushd', 'mkdir', 'touch', 'notify-send', 'logger', 'say', 'figlet', 'cowsay', 'shellcheck', 'shfmt', 'bat', 'diff', 'file', 'stat', 'basename', 'dirname', 'realpath', 'readlink', 'date', 'sleep', 'wait', 'kill', 'pkill', 'killall', 'xdg-open', 'open', 'code', 'tee', 'column', 'fold', 'fmt', 'nl', 'rev', 'base64', 'md5sum', 'sha256sum', 'curl', 'wget', 'ssh-keygen', 'openssl', 'gpg', 'npm', 'yarn', 'pnpm', 'pip', 'pip3', 'cargo', 'go', 'make', 'docker', 'kubectl', 'python', 'python3', 'node']);

/**
 * An unknown program that may run a command (`foo rm -rf ~`, `foo 'rm -rf ~'`): from its first argument
 * that names a known program, the rest is judged as a command, and each argument with spaces that
 * starts with a known program as code. hermes does not know the program, so what that finds asks.
 */
function hiddenCommand(inv: Invocation, j: Judgement): void {
  if (PROSE.has(inv.name)) return;
  const texts = inv.args.map((w) => literal(w) ?? '');
  const probe = j.probe();
  const start = texts.findIndex((t) => isProgramName(t.split('/').pop() ?? ''));
  if (start >= 0 && inv.args[start]) {
    const tail = inv.args.slice(start);
    if (tail.length === 1 && /\s/.test(texts[start]!)) probe.code(texts[start]!, inv, false);
    else judgeWords(tail, inv, probe, inv.name);
  }
  for (const text of texts) if (/\s/.test(text) && isProgramName(text.trim().split(/\s+/)[0]!.split('/').pop()!)) probe.code(text, inv, false);
  const worst = probe.findings.find((f) => f.level === 'hardline') ?? probe.findings[0];
  if (worst) j.add('dangerous', 'command.unknown-runner', inv.name, `\`${inv.name}\` may run a command that ${worst.why}`);
}

/** A name hermes knows as a program that does something (a rule or a wrapper exists for it). */
const isProgramName = (name: string) => name !== '' && !PROSE.has(name) && (isKnownProgram(name) || isWrapper(name));
