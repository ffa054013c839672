/**
 * The echo between two frames of Ink's own writer (patched, patches/ink+6.8.0.patch), into a real
 * terminal emulator: after the echo the screen already shows the key, and after the next frame the
 * screen and the cursor are exactly what the frames alone leave. Also what counts as a write after a frame.
 */
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import xtermHeadless from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { draftRows } from '../components/Composer.tsx';
import type { Key } from '../input/keyParser.ts';
import { LocalEcho, type TerminalOut, type WrittenFrame } from './localEcho.ts';

const COLS = 30;
const ROWS = 10;

interface LogUpdate {
  (output: string): boolean;
  setCursorPosition(position: { x: number; y: number } | undefined): void;
}
type Create = { create(stream: { write(data: string): boolean }, options: { incremental: boolean; onFrame?: (frame: WrittenFrame) => void }): LogUpdate };

async function createLog(stream: { write(data: string): boolean }, onFrame?: (frame: WrittenFrame) => void): Promise<LogUpdate> {
  // Ink exports only its index; the writer is its build/log-update.js, patched on install.
  const index = createRequire(import.meta.url).resolve('ink');
  const { default: logUpdate } = (await import(pathToFileURL(path.join(path.dirname(index), 'log-update.js')).href)) as { default: Create };
  return logUpdate.create(stream, { incremental: true, ...(onFrame ? { onFrame } : {}) });
}

/** A terminal the size of ROWS × COLS; "\n" becomes "\r\n" as a pty's onlcr does. */
function terminal(): xtermHeadless.Terminal {
  return new xtermHeadless.Terminal({ cols: COLS, rows: ROWS, convertEol: true, allowProposedApi: true });
}

/** The screen's rows and the cursor, once everything written is parsed. */
const screenOf = (term: xtermHeadless.Terminal) =>
  new Promise<{ rows: string[]; cursor: [number, number] }>((resolve) =>
    term.write('', () => {
      const buffer = term.buffer.active;
      const rows = Array.from({ length: ROWS }, (_, y) => buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '');
      resolve({ rows, cursor: [buffer.cursorX, buffer.cursorY] });
    }),
  );

/** The live area with the composer drawing `draft` (its caret at the end), and the caret's cell in it. */
const PLACEHOLDER = 'Ask hermes';

function frame(draft: string, dim: boolean): { output: string; caret: { x: number; y: number } } {
  const { rows, caret } = draftRows(draft, draft.length, COLS, PLACEHOLDER);
  const drawn = rows.map((row) => (dim ? `\x1b[2m${row}\x1b[22m` : row.trimEnd()));
  const lines = ['', 'streaming line', '─'.repeat(COLS), ...drawn, '● ready'];
  return { output: `${lines.join('\n')}\n`, caret: { x: caret.x, y: 3 + caret.row } };
}

/** A terminal with hermes's writer and echo on it, and the same writer alone on another, for comparison. */
async function rig() {
  const term = terminal();
  const stdout: TerminalOut = {
    write: ((data: string) => (term.write(data), true)) as TerminalOut['write'],
    columns: COLS,
    rows: ROWS,
    getWindowSize: () => [COLS, ROWS],
  };
  const stderr = { write: ((data: string) => (term.write(data), true)) as TerminalOut['write'] };
  const echo = new LocalEcho(stdout, [stderr]);
  const log = await createLog(stdout, echo.frameWritten);
  const plainTerm = terminal();
  const plainLog = await createLog({ write: (data) => (plainTerm.write(data), true) });
  /** Draws `draft` on both; the cursor at the caret when `shown`, else hidden under the frame (as while a reply streams). */
  const draw = (draft: string, { shown = true, dim = false } = {}) => {
    const { output, caret } = frame(draft, dim);
    echo.composerDrawn({ draft, cursor: draft.length, width: COLS, dim, caret: true, placeholder: PLACEHOLDER });
    for (const writer of [log, plainLog]) {
      writer.setCursorPosition(shown ? caret : undefined);
      writer(output);
    }
  };
  return { term, plainTerm, stdout, stderr, echo, draw };
}

const text = (char: string): Key => ({ type: 'text', text: char });
const backspace: Key = { type: 'key', name: 'backspace', ctrl: false, meta: false, shift: false };
const at = (draft: string) => ({ draft, cursor: draft.length });

describe('LocalEcho', () => {
  for (const shown of [true, false]) {
    it(`shows a key at once and leaves the next frame's screen and cursor as the frames alone do (cursor ${shown ? 'at the caret' : 'hidden under the frame'})`, async () => {
      const { term, plainTerm, echo, draw } = await rig();
      draw('hell', { shown, dim: !shown });
      expect(echo.key(at('hell'), at('hello'), text('o'))).toBe(true);
      const echoed = await screenOf(term);
      expect(echoed.rows[3]).toBe('❯ hello');
      // Where the frame left it: at the caret (one further now), or back under the frame.
      expect(echoed.cursor).toEqual(shown ? [7, 3] : [0, 5]);
      draw('hello', { shown, dim: !shown });
      expect(await screenOf(term)).toEqual(await screenOf(plainTerm));

      expect(echo.key(at('hello'), at('hell'), backspace)).toBe(true);
      // A blank cell: a written space, to be erased by the frame.
      expect((await screenOf(term)).rows[3].trimEnd()).toBe('❯ hell');
      draw('hell', { shown, dim: !shown });
      expect(await screenOf(term)).toEqual(await screenOf(plainTerm));
    });

    it(`trades the placeholder for the first key and back for the Backspace that empties the draft (cursor ${shown ? 'at the caret' : 'hidden'})`, async () => {
      const { term, plainTerm, echo, draw } = await rig();
      draw('', { shown });
      expect((await screenOf(term)).rows[3]).toBe(`❯   ${PLACEHOLDER}`);
      expect(echo.key(at(''), at('h'), text('h'))).toBe(true);
      expect((await screenOf(term)).rows[3].trimEnd()).toBe('❯ h');
      draw('h', { shown });
      expect(await screenOf(term)).toEqual(await screenOf(plainTerm));
      expect(echo.key(at('h'), at(''), backspace)).toBe(true);
      expect((await screenOf(term)).rows[3].trimEnd()).toBe('❯');
      draw('', { shown });
      expect(await screenOf(term)).toEqual(await screenOf(plainTerm));
    });
  }

  it('does not echo once anything else reached the terminal after the frame, a second key included', async () => {
    const { stdout, stderr, echo, draw } = await rig();
    draw('hell');
    // Ink's synchronized-update markers draw nothing.
    stdout.write('\x1b[?2026l');
    expect(echo.shown()).toBeDefined();
    stderr.write('(node) warning\n');
    expect(echo.shown()).toBeUndefined();
    expect(echo.key(at('hell'), at('hello'), text('o'))).toBe(false);

    draw('hello');
    expect(echo.key(at('hello'), at('helloa'), text('a'))).toBe(true);
    // The frame showing `a` is not written yet: the echo itself was the last write.
    expect(echo.key(at('helloa'), at('helloab'), text('b'))).toBe(false);
  });

  it('does not echo once the terminal has another size than the frame was laid out for', async () => {
    const { stdout, echo, draw } = await rig();
    draw('hell');
    stdout.getWindowSize = () => [COLS - 1, ROWS];
    expect(echo.shown()).toBeUndefined();
    stdout.getWindowSize = () => [COLS, ROWS + 1];
    expect(echo.shown()).toBeUndefined();
    stdout.getWindowSize = () => [COLS, ROWS];
    expect(echo.key(at('hell'), at('hello'), text('o'))).toBe(true);
  });
});
