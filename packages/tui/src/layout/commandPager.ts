/**
 * The approval card's command view: the whole command, long lines wrapped (never cut), seen through a
 * window of rows that the user scrolls, with where the window is in the command's own lines. The rows
 * of lines holding a finding carry its level, so the view can mark them.
 */
import type { ApprovalFinding } from '@hermes/rpc-server/protocol';
import { commandLines, findingLines, type FindingLevel } from './findingLines.ts';
import { wrapLine } from './foldRows.ts';

export interface PagerRows {
  rows: string[];
  /** The command line (0-based) each row belongs to. */
  lineOf: number[];
  /** The level of the finding on each row's line; undefined on a line without one. */
  levels: (FindingLevel | undefined)[];
  lineCount: number;
}

/** The command as rows of `width` columns, markers for hidden characters and lookalikes included. */
export function pagerRows(command: string, width: number, findings: readonly ApprovalFinding[] = []): PagerRows {
  const lines = commandLines(command);
  const marked = findingLines(findings, lines.length);
  const rows: string[] = [];
  const lineOf: number[] = [];
  const levels: (FindingLevel | undefined)[] = [];
  lines.forEach((line, index) => {
    for (const row of wrapLine(line, width)) {
      rows.push(row);
      lineOf.push(index);
      levels.push(marked.get(index + 1));
    }
  });
  return { rows, lineOf, levels, lineCount: lines.length };
}

/** The row the view opens at: a little above the first line holding a finding, so that line is on screen with what leads to it. */
export function openingTop(all: PagerRows, page: number): number {
  const first = all.levels.findIndex((level) => level !== undefined);
  if (first < 0) return 0;
  const above = Math.min(2, Math.floor((Math.max(1, page) - 1) / 2));
  return clampTop(first - above, all.rows.length, page);
}

/** The first row a window of `page` rows may start at, so the last rows can be reached but not passed. */
export function clampTop(top: number, total: number, page: number): number {
  return Math.min(Math.max(0, top), Math.max(0, total - Math.max(1, page)));
}

export interface PagerWindow {
  rows: string[];
  levels: (FindingLevel | undefined)[];
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
    levels: all.levels.slice(start, start + rows.length),
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
