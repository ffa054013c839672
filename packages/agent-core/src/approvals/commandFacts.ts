/**
 * Walks a bash syntax tree the way bash would run it and lists every simple command that may run —
 * in pipelines, lists, subshells, groups, loops, conditionals, case arms, function bodies, and
 * command or process substitutions — each with its expanded words, redirections, where its stdin
 * comes from, and the working directory at that point (`cd`/`pushd` in the line are followed).
 */
import path from 'node:path';
import type { SyntaxNode } from './bashParser.ts';
import { staticOutput } from './staticEval.ts';
import { codeIn, collectProblems, loopsForever, spawnsInBackground, type Problem } from './syntaxProblems.ts';
import { expandWord, lit, literal, type Scope, type WordValue } from './words.ts';

export interface Redirect {
  op: string;
  /** The file written or read; null for `2>&1` and the like. */
  target: WordValue | null;
  /** `>(…)`/`<(…)` as the target. */
  processSubstitution: boolean;
  /** Words after the target (`rm > /dev/null -rf ~`): the grammar hangs them on the redirect; bash gives them to the command. */
  extraWords: WordValue[];
}

export interface Stdin {
  kind: 'pipe' | 'heredoc' | 'herestring' | 'file' | 'procsub';
  /** Its content when it can be known before running (a literal heredoc, `echo 'x' |`, …). */
  text: string | null;
  /** For pipes and process substitutions: the commands whose output this is, nearest first. */
  upstream: CommandFact[];
  /** For `< file`. */
  file?: WordValue;
}

export interface CommandFact {
  /** The command name and its arguments, expanded. */
  words: WordValue[];
  /** `NAME=value` before the command: the environment it runs with. */
  assignments: { name: string; value: WordValue }[];
  redirects: Redirect[];
  stdin: Stdin | null;
  scope: Scope;
  /** Functions and aliases defined earlier in the line, with their code (a function's body, an alias's value). */
  defined: ReadonlyMap<string, string>;
  node: SyntaxNode;
}

export type { Problem };

export interface WalkResult {
  commands: CommandFact[];
  /** Syntax bash would reject or hermes cannot read (ERROR/MISSING nodes, words split differently). */
  unreadable: Problem[];
  /** Unquoted words with control or non-ASCII characters. */
  unusual: Problem[];
  /** Functions that call themselves in the background or through a pipe (`:(){ :|:& };:`), endless spawning loops. */
  forkBombs: Problem[];
  /** Code the grammar did not parse but bash runs (`${x:-`cmd`}`, backticks in a heredoc, nested backticks). */
  embedded: Problem[];
  /** Code inside quoted assignment values (`x='$(cmd)'`): run only if the value is evaluated later. */
  deferred: Problem[];
}

interface State {
  /** The whole text, to see what separates two words. */
  source: string;
  problems: { unreadable: Problem[]; forkBombs: Problem[]; embedded: Problem[]; deferred: Problem[] };
  scope: Scope;
  stdin: Stdin | null;
  defined: Map<string, string>;
  out: CommandFact[];
}

const copyScope = (scope: Scope): Scope => ({ ...scope, vars: new Map(scope.vars) });

export function walkProgram(root: SyntaxNode, scope: Scope, source: string): WalkResult {
  const unreadable: Problem[] = [];
  const unusual: Problem[] = [];
  const forkBombs: Problem[] = [];
  const embedded: Problem[] = [];
  const deferred: Problem[] = [];
  const state: State = { source, problems: { unreadable, forkBombs, embedded, deferred }, scope: copyScope(scope), stdin: null, defined: new Map(), out: [] };
  collectProblems(root, unreadable, unusual, embedded);
  walkStatement(root, state);
  return { commands: state.out, unreadable, unusual, forkBombs, embedded, deferred };
}

function walkStatement(node: SyntaxNode, state: State): void {
  switch (node.type) {
    case 'command':
      return walkCommand(node, [], state);
    case 'redirected_statement':
      return walkRedirected(node, state);
    case 'pipeline':
      return walkPipeline(node.namedChildren, state, state.stdin);
    case 'subshell':
    case 'command_substitution':
    case 'process_substitution':
      return walkChildren(node, { ...state, scope: copyScope(state.scope) });
    case 'function_definition': {
      const name = node.childForFieldName('name')?.text;
      const body = node.childForFieldName('body');
      if (name) state.defined.set(name, body?.text ?? '');
      if (!body) return;
      const before = state.out.length;
      walkStatement(body, { ...state, stdin: null, scope: copyScope(state.scope) });
      const calls = state.out.slice(before).filter((f) => f.words[0] && literal(f.words[0]) === name);
      if (name && calls.length && (/[|&]/.test(body.text) || calls.length > 1)) {
        state.problems.forkBombs.push({ text: `the function \`${name}\` calls itself without end`, line: node.startPosition.row + 1 });
      }
      return;
    }
    case 'variable_assignment':
      return assign(node, state);
    case 'declaration_command':
      for (const child of node.namedChildren) {
        if (child.type === 'variable_assignment') assign(child, state);
        else if (child.type === 'variable_name') state.scope.vars.set(child.text, state.scope.vars.get(child.text) ?? null);
        else walkSubstitutions(child, state);
      }
      return;
    case 'for_statement': {
      const variable = node.childForFieldName('variable')?.text;
      const values = node.childrenForFieldName('value').flatMap((v) => expandWord(v, state.scope, evaluator(state)));
      for (const value of node.childrenForFieldName('value')) walkSubstitutions(value, state);
      if (variable) state.scope.vars.set(variable, values.length === 1 ? literal(values[0]!) : null);
      const body = node.childForFieldName('body');
      if (body) walkStatement(body, state);
      return;
    }
    case 'while_statement':
    case 'c_style_for_statement':
      if (loopsForever(node) && spawnsInBackground(node.childForFieldName('body'))) {
        state.problems.forkBombs.push({ text: 'a loop that never ends starts a process in the background each time', line: node.startPosition.row + 1 });
      }
      return walkChildren(node, state);
    case 'comment':
    case 'heredoc_body':
      return;
    default:
      return walkChildren(node, state);
  }
}

function walkChildren(node: SyntaxNode, state: State): void {
  for (const child of node.namedChildren) walkStatement(child, state);
}

function assign(node: SyntaxNode, state: State): void {
  const name = node.childForFieldName('name')?.text;
  const value = node.childForFieldName('value');
  // The environment later commands get (`export GIT_PAGER='…'; git log`): judged like `VAR=… cmd`.
  if (name && value) {
    const words = expandWord(value, state.scope, evaluator(state));
    state.out.push({ words: [], assignments: [{ name, value: words[0] ?? lit('') }], redirects: [], stdin: null, scope: copyScope(state.scope), defined: new Map(state.defined), node });
  }
  // `a[$(cmd)]=1`: a subscript is evaluated too.
  walkSubstitutions(node, state);
  if (value?.type === 'raw_string') for (const code of codeIn(value.text)) state.problems.deferred.push({ text: code, line: node.startPosition.row + 1 });
  if (!name) return;
  // `arr=(rm -rf ~)`: each element, and all of them for `${arr[@]}`; `$arr` is the first.
  if (value?.type === 'array') {
    const items = value.namedChildren.flatMap((c) => expandWord(c, state.scope, evaluator(state))).map(literal);
    items.forEach((item, k) => state.scope.vars.set(`${name}[${k}]`, item));
    const all = items.every((i) => i !== null) ? items.join(' ') : null;
    state.scope.vars.set(`${name}[@]`, all);
    state.scope.vars.set(`${name}[*]`, all);
    state.scope.vars.set(name, items[0] ?? '');
    return;
  }
  const words = value ? expandWord(value, state.scope, evaluator(state)) : [];
  state.scope.vars.set(name, words.length === 0 ? '' : words.length === 1 ? literal(words[0]!) : null);
}

/** Commands inside `$(…)`, `` `…` `` and `<(…)` anywhere under `node` (itself included) run too. */
function walkSubstitutions(node: SyntaxNode, state: State, stdin: Stdin | null = null): void {
  if (node.type === 'command_substitution' || node.type === 'process_substitution') {
    const feeds = node.type === 'process_substitution' && node.text.startsWith('>(');
    walkChildren(node, { ...state, stdin: feeds ? stdin : null, scope: copyScope(state.scope) });
    return;
  }
  for (const child of node.namedChildren) walkSubstitutions(child, state, stdin);
}

const evaluator = (state: State) => (node: SyntaxNode, scope: Scope) => {
  const inner: State = { ...state, problems: { unreadable: [], forkBombs: [], embedded: [], deferred: [] }, scope: copyScope(scope), stdin: null, out: [] };
  walkChildren(node, inner);
  const last = inner.out[inner.out.length - 1];
  const out = last && inner.out.length <= 4 ? staticOutput(last) : null;
  return out === null ? null : out.replace(/\n+$/, '');
};

function walkRedirected(node: SyntaxNode, state: State): void {
  const body = node.childForFieldName('body');
  const redirects = node.childrenForFieldName('redirect');
  const extra: Redirect[] = [];
  const extraWords: WordValue[] = [];
  let stdin = state.stdin;
  const after: SyntaxNode[] = [];
  let pipeTo: SyntaxNode[] = [];
  for (const r of redirects) {
    if (r.type === 'heredoc_redirect') {
      const bodyNode = r.namedChildren.find((c) => c.type === 'heredoc_body');
      stdin = { kind: 'heredoc', text: bodyNode?.text ?? '', upstream: [] };
      // With an unquoted delimiter, `$(…)` and backticks in the body run when the heredoc is read.
      if (bodyNode) walkSubstitutions(bodyNode, state);
      const start = r.namedChildren.find((c) => c.type === 'heredoc_start');
      if (bodyNode && start && !/['"\\]/.test(start.text)) {
        for (const code of codeIn(bodyNode.text)) state.problems.embedded.push({ text: code, line: bodyNode.startPosition.row + 1 });
      }
      for (const c of r.namedChildren) {
        if (c.type === 'file_redirect') extra.push(redirectOf(c, state));
        else if (c.type === 'pipeline') pipeTo = c.namedChildren;
        else if (!['heredoc_start', 'heredoc_body', 'heredoc_end', 'herestring_redirect'].includes(c.type)) after.push(c);
      }
    } else if (r.type === 'herestring_redirect') {
      stdin = herestring(r, state);
    } else {
      const redirect = redirectOf(r, state);
      extra.push(redirect);
      extraWords.push(...redirect.extraWords);
      const input = inputFile(r, state);
      if (input) stdin = input;
    }
  }
  const before = state.out.length;
  if (!body) state.out.push({ words: extraWords, assignments: [], redirects: extra, stdin, scope: copyScope(state.scope), defined: new Map(state.defined), node });
  else {
    if (body.type === 'command') walkCommand(body, extra, { ...state, stdin }, extraWords, redirects[0]?.startIndex);
    else {
      const inner = { ...state, stdin };
      walkStatement(body, inner);
      for (const fact of state.out.slice(before)) fact.redirects.push(...extra);
    }
  }
  for (const r of redirects) if (r.type !== 'heredoc_redirect') walkSubstitutions(r, state, procSubStdin(state.out.slice(before)));
  if (pipeTo.length) walkPipeline(pipeTo, state, pipeStdin(state.out.slice(before)));
  for (const statement of after) walkStatement(statement, state);
}

function procSubStdin(upstream: CommandFact[]): Stdin {
  return { kind: 'procsub', text: null, upstream: [...upstream].reverse() };
}

function pipeStdin(upstream: CommandFact[]): Stdin {
  const last = upstream[upstream.length - 1];
  return { kind: 'pipe', text: last ? staticOutput(last) : null, upstream: [...upstream].reverse() };
}

function walkPipeline(elements: SyntaxNode[], state: State, first: Stdin | null): void {
  let stdin = first;
  let upstream: CommandFact[] = [];
  for (const element of elements) {
    const before = state.out.length;
    // Each element of a pipeline runs in a subshell: a `cd` there does not last.
    walkStatement(element, { ...state, stdin, scope: copyScope(state.scope) });
    const produced = state.out.slice(before);
    upstream = [...upstream, ...produced];
    stdin = pipeStdin(upstream);
  }
}

function herestring(node: SyntaxNode, state: State): Stdin {
  walkSubstitutions(node, state);
  // A here-string is expanded but not split: several words are one text.
  const words = node.namedChildren.flatMap((c) => expandWord(c, state.scope, evaluator(state)));
  const texts = words.map(literal);
  const text = words.length && texts.every((t) => t !== null) ? texts.join(' ') : null;
  return { kind: 'herestring', text: text === null ? null : `${text}\n`, upstream: [] };
}

function redirectOf(node: SyntaxNode, state: State): Redirect {
  const op = node.children.find((c) => !c.isNamed)?.type ?? '';
  const [destination, ...rest] = node.childrenForFieldName('destination');
  const extraWords = rest.flatMap((w) => expandWord(w, state.scope, evaluator(state)));
  if (!destination || destination.type === 'number' || destination.text === '-') return { op, target: null, processSubstitution: false, extraWords };
  if (destination.type === 'process_substitution') return { op, target: null, processSubstitution: true, extraWords };
  const words = expandWord(destination, state.scope, evaluator(state));
  return { op, target: words[0] ?? null, processSubstitution: false, extraWords };
}

function inputFile(node: SyntaxNode, state: State): Stdin | null {
  const redirect = redirectOf(node, state);
  if (redirect.op !== '<') return null;
  if (redirect.processSubstitution) {
    // `cmd < <(producer)`: stdin is the producer's output (its commands are walked with the redirect).
    const inner: State = { ...state, problems: { unreadable: [], forkBombs: [], embedded: [], deferred: [] }, scope: copyScope(state.scope), stdin: null, out: [] };
    const sub = node.childrenForFieldName('destination')[0];
    if (sub) walkChildren(sub, inner);
    return { ...pipeStdin(inner.out), kind: 'procsub' };
  }
  if (!redirect.target) return null;
  return { kind: 'file', text: null, upstream: [], file: redirect.target };
}

function walkCommand(node: SyntaxNode, extra: Redirect[], state: State, extraWords: WordValue[] = [], redirectAt?: number): void {
  const words: WordValue[] = [];
  const groups: SyntaxNode[] = [];
  const assignments: CommandFact['assignments'] = [];
  const redirects: Redirect[] = [...extra];
  let stdin = state.stdin;
  const children = node.namedChildren;
  for (const [index, child] of children.entries()) {
    // `sh 0<<<'…'`: the grammar reads the fd as an argument; bash reads it as the redirect's.
    const next = children[index + 1];
    const nextStart = next ? (next.type.endsWith('redirect') ? next.startIndex : -1) : redirectAt;
    if (child.type === 'number' && nextStart === child.endIndex) continue;
    if (child.type === 'variable_assignment') {
      const name = child.childForFieldName('name')?.text;
      const value = child.childForFieldName('value');
      if (name && value) assignments.push({ name, value: expandWord(value, state.scope, evaluator(state))[0] ?? lit('') });
      if (value?.type === 'raw_string') for (const code of codeIn(value.text)) state.problems.deferred.push({ text: code, line: child.startPosition.row + 1 });
    } else if (child.type === 'file_redirect') {
      const redirect = redirectOf(child, state);
      redirects.push(redirect);
      words.push(...redirect.extraWords);
      stdin = inputFile(child, state) ?? stdin;
    } else if (child.type === 'herestring_redirect') stdin = herestring(child, state);
    // `time ( … )`, `time { …; }`: the grammar hangs the group on the command; it runs as a statement.
    else if (child.type === 'subshell' || child.type === 'compound_statement') groups.push(child);
    else if (child.type === 'command_name') words.push(...expandWord(child.namedChildren[0] ?? child, state.scope, evaluator(state)));
    else words.push(...expandWord(child, state.scope, evaluator(state)));
  }
  words.push(...extraWords);
  checkWordBoundaries(node, state);
  const before = state.out.length;
  const fact: CommandFact = { words, assignments, redirects, stdin, scope: copyScope(state.scope), defined: new Map(state.defined), node };
  for (const child of node.namedChildren) walkSubstitutions(child, state, procSubStdin([fact]));
  state.out.splice(before, 0, fact);
  for (const group of groups) walkStatement(group, state);
  followDirectory(fact, state);
  // `$_` is the last word of the previous command (`mkdir -p d && cp x "$_"`).
  const last = words[words.length - 1];
  state.scope.vars.set('_', last ? literal(last) : null);
}

/**
 * bash splits words only at blanks; two word nodes with no blank between them mean the grammar read
 * the line differently from bash (`rm$IFS-rf$IFS/`, `a\⏎b`): hermes cannot be sure what runs.
 */
function checkWordBoundaries(node: SyntaxNode, state: State): void {
  const words = node.namedChildren.filter((c) => c.type !== 'variable_assignment');
  for (let i = 1; i < words.length; i += 1) {
    const between = state.source.slice(words[i - 1]!.endIndex, words[i]!.startIndex).replace(/\\\r?\n/g, '');
    if (!/[ \t\n]/.test(between) && !(words[i]!.type.endsWith('redirect') || words[i - 1]!.type.endsWith('redirect'))) {
      const text = `${words[i - 1]!.text}${state.source.slice(words[i - 1]!.endIndex, words[i]!.startIndex)}${words[i]!.text}`;
      state.problems.unreadable.push({ text: text.slice(0, 60), line: words[i - 1]!.startPosition.row + 1 });
    }
  }
}

/** `cd`, `pushd`, `popd` change where later commands of the line run. */
function followDirectory(fact: CommandFact, state: State): void {
  const name = fact.words[0] ? literal(fact.words[0]) : null;
  if (name === 'alias') {
    for (const word of fact.words.slice(1)) {
      const text = literal(word);
      if (text?.includes('=')) state.defined.set(text.slice(0, text.indexOf('=')), text.slice(text.indexOf('=') + 1));
    }
  }
  // `set -- a b c`: the positional parameters; `printf -v NAME FMT …`: NAME holds what printf would print.
  if (name === 'set' && fact.words.length > 1 && (literal(fact.words[1]!) === '--' || !/^[-+]/.test(literal(fact.words[1]!) ?? '-'))) {
    const params = fact.words.slice(literal(fact.words[1]!) === '--' ? 2 : 1).map(literal);
    params.forEach((p, k) => state.scope.vars.set(String(k + 1), p));
    const all = params.every((p) => p !== null) ? params.join(' ') : null;
    state.scope.vars.set('@', all);
    state.scope.vars.set('*', all);
  }
  if (name === 'printf' && literal(fact.words[1] ?? lit('')) === '-v' && fact.words[2]) {
    const out = staticOutput({ ...fact, words: [fact.words[0]!, ...fact.words.slice(3)] });
    state.scope.vars.set(literal(fact.words[2]) ?? '', out);
  }
  if (name === 'read' || name === 'mapfile' || name === 'readarray') {
    const names = fact.words.slice(1).map(literal).filter((t): t is string => !!t && /^[A-Za-z_]\w*$/.test(t));
    // `echo 'cmd' | while read c; do $c; done`: with one variable and a known input, it holds the first line.
    const firstLine = name === 'read' && names.length === 1 ? (fact.stdin?.text?.split('\n')[0] ?? null) : null;
    for (const n of names) state.scope.vars.set(n, firstLine);
  }
  if (name !== 'cd' && name !== 'pushd' && name !== 'popd') return;
  const operands = fact.words.slice(1).filter((w) => !/^-[LPe@]+$|^--$/.test(literal(w) ?? ''));
  if (name === 'popd' || operands.length > 1) {
    state.scope.cwd = null;
    return;
  }
  const target = operands[0] ? literal(operands[0]) : state.scope.home;
  if (target === null || target === '-') state.scope.cwd = null;
  else if (target.startsWith('/')) state.scope.cwd = path.posix.normalize(target);
  else state.scope.cwd = state.scope.cwd === null ? null : path.posix.join(state.scope.cwd, target);
}
