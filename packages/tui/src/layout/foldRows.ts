/**
 * Lays text out as exact screen rows for the prompt cards. The cards live in Ink's dynamic zone, which
 * must stay shorter than the terminal, so every row they print is counted here rather than left to
 * Ink's own wrapping.
 */
import stringWidth from 'string-width';
import { MARKER, revealText } from './visibleText.ts';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const markers = new RegExp(MARKER.source, 'gu');

/**
 * What a row is made of: `revealText` markers, which are never split between rows, and between them
 * graphemes (an emoji sequence or a letter with its accents is one). wrap-ansi cannot do this: it
 * would split a marker inside a long word, so the rows are cut here, measured with string-width.
 */
function atoms(line: string): string[] {
  const out: string[] = [];
  let last = 0;
  const plain = (text: string) => {
    for (const { segment } of graphemes.segment(text)) out.push(segment);
  };
  for (const match of line.matchAll(markers)) {
    plain(line.slice(last, match.index));
    out.push(match[0]);
    last = match.index + match[0].length;
  }
  plain(line.slice(last));
  return out;
}

const atomColumns = stringWidth;

/** One line as rows of at most `width` columns: breaks after a space when it can, anywhere when it must. */
export function wrapLine(line: string, width: number): string[] {
  const limit = Math.max(1, width);
  const rows: string[] = [];
  let row: string[] = [];
  let columns = 0;
  let lastSpace = -1;
  for (const atom of atoms(line)) {
    const wide = atomColumns(atom);
    if (columns + wide > limit && row.length > 0) {
      const cut = lastSpace >= 0 ? lastSpace + 1 : row.length;
      rows.push(row.slice(0, cut).join('').trimEnd());
      row = row.slice(cut);
      columns = row.reduce((sum, a) => sum + atomColumns(a), 0);
      lastSpace = row.lastIndexOf(' ');
    }
    row.push(atom);
    columns += wide;
    if (atom === ' ') lastSpace = row.length - 1;
  }
  rows.push(row.join('').trimEnd());
  return rows;
}

/** `line` as one row of at most `width` columns: whole when it fits, else cut (never inside a marker) and ended with "…". */
export function truncateRow(line: string, width: number): string {
  const limit = Math.max(1, width);
  if (atomColumns(line) <= limit) return line;
  let row = '';
  let columns = 0;
  for (const atom of atoms(line)) {
    columns += atomColumns(atom);
    if (columns > limit - 1) break;
    row += atom;
  }
  return `${row.trimEnd()}…`;
}

/**
 * The pieces of one row (each drawn in its own style) cut to `width` columns between them: the piece
 * that crosses the edge is cut with "…" and the ones after it are dropped. Rows are cut here rather than
 * by Ink's `truncate-end`, whose cut keeps a wide character straddling the edge (cli-truncate#28): that
 * row is a column too wide, the terminal wraps it, and Ink then erases one row too few.
 */
export function fitRow(pieces: readonly string[], width: number): string[] {
  let left = Math.max(1, width);
  const out: string[] = [];
  for (const piece of pieces) {
    const columns = atomColumns(piece);
    if (columns <= left) {
      out.push(piece);
      left -= columns;
      continue;
    }
    if (left > 0) out.push(truncateRow(piece, left));
    break;
  }
  while (out.length < pieces.length) out.push('');
  return out;
}

/** Rows of at most `width` columns, keeping the text's own line breaks. */
export function wrapRows(text: string, width: number): string[] {
  return text.split('\n').flatMap((line) => wrapLine(line, width));
}

export interface Folded {
  shown: string[];
  /** Rows left out at the end; the caller prints "+N more lines" in the last row of the budget. */
  hidden: number;
}

/** Keeps `rows` within `maxRows`, counting the "+N more lines" marker as one of them. */
export function foldRows(rows: readonly string[], maxRows: number): Folded {
  const budget = Math.max(1, maxRows);
  if (rows.length <= budget) return { shown: [...rows], hidden: 0 };
  return { shown: rows.slice(0, budget - 1), hidden: rows.length - (budget - 1) };
}

/** Rows a folded block takes on screen. */
export const foldedRows = (folded: Folded) => folded.shown.length + (folded.hidden > 0 ? 1 : 0);

export type DiffLineKind = 'header' | 'hunk' | 'add' | 'remove' | 'context';

/** What a line of a unified diff is, for its colour. */
export function diffLineKind(line: string): DiffLineKind {
  if (/^(diff |index |--- |\+\+\+ |new file|deleted file|similarity|rename )/.test(line)) return 'header';
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'remove';
  return 'context';
}

/**
 * A diff's lines, one row each (long lines are truncated when drawn, not wrapped). Hidden characters
 * are marked (a bidi override can make code read differently from what runs); lookalikes are not,
 * since a file's text may well be CJK prose.
 */
export function diffRows(diff: string): string[] {
  const lines = revealText(diff, { lookalikes: false }).split('\n');
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}
