/**
 * The streaming reply's uncommitted text, kept in pieces while it grows.
 *
 * A reply that never leaves a code fence stays uncommitted until it ends: megabytes. Appending each
 * update's deltas to one string makes a V8 cons string, and the next read of it (the paragraph scan's
 * `indexOf`, the live window's `lastIndexOf`) first copies the whole text into a flat one: every
 * update copied everything received so far, quadratic time and a new multi-megabyte string each time
 * (measured in isolation: 2,000 appends of 2.5 kB with one `indexOf` each, 3.0 s and 101 MB).
 * Here only the last piece grows; the earlier ones are never copied again until the text is committed.
 */
import type { LiveTurn } from './viewState.ts';

/** A piece grows to about this many characters before the next delta starts a new one. */
export const LIVE_PIECE = 32_768;

/**
 * What the paragraph scan and the live window read: a string, or the live text's pieces read as one.
 * `indexOf` and `lastIndexOf` search for one character.
 */
export interface TextReader {
  readonly length: number;
  indexOf(char: string, from?: number): number;
  lastIndexOf(char: string, from?: number): number;
  slice(start: number, end?: number): string;
}

type LivePieces = Pick<LiveTurn, 'text' | 'earlier'>;

/** The live text with `delta` appended: to the last piece while it is short, else as a new piece. */
export function withDelta(live: LivePieces, delta: string): LivePieces {
  if (!live.text || live.text.length + delta.length <= LIVE_PIECE) return { text: live.text + delta, earlier: live.earlier };
  return { text: delta, earlier: [...(live.earlier ?? []), live.text] };
}

/** The live text for reading, without joining its pieces. */
export function liveReader(live: LivePieces): TextReader {
  return live.earlier?.length ? new PiecedText([...live.earlier, live.text]) : live.text;
}

/** The whole live text as one string (to commit it). */
export function wholeLiveText(live: LivePieces): string {
  return live.earlier?.length ? live.earlier.join('') + live.text : live.text;
}

/** Pieces read as the string they join to; each read touches only the pieces it needs. */
export class PiecedText implements TextReader {
  readonly length: number;
  /** Where each piece starts in the whole. */
  private readonly starts: number[];

  constructor(private readonly pieces: readonly string[]) {
    let at = 0;
    this.starts = pieces.map((piece) => {
      const start = at;
      at += piece.length;
      return start;
    });
    this.length = at;
  }

  /** The piece holding position `at` (0 ≤ at < length). */
  private pieceAt(at: number): number {
    let low = 0;
    let high = this.pieces.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.starts[middle]! <= at) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  indexOf(char: string, from = 0): number {
    const start = Math.max(0, from);
    if (start >= this.length) return -1;
    for (let index = this.pieceAt(start); index < this.pieces.length; index += 1) {
      const base = this.starts[index]!;
      const found = this.pieces[index]!.indexOf(char, Math.max(0, start - base));
      if (found !== -1) return base + found;
    }
    return -1;
  }

  lastIndexOf(char: string, from = Infinity): number {
    if (this.length === 0) return -1;
    // As String.prototype.lastIndexOf: a negative start still looks at position 0.
    const start = Math.min(Math.max(0, from), this.length - 1);
    for (let index = this.pieceAt(start); index >= 0; index -= 1) {
      const base = this.starts[index]!;
      const found = this.pieces[index]!.lastIndexOf(char, start - base);
      if (found !== -1) return base + found;
    }
    return -1;
  }

  slice(start: number, end = this.length): string {
    const from = Math.max(0, Math.min(start, this.length));
    const to = Math.max(from, Math.min(end, this.length));
    if (from === to) return '';
    const first = this.pieceAt(from);
    const last = this.pieceAt(to - 1);
    const parts: string[] = [];
    for (let index = first; index <= last; index += 1) {
      const base = this.starts[index]!;
      parts.push(this.pieces[index]!.slice(Math.max(0, from - base), to - base));
    }
    return parts.join('');
  }
}
