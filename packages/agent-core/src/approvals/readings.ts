/**
 * Other ways bash may read a line than the grammar's: brace expansion (`{rm,-rf,~}`, `r{m,m}`), a
 * backslash-newline inside a word (`r\⏎m`), and, when the grammar could not read a line, its
 * statements one by one. Each reading is judged too; a reading can only add findings.
 */

/** Splits outside quotes on unquoted blanks, keeping separators, so a line can be rebuilt. */
function tokens(text: string): string[] {
  const out: string[] = [];
  let current = '';
  let quote: string | null = null;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    if (quote) {
      current += ch;
      if (ch === '\\' && quote === '"' && i + 1 < text.length) current += text[++i];
      else if (ch === quote) quote = null;
    } else if (ch === '\\' && i + 1 < text.length) current += ch + text[++i];
    else if (ch === "'" || ch === '"') {
      quote = ch;
      current += ch;
    } else if (/[\s;&|()<>]/.test(ch)) {
      if (current) out.push(current);
      out.push(ch);
      current = '';
    } else current += ch;
  }
  if (current) out.push(current);
  return out;
}

/** `{1..3}`, `{a..e}`, `{e..e}`: a sequence's items, or null when it is not one (or too long to be a trick). */
function sequence(body: string): string[] | null {
  const m = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])(?:\.\.(-?\d+))?$/.exec(body);
  if (!m) return null;
  const numeric = /\d/.test(m[1]!);
  const from = numeric ? Number(m[1]) : m[1]!.charCodeAt(0);
  const to = numeric ? Number(m[2]) : m[2]!.charCodeAt(0);
  if (Number.isNaN(from) || Number.isNaN(to) || Math.abs(to - from) > 64) return null;
  const step = (Math.abs(Number(m[3] ?? 1)) || 1) * (to >= from ? 1 : -1);
  const out: string[] = [];
  for (let v = from; step > 0 ? v <= to : v >= to; v += step) out.push(numeric ? String(v) : String.fromCharCode(v));
  return out;
}

/** More words than any real command spells with braces: past it, a brace expansion is not read but reported. */
export const MAX_BRACE_WORDS = 256;

/**
 * bash's brace expansion of one word (`a{b,c}d` → `abd acd`, `{1..3}`), nested; quotes stay as written.
 * Null when it would make more than `MAX_BRACE_WORDS` words (`{a,b}` twenty times makes a million).
 */
export function expandBraces(word: string): string[] | null {
  const out: string[] = [];
  return expandInto(word, out) ? out : null;
}

/** Appends the word's expansions to `out`; false as soon as there would be too many. */
function expandInto(word: string, out: string[]): boolean {
  let depth = 0;
  let quote: string | null = null;
  let open = -1;
  const commas: number[] = [];
  for (let i = 0; i < word.length; i += 1) {
    const ch = word[i]!;
    if (quote) {
      if (ch === quote) quote = null;
      continue;
    }
    if (ch === '\\') {
      i += 1;
      continue;
    }
    if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '{') {
      if (depth === 0) {
        open = i;
        commas.length = 0;
      }
      depth += 1;
    } else if (ch === ',' && depth === 1) commas.push(i);
    else if (ch === '}' && depth > 0) {
      depth -= 1;
      if (depth > 0) continue;
      const bounds = [open, ...commas, i];
      const items = commas.length > 0 ? bounds.slice(0, -1).map((b, k) => word.slice(b + 1, bounds[k + 1])) : sequence(word.slice(open + 1, i));
      if (!items) continue;
      const pre = word.slice(0, open);
      const post = word.slice(i + 1);
      return items.every((item) => expandInto(`${pre}${item}${post}`, out));
    }
  }
  out.push(word);
  return out.length <= MAX_BRACE_WORDS;
}

/**
 * The line with brace expansions applied; null when it has none; `'too many'` when one would make more
 * words than hermes reads.
 */
export function braceReading(text: string): string | null | 'too many' {
  if (!/\{[^}]*(?:,|\.\.)/.test(text)) return null;
  let changed = false;
  const out: string[] = [];
  for (const token of tokens(text)) {
    const expanded = expandBraces(token);
    if (!expanded) return 'too many';
    if (expanded.length > 1 || expanded[0] !== token) changed = true;
    out.push(expanded.join(' '));
  }
  return changed ? out.join('') : null;
}

/** The line without backslash-newlines (bash deletes them before reading words). */
export function continuationReading(text: string): string | null {
  return /\\\r?\n/.test(text) ? text.replace(/\\\r?\n/g, '') : null;
}

/** Statements split at unquoted `;`, `&&`, `||`, `|`, `&` and newlines, for lines the grammar could not read. */
export function statementReadings(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (const token of tokens(text)) {
    if (/^[;&|\n]$/.test(token)) {
      if (current.trim()) parts.push(current.trim());
      current = '';
    } else current += token;
  }
  if (current.trim()) parts.push(current.trim());
  return parts.length > 1 ? parts.map((p) => p.replace(/^[\s[{(!]+|[\s\]})]+$/g, '')) : [];
}

/** `$IFS` and `${IFS}` (also `$IFS$9`) as the blank they expand to. */
export function ifsReading(text: string): string | null {
  return /\$\{?IFS\b/.test(text) ? text.replace(/\$\{IFS\}|\$IFS(?:\$\d)?/g, ' ') : null;
}

/** Empty command substitutions (`` `` ``, `$()`, `$(:)`) expand to nothing: `r``m` is `rm`. */
export function emptySubstitutionReading(text: string): string | null {
  const out = text.replace(/``|\$\(\s*:?\s*\)/g, '');
  return out === text ? null : out;
}
