/**
 * Ink's incremental writer as patched for hermes (patches/ink+6.8.0.patch), driven into a real terminal
 * emulator: what it writes must leave the rows above its output alone, also when its output sits on the
 * screen's last row (where a cursor-next-line does not scroll, so a row of scrollback was erased later).
 */
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import xtermHeadless from '@xterm/headless';
import { describe, expect, it } from 'vitest';

interface LogUpdate {
  (output: string): boolean;
  clear(): void;
}
type Create = { create(stream: { write(data: string): boolean }, options: { incremental: boolean; showCursor: boolean }): LogUpdate };

async function incrementalLog(terminal: xtermHeadless.Terminal): Promise<LogUpdate> {
  // Ink exports only its index; the writer is its build/log-update.js, patched on install.
  const index = createRequire(import.meta.url).resolve('ink');
  const { default: logUpdate } = (await import(pathToFileURL(path.join(path.dirname(index), 'log-update.js')).href)) as { default: Create };
  return logUpdate.create({ write: (data) => (terminal.write(data), true) }, { incremental: true, showCursor: true });
}

const rows = (terminal: xtermHeadless.Terminal) =>
  new Promise<string[]>((resolve) =>
    terminal.write('', () => {
      const buffer = terminal.buffer.active;
      resolve(Array.from({ length: buffer.length }, (_, y) => buffer.getLine(y)?.translateToString(true) ?? ''));
    }),
  );

describe("Ink's incremental writer", () => {
  it('keeps the row above its output when the output grows from the last row of the screen, then is cleared', async () => {
    // A pty turns "\n" into "\r\n" (onlcr); convertEol does the same here.
    const terminal = new xtermHeadless.Terminal({ cols: 20, rows: 8, convertEol: true, allowProposedApi: true });
    terminal.write('s1\ns2\ns3\ns4 kept\n');
    const log = await incrementalLog(terminal);
    log('\nA\nB\n');
    // The empty row above A is unchanged and now sits on the screen's last row but one; the rows after it are new.
    log('\nX\nY\n\nA\nB\n');
    log.clear();
    terminal.write('printed above\n');
    log('\nA\nB\n');
    const text = (await rows(terminal)).join('\n');
    expect(text).toContain('s4 kept\nprinted above\n\nA\nB');
  });
});
