import { useStdout } from 'ink';
import { useEffect, useRef, useState } from 'react';

export interface TerminalSize {
  columns: number;
  rows: number;
  /**
   * Counts the times the terminal got narrower. A terminal reflows what it shows when it narrows, so the
   * rows Ink drew at the old width take more rows now and Ink, erasing the rows it wrote, would leave
   * the rest on screen (pieces of a card, a second rule). So the screen and scrollback are cleared and
   * the transcript is printed again at the new width (`Transcript`'s `generation`).
   */
  narrowed: number;
}

/** Clears the screen and the scrollback, cursor home. */
export const CLEAR_ALL = '\x1b[2J\x1b[3J\x1b[H';

/** The terminal's size, updated on resize. */
export function useTerminalSize(): TerminalSize {
  const { stdout } = useStdout();
  const read = (narrowed: number): TerminalSize => ({ columns: stdout.columns || 80, rows: stdout.rows || 24, narrowed });
  const [size, setSize] = useState(() => read(0));
  const last = useRef(size);
  useEffect(() => {
    const onResize = () => {
      let next = read(last.current.narrowed);
      if (next.columns < last.current.columns) {
        stdout.write(CLEAR_ALL);
        next = { ...next, narrowed: next.narrowed + 1 };
      }
      last.current = next;
      setSize(next);
    };
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
    // `read` only closes over stdout.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stdout]);
  return size;
}
