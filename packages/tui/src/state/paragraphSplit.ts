/**
 * Finds how much of a streaming reply can be committed to the transcript now. Committed text is
 * printed once and scrolls into the terminal's history, so the live zone stays small; only whole
 * paragraphs outside code fences are committed, so nothing printed would later need re-rendering.
 */
export interface ParagraphSplit {
  /** Finished paragraphs, without the trailing blank line. */
  head: string;
  /** The paragraph still being written. */
  rest: string;
}

const FENCE = /^\s*(```|~~~)/;

export function splitFinishedParagraphs(text: string): ParagraphSplit | undefined {
  let splitAt = -1;
  let inFence = false;
  let lineStart = 0;
  while (lineStart <= text.length) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    const line = text.slice(lineStart, lineEnd);
    if (FENCE.test(line)) inFence = !inFence;
    // A blank line outside a fence, followed by more text, ends a paragraph.
    if (newline === -1) break;
    if (!inFence && line.trim() === '' && lineStart > 0) splitAt = lineStart;
    lineStart = newline + 1;
  }
  if (splitAt <= 0) return undefined;
  const head = text.slice(0, splitAt).trimEnd();
  const rest = text.slice(splitAt).replace(/^\n+/, '');
  if (!head) return undefined;
  return { head, rest };
}
