/**
 * The streaming reply's rows: its closed blocks as markdown, the block still being written as plain
 * text, so each block changes look once (when it closes) and is drawn the same when committed.
 *
 * Only the text's end can be on screen (`maxRows` rows), so only its end is laid out: a frame costs
 * the same for a 5 MB code block still open as for one line. Laying out the whole live text on every
 * frame made a long open block quadratic.
 */
import { inkRows } from '../layout/inkRows.ts';
import { displayText } from '../layout/visibleText.ts';
import { textTail, type TextTail } from '../layout/textTail.ts';
import type { TextReader } from '../state/liveText.ts';
import { hyperlinksAllowed } from './hyperlinks.ts';
import type { MarkdownState } from './loadMarkdown.ts';

/**
 * Characters per row kept beyond the last `maxRows` lines: a row holds at most `width` characters, and
 * word wrapping fills rows at least about half, so four times as many always fill the rows shown.
 */
const KEPT_PER_CELL = 4;

export interface LiveWindow {
  /** Where the kept end of the text starts (0: all of it). */
  start: number;
  /** Newlines before `start`. */
  newlinesBefore: number;
}

/**
 * Where the end of `text` that can fill `maxRows` rows of `width` columns starts: the last `maxRows`
 * lines, or, if they are longer, about the last `maxRows × width × 4` characters. A cut inside a long
 * line moves in steps of that size, so the rows shown do not shift with every delta.
 * `newlines` is how many `text` holds, when the caller knows it (see ParagraphScan). Only the kept end
 * of `text` is read when `newlines` is given.
 */
export function liveWindow(text: TextReader, width: number, maxRows: number, newlines?: number): LiveWindow {
  const budget = Math.max(1, width) * Math.max(1, maxRows) * KEPT_PER_CELL;
  if (text.length <= budget) return { start: 0, newlinesBefore: 0 };
  let lineStart = text.length;
  let lines = 0;
  // The start of the last maxRows lines, looking no further back than the budget.
  while (lines < maxRows && lineStart > 0 && text.length - lineStart < budget) {
    const newline = text.lastIndexOf('\n', lineStart - 2);
    lineStart = newline + 1;
    lines += 1;
  }
  let start = lineStart;
  if (text.length - lineStart > budget) {
    // One line longer than the budget: cut inside it, at a multiple of the budget from its start.
    const lineBegin = text.lastIndexOf('\n', text.length - budget) + 1;
    start = lineBegin + Math.floor((text.length - budget - lineBegin) / budget) * budget;
    // Never between the halves of a surrogate pair.
    if (start > 0 && /[\uDC00-\uDFFF]/.test(text.slice(start, start + 1))) start += 1;
  }
  if (start === 0) return { start: 0, newlinesBefore: 0 };
  let inWindow = 0;
  for (let at = text.indexOf('\n', start); at !== -1; at = text.indexOf('\n', at + 1)) inWindow += 1;
  const before = newlines !== undefined ? newlines - inWindow : countTo(text, start);
  return { start, newlinesBefore: before };
}

function countTo(text: TextReader, end: number): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < end; at = text.indexOf('\n', at + 1)) count += 1;
  return count;
}

/**
 * The tail as the rows the screen shows, each at most `width` wide: Ink then lays the text out as it
 * is. Given whole lines it wrapped them itself on every frame, in its layout pass, with a slower
 * wrap-ansi, and kept every wrapped frame in a cache it never empties.
 */
function asRows(tail: TextTail, width: number): TextTail {
  return { ...tail, text: tail.text.split('\n').flatMap((line) => inkRows(line, width)).join('\n') };
}

export function liveReplyTail(text: TextReader, markdown: MarkdownState, width: number, maxRows: number, newlines?: number): TextTail {
  const window = liveWindow(text, width, maxRows, newlines);
  if (window.start > 0) {
    // Cut, the kept end may begin inside a block (a fence's middle): it is shown plain, as the block
    // still being written is; the blocks above it are off screen.
    const tail = textTail(displayText(text.slice(window.start)), width, maxRows);
    return asRows({ ...tail, hiddenLines: tail.hiddenLines + window.newlinesBefore }, width);
  }
  // Not cut: the whole text is short (under twice the window's budget).
  const whole = text.slice(0);
  const safe = displayText(whole);
  if (markdown.status !== 'ready') return asRows(textTail(safe, width, maxRows), width);
  const { closed, open } = markdown.module.splitOpenBlock(safe);
  const rows = closed ? markdown.module.renderMarkdown(closed, width, hyperlinksAllowed(whole)) : [];
  const shown = [...rows, ...(rows.length && open ? [''] : []), ...(open ? [open] : [])].join('\n');
  return asRows(textTail(shown, width, maxRows), width);
}
