/**
 * Fits streaming text into a fixed number of screen rows by keeping its tail. Ink repaints the whole
 * dynamic zone on each update, and once that zone is as tall as the terminal it clears the screen
 * every frame; so the live reply shows only its last rows until it is committed to the transcript.
 * Rows are counted by wrapping each line exactly as Ink's `<Text>` will (wrap-ansi, hard, untrimmed),
 * with widths from string-width, so the count is the one the terminal shows.
 */
import stringWidth from 'string-width';
import { inkRows } from './inkRows.ts';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** `row` with "…" in front, its first characters dropped so it still fits in `width` columns. */
function ellipsized(row: string, width: number): string {
  let kept = row;
  for (const { segment } of graphemes.segment(row)) {
    if (stringWidth(kept) + 1 <= width) break;
    kept = kept.slice(segment.length);
  }
  return `…${kept}`;
}

export interface TextTail {
  text: string;
  /** How many whole lines were left out at the top. */
  hiddenLines: number;
}

/** The last lines of `text` that fit in `maxRows` rows of `width` columns. */
export function textTail(text: string, width: number, maxRows: number): TextTail {
  const lines = text.split('\n');
  let rows = 0;
  let first = lines.length;
  while (first > 0) {
    const needed = inkRows(lines[first - 1], width).length;
    if (rows + needed > maxRows) break;
    rows += needed;
    first--;
  }
  if (first === lines.length) {
    // The last line alone is too tall: keep its last rows, the first of them marked as cut.
    const kept = inkRows(lines[lines.length - 1], width).slice(-Math.max(1, maxRows));
    kept[0] = ellipsized(kept[0], width);
    return { text: kept.join('\n'), hiddenLines: lines.length - 1 };
  }
  if (first === 0) return { text, hiddenLines: 0 };
  return { text: lines.slice(first).join('\n'), hiddenLines: first };
}
