/**
 * The terminal handed to a pager that runs while hermes' event loop goes on (the transcript is fed to
 * it in slices): nothing of hermes may reach the terminal or take its keys meanwhile.
 *
 * - Keys: Ink reads stdin on 'readable'; its listeners are taken off and stdin paused (process.stdin
 *   then stops reading the tty), so every key goes to the pager. Raw mode is off, as a pager expects.
 * - Output: Ink's writes are held and written after the pager, in order. The pager (less) restores the
 *   screen it found, so Ink's diffs apply to the screen they were made for.
 * - Ctrl+C: without raw mode the terminal sends SIGINT to the whole foreground group; the pager handles
 *   it (less stays open), and hermes, which would otherwise end, is shielded from it (interruptShield.ts).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { shieldFromInterrupts } from '../app/interruptShield.ts';

type Listener = (...args: unknown[]) => void;
type HeldWrite = [chunk: unknown, encoding?: unknown, callback?: unknown];

export interface HeldTerminal {
  /** Writes past the hold (the terminal modes around the pager). */
  write(text: string): void;
  /** Gives the terminal back: keys to Ink, raw mode, held writes (in order); default SIGINT a moment later (interruptShield.ts). */
  release(): void;
}

export function holdTerminal(stdin: NodeJS.ReadStream, stdout: NodeJS.WriteStream): HeldTerminal {
  const raw = stdin.isTTY && stdin.isRaw;
  const readers = stdin.listeners('readable') as Listener[];
  for (const reader of readers) stdin.off('readable', reader);
  if (raw) stdin.setRawMode(false);
  // Once no 'readable' listener is left (a tick later), pausing stops process.stdin's tty reads.
  void nextTurn().then(() => {
    if (!released) stdin.pause();
  });
  const write = stdout.write;
  const held: HeldWrite[] = [];
  stdout.write = ((...args: HeldWrite) => {
    held.push(args);
    return true;
  }) as typeof stdout.write;
  const liftShield = shieldFromInterrupts();
  let released = false;
  return {
    write: (text) => void write.call(stdout, text),
    release: () => {
      if (released) return;
      released = true;
      liftShield();
      stdout.write = write;
      for (const args of held) (write as (...a: unknown[]) => boolean).apply(stdout, args);
      if (raw) stdin.setRawMode(true);
      for (const reader of readers) stdin.on('readable', reader);
    },
  };
}
