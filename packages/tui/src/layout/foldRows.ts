/**
 * Lays text out as exact screen rows for the prompt cards. The cards live in Ink's dynamic zone, which
 * must stay shorter than the terminal, so every row they print is counted here rather than left to
 * Ink's own wrapping.
 */
import { columnsOf } from './textTail.ts';

/**
 * Makes text safe to show as-is: tabs become spaces and control characters (escape sequences above
 * all) are spelled out, so a command cannot hide part of itself from the person approving it.
 */
export function visibleText(text: string): string {
  return (
    text
      .replace(/\r\n?/g, '\n')
      .replace(/\t/g, '    ')
      // eslint-disable-next-line no-control-regex
      .replace(/[\x00-\x09\x0b-\x1f\x7f\x80-\x9f]/g, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`)
  );
}

/** Rows of at most `width` columns: lines break after a space when they can, anywhere when they must. */
export function wrapRows(text: string, width: number): string[] {
  const limit = Math.max(1, width);
  const rows: string[] = [];
  for (const line of text.split('\n')) {
    let row: string[] = [];
    let columns = 0;
    let lastSpace = -1;
    for (const char of line) {
      const wide = columnsOf(char.codePointAt(0) ?? 0);
      if (columns + wide > limit && row.length > 0) {
        const cut = lastSpace >= 0 ? lastSpace + 1 : row.length;
        rows.push(row.slice(0, cut).join('').trimEnd());
        row = row.slice(cut);
        columns = row.reduce((sum, c) => sum + columnsOf(c.codePointAt(0) ?? 0), 0);
        lastSpace = row.lastIndexOf(' ');
      }
      row.push(char);
      columns += wide;
      if (char === ' ') lastSpace = row.length - 1;
    }
    rows.push(row.join('').trimEnd());
  }
  return rows;
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

/** A diff's lines, one row each (long lines are truncated when drawn, not wrapped). */
export function diffRows(diff: string): string[] {
  const lines = visibleText(diff).split('\n');
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}
