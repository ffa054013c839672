/**
 * Words as bash expands them, from tree-sitter nodes: quote removal, ANSI-C quoting, `~`, variables
 * known to the line, globs, and word splitting of unquoted expansions. What cannot be known before
 * the command runs (an unset variable, a command substitution hermes cannot evaluate) stays an
 * `unknown` piece, so a rule can tell "literal" from "decided at run time".
 */
import type { SyntaxNode } from './bashParser.ts';

export type Piece =
  | { kind: 'lit'; text: string }
  /** Unquoted `*`, `?` or a `[…]` class. */
  | { kind: 'glob'; text: string }
  /** Decided at run time; `text` is the source, e.g. `$d` or `$(…)`; `output`: what a `<(…)` prints, when known. */
  | { kind: 'unknown'; text: string; output?: string };

export interface WordValue {
  pieces: Piece[];
  /** The word as written. */
  source: string;
  /** Some part of it was quoted (so `~` or `{a,b}` in it may be literal). */
  quoted: boolean;
}

/** Variables and the directory a word is expanded in. `null` values are set but unknown. */
export interface Scope {
  vars: Map<string, string | null>;
  home: string;
  hermesHome: string;
  cwd: string | null;
}

/** Evaluates `$(…)`, `` `…` `` and `<(…)`: their static output, or null when it cannot be known. */
export type SubstitutionEvaluator = (node: SyntaxNode, scope: Scope) => string | null;

export function lit(text: string, source = text): WordValue {
  return { pieces: [{ kind: 'lit', text }], source, quoted: false };
}

/** A path written in another language's string, with `*`, `?` and `[…]` as globs (`glob("~/*")`). */
export function globWord(text: string): WordValue {
  return { pieces: unquotedWord(text), source: text, quoted: false };
}

/** The word's text when it is fully known and has no glob. */
export function literal(word: WordValue): string | null {
  let out = '';
  for (const piece of word.pieces) {
    if (piece.kind !== 'lit') return null;
    out += piece.text;
  }
  return out;
}

/** The word for a human: literal parts as they expand, the rest as written. */
export function display(word: WordValue): string {
  return word.pieces.map((p) => p.text).join('');
}

export const isDynamic = (word: WordValue) => word.pieces.some((p) => p.kind === 'unknown');

interface Part {
  pieces: Piece[];
  quoted: boolean;
  /** Unquoted expansion: bash splits its value on whitespace. */
  split: boolean;
}

/** Expands one argument node into the words bash would pass (usually one; several after splitting). */
export function expandWord(node: SyntaxNode, scope: Scope, evaluate: SubstitutionEvaluator): WordValue[] {
  const parts = node.type === 'concatenation' ? concatenationParts(node, scope, evaluate) : partsOf(node, scope, evaluate, false);
  if (parts[0] && !parts[0].quoted) expandTilde(parts[0], scope);
  const quoted = parts.some((p) => p.quoted);
  const words: Piece[][] = [[]];
  // Unquoted expansions split on $IFS (blanks unless the line set it).
  const ifs = scope.vars.get('IFS');
  const separators = typeof ifs === 'string' && ifs !== ' ' ? new RegExp(`[${ifs.replace(/[\]\\^-]/g, '\\$&')}]+`) : /[ \t\n]+/;
  for (const part of parts) {
    for (const piece of part.pieces) {
      if (part.split && piece.kind === 'lit' && separators.test(piece.text)) {
        const fields = piece.text.split(separators);
        fields.forEach((field, i) => {
          if (i > 0) words.push([]);
          if (field) words[words.length - 1]!.push({ kind: 'lit', text: field });
        });
      } else words[words.length - 1]!.push(piece);
    }
  }
  const nonEmpty = words.filter((w, i) => w.length > 0 || (i === 0 && words.length === 1));
  return nonEmpty.map((pieces) => ({ pieces: merge(pieces), source: node.text, quoted }));
}

/** The grammar splits `x[ab]y` into several word nodes; bash reads them as one glob. */
function concatenationParts(node: SyntaxNode, scope: Scope, evaluate: SubstitutionEvaluator): Part[] {
  const parts: Part[] = [];
  let words = '';
  const flush = () => {
    if (words) parts.push({ pieces: unquotedWord(words), quoted: false, split: false });
    words = '';
  };
  for (const child of node.children) {
    if (child.type === 'word' || !child.isNamed) words += child.text;
    else {
      flush();
      parts.push(...partsOf(child, scope, evaluate, false));
    }
  }
  flush();
  return parts;
}

function merge(pieces: Piece[]): Piece[] {
  const out: Piece[] = [];
  for (const piece of pieces) {
    const last = out[out.length - 1];
    if (last && last.kind === piece.kind && piece.kind !== 'glob') out[out.length - 1] = { ...last, text: last.text + piece.text };
    else out.push(piece);
  }
  return out.length ? out : [{ kind: 'lit', text: '' }];
}

function partsOf(node: SyntaxNode, scope: Scope, evaluate: SubstitutionEvaluator, inQuotes: boolean): Part[] {
  switch (node.type) {
    case 'word':
    case 'number':
      return [{ pieces: inQuotes ? [{ kind: 'lit', text: node.text }] : unquotedWord(node.text), quoted: false, split: false }];
    case 'raw_string':
      return [{ pieces: [{ kind: 'lit', text: node.text.slice(1, -1) }], quoted: true, split: false }];
    case 'ansi_c_string':
      return [{ pieces: [{ kind: 'lit', text: decodeAnsiC(node.text.slice(2, -1)) }], quoted: true, split: false }];
    case 'string':
    case 'translated_string': {
      // The grammar splits a string's content at newlines and leaves them out of the children: put back
      // whatever lies between two children in the source.
      const inner: Part[] = [];
      let at = node.startIndex + (node.type === 'translated_string' ? 2 : 1);
      for (const child of node.namedChildren) {
        if (child.startIndex > at) inner.push({ pieces: [{ kind: 'lit', text: node.text.slice(at - node.startIndex, child.startIndex - node.startIndex) }], quoted: true, split: false });
        inner.push(...partsOf(child, scope, evaluate, true));
        at = child.endIndex;
      }
      const closing = node.endIndex - 1;
      if (node.namedChildren.length && closing > at) inner.push({ pieces: [{ kind: 'lit', text: node.text.slice(at - node.startIndex, closing - node.startIndex) }], quoted: true, split: false });
      const pieces = inner.flatMap((p) => p.pieces);
      return [{ pieces: pieces.length ? pieces : [{ kind: 'lit', text: '' }], quoted: true, split: inner.some((p) => p.split) }];
    }
    case 'string_content':
      return [{ pieces: [{ kind: 'lit', text: node.text.replace(/\\([\\"$`\n])/g, (_m, c: string) => (c === '\n' ? '' : c)) }], quoted: true, split: false }];
    case 'simple_expansion':
    case 'expansion':
      return [expansion(node, scope, inQuotes, evaluate)];
    case 'command_substitution':
    case 'process_substitution': {
      const value = evaluate(node, scope);
      if (node.type === 'process_substitution') {
        // A file name like /dev/fd/63: unknown, but what the file holds may be known.
        return [{ pieces: [{ kind: 'unknown', text: node.text, ...(value === null ? {} : { output: value }) }], quoted: inQuotes, split: false }];
      }
      const pieces: Piece[] = value === null ? [{ kind: 'unknown', text: node.text }] : [{ kind: 'lit', text: value }];
      return [{ pieces, quoted: inQuotes, split: !inQuotes }];
    }
    default:
      return [{ pieces: [{ kind: 'unknown', text: node.text }], quoted: inQuotes, split: false }];
  }
}

/** Backslash escapes and glob characters of an unquoted word. */
function unquotedWord(text: string): Piece[] {
  const pieces: Piece[] = [];
  const push = (kind: 'lit' | 'glob', s: string) => pieces.push({ kind, text: s });
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    if (ch === '\\' && i + 1 < text.length) {
      i += 1;
      if (text[i] !== '\n') push('lit', text[i]!);
    } else if (ch === '*' || ch === '?') push('glob', ch);
    else if (ch === '[') {
      const end = text.indexOf(']', i + 2);
      if (end > 0) {
        push('glob', text.slice(i, end + 1));
        i = end;
      } else push('lit', ch);
    } else push('lit', ch);
  }
  return merge(pieces);
}

const KNOWN_ENV = (scope: Scope, name: string): string | null | undefined => {
  if (scope.vars.has(name)) return scope.vars.get(name);
  if (name === 'HOME') return scope.home;
  if (name === 'HERMES_HOME') return scope.hermesHome;
  if (name === 'PWD') return scope.cwd;
  if (name === 'IFS') return ' ';
  if (name === 'USER' || name === 'LOGNAME') return scope.home.split('/').filter(Boolean).pop() ?? null;
  return undefined;
};

function expansion(node: SyntaxNode, scope: Scope, inQuotes: boolean, evaluate: SubstitutionEvaluator): Part {
  const unknown: Part = { pieces: [{ kind: 'unknown', text: node.text }], quoted: inQuotes, split: false };
  // `${arr[0]}`, `"${arr[@]}"`: elements are stored as `arr[0]`, `arr[@]` (see commandFacts' assign).
  const subscript = node.namedChildren.find((c) => c.type === 'subscript');
  if (subscript) {
    const key = `${subscript.childForFieldName('name')?.text}[${subscript.childForFieldName('index')?.text}]`;
    const value = scope.vars.get(key);
    return typeof value === 'string' ? { pieces: [{ kind: 'lit', text: value }], quoted: inQuotes, split: !inQuotes || /\[[@*]\]$/.test(key) } : unknown;
  }
  const nameNode = node.namedChildren.find((c) => c.type === 'variable_name' || c.type === 'special_variable_name');
  if (!nameNode) return unknown;
  const operator = node.childForFieldName('operator')?.text ?? '';
  const children = node.children;
  // `${x}` and `${x:?}` / `${x:-d}` / `${x:=d}` with x known are x; `${#x}`, `${x/a/b}`, … are not known.
  const plain = children.length <= 4 && !children.some((c) => c.type === '#' || c.type === '!');
  const value = KNOWN_ENV(scope, nameNode.text);
  if (node.type === 'simple_expansion' || (plain && !operator)) {
    // "$@" is still one word per parameter.
    return typeof value === 'string' ? { pieces: [{ kind: 'lit', text: value }], quoted: inQuotes, split: !inQuotes || nameNode.text === '@' } : unknown;
  }
  if (typeof value === 'string' && ['%', '%%', '#', '##', ':', '/', '//'].includes(operator)) {
    const trimmed = trimValue(value, operator, node.namedChildren.filter((c) => c !== nameNode).map((c) => c.text));
    if (trimmed !== null) return { pieces: [{ kind: 'lit', text: trimmed }], quoted: inQuotes, split: !inQuotes };
  }
  if ([':?', '?', ':-', '-', ':=', '='].includes(operator) && typeof value === 'string' && value !== '') {
    return { pieces: [{ kind: 'lit', text: value }], quoted: inQuotes, split: !inQuotes };
  }
  if ([':-', '-', ':=', '='].includes(operator) && value === undefined) {
    // Unset: the default is used. Judge that reading; it is what runs unless the variable is set.
    const fallback = node.namedChildren.filter((c) => c !== nameNode);
    const parts = fallback.flatMap((c) => partsOf(c, scope, evaluate, inQuotes));
    if (parts.length) return { pieces: parts.flatMap((p) => p.pieces), quoted: inQuotes, split: !inQuotes };
  }
  return unknown;
}

/** `${x%pat}`, `${x%%pat}`, `${x#pat}`, `${x##pat}` (glob patterns) and `${x:offset[:length]}` of a known value. */
function trimValue(value: string, operator: string, args: string[]): string | null {
  if (operator === '/' || operator === '//') {
    const [pattern = '', replacement = ''] = args;
    const re = new RegExp(pattern.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.'), operator === '//' ? 'g' : '');
    return pattern ? value.replace(re, replacement) : value;
  }
  if (operator === ':') {
    const [offset, length] = args.map(Number);
    if (offset === undefined || Number.isNaN(offset)) return null;
    const start = offset < 0 ? Math.max(0, value.length + offset) : offset;
    return length === undefined || Number.isNaN(length) ? value.slice(start) : value.slice(start, start + length);
  }
  const pattern = args.join('');
  const re = pattern.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  const longest = operator.length === 2;
  const candidates = operator.startsWith('%')
    ? [...Array(value.length + 1).keys()].map((k) => value.length - k)
    : [...Array(value.length + 1).keys()];
  const ordered = longest ? [...candidates].reverse() : candidates;
  for (const at of ordered) {
    const part = operator.startsWith('%') ? value.slice(at) : value.slice(0, at);
    if (new RegExp(`^(?:${re})$`).test(part)) return operator.startsWith('%') ? value.slice(0, at) : value.slice(at);
  }
  return value;
}

/** `~`, `~/x`, `~user/x` at the start of an unquoted word. */
function expandTilde(part: Part, scope: Scope): void {
  const first = part.pieces[0];
  if (!first || first.kind !== 'lit' || !first.text.startsWith('~')) return;
  const match = /^~([A-Za-z0-9._-]*|[+-])(?=\/|$)/.exec(first.text);
  if (!match) return;
  const user = match[1]!;
  // `~+` is $PWD and `~-` is $OLDPWD.
  if (user === '+' || user === '-') {
    const dir = user === '+' ? scope.cwd : null;
    part.pieces[0] = dir === null ? { kind: 'unknown', text: first.text.slice(0, 2) } : { kind: 'lit', text: dir };
    if (first.text.length > 2) part.pieces.splice(1, 0, { kind: 'lit', text: first.text.slice(2) });
    return;
  }
  const homeUser = scope.home.split('/').filter(Boolean).pop();
  const dir = user === '' || user === homeUser ? scope.home : user === 'root' ? '/root' : `/home/${user}`;
  part.pieces[0] = { kind: 'lit', text: dir + first.text.slice(match[0].length) };
}

const SIMPLE_ESCAPES: Record<string, string> = {
  a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?',
};

/** The body of `$'…'` (or an `echo -e` / `printf` format) with its backslash escapes decoded. */
export function decodeAnsiC(body: string): string {
  return body.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|0?[0-7]{1,3}|c.|.)/gs, (_m, code: string) => {
    const head = code[0]!;
    if (head === 'x' || head === 'u' || head === 'U') return String.fromCodePoint(parseInt(code.slice(1), 16));
    if (/[0-7]/.test(head)) return String.fromCharCode(parseInt(code, 8) & 0xff);
    if (head === 'c') return String.fromCharCode(code.charCodeAt(1) & 0x1f);
    return SIMPLE_ESCAPES[head] ?? `\\${code}`;
  });
}
