/**
 * The approval card's command view: the whole command, long lines wrapped (never cut), seen through a
 * window of rows that the user scrolls, with where the window is in the command's own lines.
 */
import { wrapLine } from './foldRows.ts';
import { revealText } from './visibleText.ts';

export interface PagerRows {
  rows: string[];
  /** The command line (0-based) each row belongs to. */
  lineOf: number[];
  lineCount: number;
}

/** The command as rows of `width` columns, markers for hidden characters and lookalikes included. */
export function pagerRows(command: string, width: number): PagerRows {
  const lines = revealText(command).split('\n');
  const rows: string[] = [];
  const lineOf: number[] = [];
  lines.forEach((line, index) => {
    for (const row of wrapLine(line, width)) {
      rows.push(row);
      lineOf.push(index);
    }
  });
  return { rows, lineOf, lineCount: lines.length };
}

/** The first row a window of `page` rows may start at, so the last rows can be reached but not passed. */
export function clampTop(top: number, total: number, page: number): number {
  return Math.min(Math.max(0, top), Math.max(0, total - Math.max(1, page)));
}

export interface PagerWindow {
  rows: string[];
  top: number;
  /** 1-based command lines of the first and last row shown. */
  firstLine: number;
  lastLine: number;
  lineCount: number;
}

export function pagerWindow(all: PagerRows, top: number, page: number): PagerWindow {
  const start = clampTop(top, all.rows.length, page);
  const rows = all.rows.slice(start, start + Math.max(1, page));
  return {
    rows,
    top: start,
    firstLine: (all.lineOf[start] ?? 0) + 1,
    lastLine: (all.lineOf[start + rows.length - 1] ?? 0) + 1,
    lineCount: all.lineCount,
  };
}

/** "lines 5–12 of 40", or "line 7 of 40" when one line fills the window. */
export function pagerPosition(window: PagerWindow): string {
  return window.firstLine === window.lastLine
    ? `line ${window.firstLine} of ${window.lineCount}`
    : `lines ${window.firstLine}–${window.lastLine} of ${window.lineCount}`;
}
