/**
 * Echoes a key at the caret the moment it is read (echoBytes.ts says when that is safe and what to
 * write), from what it knows of the terminal: the last frame Ink wrote, which Ink's writer reports with
 * the composer that frame drew (patches/ink+6.8.0.patch, `onFrame`), and whether anything reached the
 * terminal after it. Every write to stdout and stderr counts, except the synchronized-update markers
 * around a frame, which draw nothing: text printed above the frame, a clear, the modes switched around
 * the pager or the external editor, an echo itself. A frame is on screen only while nothing came after it.
 */
import type { DrawnComposer } from '../components/Composer.tsx';
import type { ComposerState } from '../input/composerKeys.ts';
import type { Key } from '../input/keyParser.ts';
import { echoBytes, type ShownFrame } from './echoBytes.ts';

/** Begin and end synchronized update (Ink writes each on its own around a frame). */
const SYNC_MARKERS = new Set(['\x1b[?2026h', '\x1b[?2026l']);

/** The terminal as the echo uses it: where frames go, and its size now. */
export type TerminalOut = Pick<NodeJS.WriteStream, 'write' | 'columns' | 'rows' | 'getWindowSize'>;

/** What Ink's writer reports after each frame it writes. */
export interface WrittenFrame {
  lines: readonly string[];
  cursor?: { x: number; y: number };
}

export class LocalEcho {
  private writes = 0;
  private frame: (ShownFrame & { at: number }) | undefined;
  private composer: DrawnComposer | undefined;

  /** Counts from now on every write to `stdout` and the other streams that reach the same terminal. */
  constructor(
    private readonly stdout: TerminalOut,
    others: Pick<NodeJS.WriteStream, 'write'>[] = [],
  ) {
    for (const stream of [stdout, ...others]) this.countWrites(stream);
  }

  private countWrites(stream: Pick<NodeJS.WriteStream, 'write'>): void {
    const write = stream.write;
    const count = (chunk: unknown) => {
      if (!(typeof chunk === 'string' && SYNC_MARKERS.has(chunk))) this.writes += 1;
    };
    stream.write = function (this: unknown, ...args: unknown[]) {
      count(args[0]);
      return (write as (...a: unknown[]) => boolean).apply(this, args);
    } as typeof stream.write;
  }

  /** For Ink's `onFrame`: a frame was just written. */
  readonly frameWritten = ({ lines, cursor }: WrittenFrame): void => {
    this.frame = {
      at: this.writes,
      lines,
      ...(cursor ? { cursor: { x: cursor.x, y: cursor.y } } : {}),
      columns: this.stdout.columns,
      rows: this.stdout.rows,
      composer: this.composer,
    };
  };

  /** For the composer's `onDrawn`: what it drew, which the next frame written shows. */
  readonly composerDrawn = (drawn: DrawnComposer): void => {
    this.composer = drawn;
  };

  /** The last frame while the terminal shows it as written: nothing came after it and the size is the same. */
  shown(): ShownFrame | undefined {
    const frame = this.frame;
    if (!frame || frame.at !== this.writes) return undefined;
    // Asked of the terminal, not read from `columns`: a resize whose signal is not handled yet counts.
    const [columns, rows] = this.stdout.getWindowSize();
    return columns === frame.columns && rows === frame.rows ? frame : undefined;
  }

  /** Shows `key` on the terminal at once when that is safe; true when it did. The frame follows anyway. */
  key(before: ComposerState, after: ComposerState, key: Key): boolean {
    const bytes = echoBytes(this.shown(), before, after, key);
    if (bytes === undefined) return false;
    this.stdout.write(bytes);
    return true;
  }
}
