/**
 * What the transcript prints, so that its cost does not grow with its length. Printing from scratch (a
 * resumed session, a reprint at a new width) prints a bounded tail: the last items up to a few screens,
 * after the session's header and a notice that says how many earlier entries are left out and how to
 * read them all (`/transcript`). Items that arrive later are printed as they come: small batches through
 * Ink's <Static>, exactly as drawn by TranscriptEntry; a batch too big for one Ink layout (a 5 MB reply,
 * or thousands of its paragraphs at once) as text made outside Ink (itemText.tsx).
 */
import type { TranscriptItem } from '../state/viewState.ts';
import { itemChars } from './itemText.tsx';

/** Messages a resumed session loads: its end, many screens of it; the rest is read when asked for (`/transcript`). */
export const RESUME_MESSAGES = 500;

/** At most this many items are printed from scratch... */
export const TAIL_ITEMS = 60;
/** ...and no more than about this many screens of them: one Ink layout of about 3,000 cells a screen. */
export const TAIL_SCREENS = 2;
/** The rows of a screen when the terminal does not say. */
export const DEFAULT_ROWS = 30;
/** Characters of text one Ink commit is given at most; Ink lays out about 170 kB a second. */
export const STATIC_BUDGET = 32_000;

/** Rows an item takes at `width`, roughly: its top margin and its lines, each wrapped. */
function estimatedRows(item: TranscriptItem, width: number, maxRows: number): number {
  if (itemChars(item) === 0) return 2;
  const text = item.kind === 'user' || item.kind === 'assistant' ? item.text : item.kind === 'shell' ? item.stdout + item.stderr : item.kind === 'command' ? (item.output ?? '') + (item.error ?? '') : '';
  let rows = 1;
  let from = 0;
  // Counted line by line without splitting, and stopped once past the budget: a 5 MB reply costs nothing here.
  while (from <= text.length && rows <= maxRows) {
    const end = text.indexOf('\n', from);
    const length = (end < 0 ? text.length : end) - from;
    rows += Math.max(1, Math.ceil(length / Math.max(1, width - 2)));
    if (end < 0) break;
    from = end + 1;
  }
  return rows;
}

/** Where printing from scratch starts: the index of the first item of the tail (0 prints everything). */
export function tailStart(items: readonly TranscriptItem[], width: number, maxRows = TAIL_SCREENS * DEFAULT_ROWS): number {
  let rows = 0;
  let start = items.length;
  while (start > 0 && items.length - start < TAIL_ITEMS) {
    rows += estimatedRows(items[start - 1]!, width, maxRows);
    // The last item is always printed, however long.
    if (rows > maxRows && start < items.length) break;
    start -= 1;
  }
  // The header is printed anyway: a tail that reaches it is the whole transcript.
  return start === 1 && items[0]?.kind === 'header' ? 0 : start;
}

/**
 * What of a batch of new items is printed: all of it, unless the batch opens a session with its history
 * (it holds a header) or reprints everything (`fromScratch`). Then the header and the notices right
 * after it, the count of entries left out, and the tail.
 */
export function printedOf(
  batch: readonly TranscriptItem[],
  screen: { width: number; rows?: number },
  fromScratch: boolean,
): { preamble: TranscriptItem[]; omitted: number; tail: TranscriptItem[] } {
  const header = batch.findLastIndex((item) => item.kind === 'header');
  if (header < 0 && !fromScratch) return { preamble: [], omitted: 0, tail: [...batch] };
  let bodyFrom = header + 1;
  while (batch[bodyFrom]?.kind === 'notice') bodyFrom += 1;
  const body = batch.slice(bodyFrom);
  const start = tailStart(body, screen.width, TAIL_SCREENS * (screen.rows || DEFAULT_ROWS));
  const before = Math.max(0, header);
  return { preamble: batch.slice(before, bodyFrom), omitted: before + start, tail: body.slice(start) };
}

const counted = (count: number, one: string, many: string) => `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;

/** The line printed in place of what comes before the tail: entries of the transcript, and stored messages not loaded. */
export function omittedText(entries: number, messages = 0): string {
  const what = [messages > 0 ? counted(messages, 'earlier message', 'earlier messages') : '', entries > 0 ? counted(entries, messages > 0 ? 'entry' : 'earlier entry', messages > 0 ? 'entries' : 'earlier entries') : '']
    .filter(Boolean)
    .join(' and ');
  return `${what} not printed · /transcript shows them all`;
}

/** Whether a batch of items is small enough for one Ink layout (else it is printed as text made outside Ink). */
export function fitsInk(batch: readonly TranscriptItem[]): boolean {
  let chars = 0;
  for (const item of batch) if ((chars += itemChars(item)) > STATIC_BUDGET) return false;
  return true;
}

/**
 * Characters of text printed since the last prompt, after `batch`: a long reply arrives paragraph by
 * paragraph, each batch small, and once the turn has given Ink its budget (TURN_BUDGET) the rest of
 * it is printed outside Ink too, so a 5 MB reply never costs Ink's layout of 5 MB.
 */
export function turnChars(before: number, batch: readonly TranscriptItem[]): number {
  let chars = before;
  for (const item of batch) chars = item.kind === 'user' || item.kind === 'header' ? 0 : chars + itemChars(item);
  return chars;
}

/** Characters of one turn's text that Ink lays out at most; what follows is printed outside it. */
export const TURN_BUDGET = 2 * STATIC_BUDGET;

/**
 * Whether a batch is printed as text made outside Ink (itemText.tsx) rather than by <Static>. Too big
 * for one Ink layout, or past the turn's budget: outside. So is a reply (a streamed reply's paragraphs)
 * printed after the generation's first batch: Ink's output keeps one object per character of what
 * <Static> prints, which cost a 2–5 kB paragraph 70–200 ms (a 60 kB reply's paragraphs most of the
 * TUI's time) against about 10 ms for 48 kB of text made outside it. The first batch (a session's
 * header, a resumed tail: bounded above) stays in Ink.
 */
export function printsOutsideInk(batch: readonly TranscriptItem[], turnChars: number, firstBatch: boolean): boolean {
  if (!fitsInk(batch) || turnChars > TURN_BUDGET) return true;
  return !firstBatch && batch.some((item) => item.kind === 'assistant');
}
