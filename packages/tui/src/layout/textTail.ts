/**
 * Fits streaming text into a fixed number of screen rows by keeping its tail. Ink repaints the whole
 * dynamic zone on each update, and once that zone is as tall as the terminal it clears the screen
 * every frame; so the live reply shows only its last rows until it is committed to the transcript.
 */

/** Columns a code point takes: generous for wide scripts and emoji, since overestimating is safe. */
export function columnsOf(codePoint: number): number {
  if (codePoint < 0x1100) return 1;
  return 2;
}

/** Columns a string takes (see `columnsOf`). */
export function textColumns(text: string): number {
  let columns = 0;
  for (const char of text) columns += columnsOf(char.codePointAt(0) ?? 0);
  return columns;
}

/** Screen rows `line` takes at `width` columns, breaking anywhere (an upper bound for word wrap). */
function rowsOf(line: string, width: number): number {
  return Math.max(1, Math.ceil(textColumns(line) / width));
}

export interface TextTail {
  text: string;
  /** How many whole lines were left out at the top. */
  hiddenLines: number;
}

/** The last lines of `text` that fit in `maxRows` rows of `width` columns. */
export function textTail(text: string, width: number, maxRows: number): TextTail {
  const lines = text.split('\n');
  // Word wrapping can need more rows than breaking anywhere; a 20% margin per line covers it.
  const usable = Math.max(1, Math.floor(width * 0.8));
  let rows = 0;
  let first = lines.length;
  while (first > 0) {
    const needed = rowsOf(lines[first - 1], usable);
    if (rows + needed > maxRows) break;
    rows += needed;
    first--;
  }
  if (first === lines.length) {
    // The last line alone is too tall: keep its end.
    const last = lines[lines.length - 1];
    const chars = [...last];
    const keep = Math.max(1, maxRows * usable);
    return { text: chars.length > keep ? `…${chars.slice(-keep + 1).join('')}` : last, hiddenLines: lines.length - 1 };
  }
  if (first === 0) return { text, hiddenLines: 0 };
  return { text: lines.slice(first).join('\n'), hiddenLines: first };
}
