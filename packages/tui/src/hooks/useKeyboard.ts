/**
 * Reads the keyboard straight from stdin. Ink's `useInput` hands over batched keystrokes as one
 * string and knows nothing of bracketed paste, so raw chunks go through our own parser. Ink still
 * owns raw mode (its `setRawMode` restores the terminal on exit); we listen to the chunks it reads.
 */
import { StringDecoder } from 'node:string_decoder';
import { useStdin } from 'ink';
import { useEffect, useRef } from 'react';
import { createKeyParser, type Key } from '../input/keyParser.ts';

/** How long a lone Esc waits for the rest of a sequence before it counts as the Escape key. */
const ESCAPE_WAIT_MS = 50;

export function useKeyboard(onKeys: (keys: Key[]) => void): void {
  const { stdin, setRawMode, isRawModeSupported } = useStdin();
  const handler = useRef(onKeys);
  handler.current = onKeys;

  useEffect(() => {
    if (!isRawModeSupported) return;
    setRawMode(true);
    const parser = createKeyParser();
    // A multi-byte character may be split between two reads; the decoder holds its first bytes.
    const decoder = new StringDecoder('utf8');
    let escapeTimer: NodeJS.Timeout | undefined;
    const deliver = (keys: Key[]) => {
      if (keys.length > 0) handler.current(keys);
    };
    const onData = (chunk: string | Buffer) => {
      clearTimeout(escapeTimer);
      deliver(parser.push(typeof chunk === 'string' ? chunk : decoder.write(chunk)));
      if (parser.hasPending()) escapeTimer = setTimeout(() => deliver(parser.flush()), ESCAPE_WAIT_MS);
    };
    stdin.on('data', onData);
    return () => {
      clearTimeout(escapeTimer);
      stdin.off('data', onData);
      setRawMode(false);
    };
  }, [stdin, setRawMode, isRawModeSupported]);
}
