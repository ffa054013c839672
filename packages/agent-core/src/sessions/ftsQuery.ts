/**
 * Turning what a user (or the model) types into queries SQLite can run: pure functions, no I/O.
 *
 * Every term is emitted as an FTS5 string ("…"), so no character the user types can reach the FTS5
 * parser as syntax; only AND/OR/NOT that sit between two terms are kept as operators. Inside a
 * string the tokenizer does the splitting, so `foo-bar`, `node.js` and `v1.2.3` become phrases of
 * adjacent tokens, which is what the user meant.
 */

/** Opening and closing marks around a match in a snippet. */
export const MARK_OPEN = '«';
export const MARK_CLOSE = '»';

/** `text` as a RegExp source that matches it literally. */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const OPERATORS = new Set(['AND', 'OR', 'NOT']);
/** Bounds the work one query can cause; nobody types more terms than this on purpose. */
const MAX_TERMS = 32;
/** A quoted phrase (balanced), or a run of non-space characters. */
const PIECE = /"([^"]*)"(\*?)|(\S+)/gu;
/** unicode61 keeps letters, numbers and private-use characters; a term without one is empty. */
const TOKEN_CHAR = /[\p{L}\p{N}\p{Co}]/u;

type Piece = { kind: 'term'; text: string; prefix: boolean } | { kind: 'op'; op: string };

function pieces(text: string): Piece[] {
  const out: Piece[] = [];
  // Control characters (NUL above all) could end an FTS5 string early; they separate words instead.
  for (const match of text.replace(/\p{Cc}/gu, ' ').matchAll(PIECE)) {
    if (match[1] !== undefined) {
      out.push({ kind: 'term', text: match[1], prefix: match[2] === '*' });
      continue;
    }
    const word = match[3]!;
    if (OPERATORS.has(word)) out.push({ kind: 'op', op: word });
    // `foo*` is a prefix query; `C++*` is not (the star follows no token character).
    else out.push({ kind: 'term', text: word.replace(/"/g, ''), prefix: /[\p{L}\p{N}]\*+$/u.test(word) });
  }
  return out;
}

/**
 * An FTS5 MATCH expression for `text`, or null when it holds nothing searchable (empty or
 * punctuation only). Pure; never throws; its output never makes FTS5 report a syntax error.
 */
export function sanitizeFtsQuery(text: string): string | null {
  if (typeof text !== 'string') return null;
  const parts: string[] = [];
  let pendingOp: string | null = null;
  let terms = 0;
  for (const piece of pieces(text)) {
    if (piece.kind === 'op') {
      // An operator counts only between two terms; a dangling one is dropped.
      if (parts.length > 0) pendingOp = piece.op;
      continue;
    }
    const core = piece.text.replace(/\*+$/, '');
    if (!TOKEN_CHAR.test(core)) continue;
    if (pendingOp) parts.push(pendingOp);
    pendingOp = null;
    parts.push(`"${core}"${piece.prefix ? '*' : ''}`);
    if ((terms += 1) >= MAX_TERMS) break;
  }
  return parts.length > 0 ? parts.join(' ') : null;
}

/**
 * The literal pieces of `text` for substring search: quoted phrases whole, other words split on
 * space, operators and surrounding stars dropped.
 */
export function substringTerms(text: string): string[] {
  if (typeof text !== 'string') return [];
  const out: string[] = [];
  for (const piece of pieces(text)) {
    if (piece.kind === 'op') continue;
    const term = piece.text.replace(/^\*+|\*+$/g, '').trim();
    if (term && out.length < MAX_TERMS) out.push(term);
  }
  return out;
}

/** The query's terms as the word index sees them (folded tokens; a phrase has several), for ranking. */
export function rankTerms(text: string): Array<{ tokens: string[]; prefix: boolean }> {
  if (typeof text !== 'string') return [];
  const out: Array<{ tokens: string[]; prefix: boolean }> = [];
  for (const piece of pieces(text)) {
    if (piece.kind === 'op') continue;
    const tokens = wordTokens(piece.text.replace(/\*+$/, ''));
    if (tokens.length > 0 && out.length < MAX_TERMS) out.push({ tokens, prefix: piece.prefix });
  }
  return out;
}

/** Latin letters with diacritics and lone combining marks: what `remove_diacritics` folds. */
const LATIN_MARKED = /[\u00c0-\u024f\u1e00-\u1eff\u0300-\u036f]+/g;

/**
 * Text as `unicode61 remove_diacritics 2` compares it: case folded, diacritics of Latin letters dropped
 * (other scripts are left whole: the tokenizer does not fold them, and decomposing them is slow).
 */
export function foldText(text: string): string {
  return text.replace(LATIN_MARKED, (run) => run.normalize('NFD').replace(/\p{M}+/gu, '')).toLowerCase();
}

/** The tokens unicode61 makes of `text` (runs of letters, numbers and private-use characters), folded. */
function wordTokens(text: string): string[] {
  return foldText(text)
    .split(/[^\p{L}\p{N}\p{Co}]+/u)
    .filter(Boolean);
}

/** The trigram table's MATCH expression for terms that are all at least three characters long. */
export function trigramQuery(terms: readonly string[]): string {
  return terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(' ');
}

/** Characters, not UTF-16 units: the trigram tokenizer counts code points. */
export const charLength = (s: string): number => [...s].length;

/**
 * Scripts written without spaces between words: unicode61 makes one token of a whole run, so a
 * word inside it is found only by substring search.
 */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

export function needsSubstringSearch(text: string): boolean {
  return UNSPACED.test(text);
}

/** A LIKE pattern matching `term` anywhere, for `LIKE ? ESCAPE '\'`. */
export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Text on one line: runs of whitespace become one space. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * A one-line excerpt of `text` around the first occurrence of any term (case-insensitive), every
 * occurrence inside it marked; for hits found without an FTS index (which would make the snippet).
 */
export function markedExcerpt(text: string, terms: readonly string[], width = 100): string {
  const flat = oneLine(text);
  if (terms.length === 0) return flat.slice(0, width);
  const pattern = new RegExp(terms.map(escapeRegExp).join('|'), 'giu');
  const first = pattern.exec(flat);
  const at = first?.index ?? 0;
  const start = Math.max(0, at - Math.floor(width / 3));
  const end = Math.min(flat.length, start + width);
  const body = flat.slice(start, end).replace(pattern, (m) => `${MARK_OPEN}${m}${MARK_CLOSE}`);
  return `${start > 0 ? '…' : ''}${body}${end < flat.length ? '…' : ''}`;
}
