/**
 * Finds how much of a streaming reply can be committed to the transcript now. Committed text is
 * printed once and scrolls into the terminal's history, so the live zone stays small; only whole
 * paragraphs outside code fences are committed, so nothing printed would later need re-rendering.
 *
 * The scan is incremental: each line is read once, when its newline arrives, and where the scan
 * stopped travels with the live text (`ParagraphScan`). Rescanning the whole uncommitted text on
 * every delta made a reply that never leaves a fence (a 5 MB code block) quadratic.
 */
import type { TextReader } from './liveText.ts';

export interface ParagraphSplit {
  /** Finished paragraphs, without the trailing blank line. */
  head: string;
  /** The paragraph still being written. */
  rest: string;
}

/** Where the scan of a live text stopped: every line before `lineStart` has been read. */
export interface ParagraphScan {
  /** Start of the first line whose newline has not arrived yet. */
  lineStart: number;
  /** Whether that line is inside a code fence. */
  inFence: boolean;
  /** Newlines in the text before `lineStart` (all of its newlines). */
  newlines: number;
  /** Inside a fence, its info string (`ts` for ```` ```ts ````; empty for none). */
  fenceInfo?: string;
}

export const SCAN_START: ParagraphScan = { lineStart: 0, inFence: false, newlines: 0 };

const FENCE = /^\s*(?:```|~~~)(.*)/;

function countNewlines(text: TextReader, end: number): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < end; at = text.indexOf('\n', at + 1)) count += 1;
  return count;
}

/**
 * Reads the lines of `text` not read yet (`scan` says where the last call stopped, for the same text
 * or the same text grown) and splits off its finished paragraphs; `scan` comes back for what remains
 * live (`rest` when it split, `text` otherwise). `text` may be the live text's pieces (liveText.ts):
 * only the lines not read yet are read.
 */
export function scanParagraphs(text: TextReader, scan: ParagraphScan = SCAN_START): { split?: ParagraphSplit; scan: ParagraphScan } {
  let { lineStart, inFence, newlines, fenceInfo } = scan;
  let splitAt = -1;
  for (let newline = text.indexOf('\n', lineStart); newline !== -1; newline = text.indexOf('\n', lineStart)) {
    const line = text.slice(lineStart, newline);
    const fence = FENCE.exec(line);
    if (fence) {
      inFence = !inFence;
      fenceInfo = inFence ? fence[1]!.trim() : undefined;
    }
    // A blank line outside a fence, followed by more text, ends a paragraph.
    else if (!inFence && lineStart > 0 && line.trim() === '') splitAt = lineStart;
    newlines += 1;
    lineStart = newline + 1;
  }
  const head = splitAt > 0 ? text.slice(0, splitAt).trimEnd() : '';
  if (!head) return { scan: { lineStart, inFence, newlines, fenceInfo } };
  const rest = text.slice(splitAt).replace(/^\n+/, '');
  const removed = text.length - rest.length;
  return {
    split: { head, rest },
    scan: { lineStart: lineStart - removed, inFence, newlines: newlines - countNewlines(text, removed), fenceInfo },
  };
}

export function splitFinishedParagraphs(text: string): ParagraphSplit | undefined {
  return scanParagraphs(text).split;
}
