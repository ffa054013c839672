import { useStdout } from 'ink';
import { useEffect, useRef, useState } from 'react';

export interface TerminalSize {
  columns: number;
  rows: number;
  /**
   * Counts the reprints after a width change. A terminal reflows what it shows when it narrows, so the
   * rows Ink drew at the old width take more rows now and Ink, erasing the rows it wrote, would leave
   * the rest on screen (pieces of a card, a second rule, a copy of the reply being streamed); when it
   * widens, the transcript would stay laid out for the old width. So the screen and scrollback are
   * cleared and the transcript is printed again at the new width (`Transcript`'s `generation`).
   */
  reprints: number;
}

/** Clears the screen and the scrollback, cursor home. */
export const CLEAR_ALL = '\x1b[2J\x1b[3J\x1b[H';

/**
 * A drag on a window's edge sends a burst of resize events; the reprint waits until they pause so the
 * burst costs one reprint, not one per step.
 */
const RESIZE_SETTLE_MS = 150;

/** The terminal's size, updated on resize. */
export function useTerminalSize(): TerminalSize {
  const { stdout } = useStdout();
  const read = (reprints: number): TerminalSize => ({ columns: stdout.columns || 80, rows: stdout.rows || 24, reprints });
  const [size, setSize] = useState(() => read(0));
  const last = useRef(size);
  useEffect(() => {
    // Whether the width changed since the last reprint: a burst that ends at the width it started from
    // still had the terminal reflow and Ink redraw at the widths in between.
    let widthChanged = false;
    let timer: NodeJS.Timeout | undefined;
    const reprint = () => {
      timer = undefined;
      if (!widthChanged) return;
      widthChanged = false;
      const next = read(last.current.reprints);
      stdout.write(CLEAR_ALL);
      last.current = { ...next, reprints: next.reprints + 1 };
      setSize(last.current);
    };
    const onResize = () => {
      // The live part follows the new size at once; the printed transcript once the burst is over.
      const next = read(last.current.reprints);
      if (next.columns !== last.current.columns) widthChanged = true;
      last.current = next;
      setSize(last.current);
      clearTimeout(timer);
      timer = setTimeout(reprint, RESIZE_SETTLE_MS);
    };
    stdout.on('resize', onResize);
    return () => {
      clearTimeout(timer);
      stdout.off('resize', onResize);
    };
    // `read` only closes over stdout.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stdout]);
  return size;
}
