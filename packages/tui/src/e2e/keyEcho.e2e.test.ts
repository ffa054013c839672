/**
 * What one key costs the terminal: in a real pseudo-terminal, each key typed into the composer writes
 * at most 100 bytes (only the changed end of the composer's row, not the whole live area), and the
 * screen is still right: the text, one prompt row, and the terminal cursor at the caret (for input
 * methods), with wide characters, Backspace in the middle, a draft that wraps, and after a resize.
 * Bytes are counted, not timed.
 *
 * A plain key at the end of the draft is echoed before its frame (echo/): the echo's bytes come first
 * in the output, and after the frame the screen and the cursor are as the frame alone leaves them. Keys
 * whose frame is not certain (the placeholder, a command or shell line, the wrap column, a card, a
 * resize) are drawn by the frame alone.
 */
import stringWidth from 'string-width';
import { afterEach, describe, expect, it } from 'vitest';
import { CLEAR_ALL } from '../hooks/useTerminalSize.ts';
import { FAKE_BACKEND, spawnHermes, type HermesPty, type KeyName } from '../testing/ptyHarness.ts';
import { hermesWithModel, stopAll, type Running } from '../testing/realBackend.ts';

/** The ceiling for one key typed into the composer (Claude Code writes 46). */
const MAX_BYTES_PER_KEY = 100;
const COLS = 60;

const running: HermesPty[] = [];
const withModel: Running = { hermes: [], servers: [] };
afterEach(async () => {
  await Promise.all(running.splice(0).map((hermes) => hermes.kill()));
  await stopAll(withModel);
});

async function hermesAtPrompt(cols = COLS): Promise<HermesPty> {
  const hermes = spawnHermes({ args: ['--tui'], env: { HERMES_RPC_ENTRY: FAKE_BACKEND }, cols, rows: 24 });
  running.push(hermes);
  await hermes.waitForText('Ask hermes anything', 20_000);
  return hermes;
}

/** Sends one key (a character or a named key) and returns what hermes wrote for it, once it has drawn it. */
async function keyOutput(hermes: HermesPty, key: string | { press: KeyName }): Promise<string> {
  const before = hermes.rawOutput().length;
  if (typeof key === 'string') hermes.type(key);
  else hermes.press(key.press);
  await expect.poll(() => hermes.rawOutput().length, { interval: 5 }).toBeGreaterThan(before);
  // The echo comes first and the key's frame after it: on a loaded machine the frame can come later than
  // a pause in the output, and was then counted as the next key's. Wait for the frame's end (a second
  // or so at most: a key that draws no frame is counted as it is).
  const deadline = Date.now() + FRAME_WAIT_MS;
  while (!hermes.rawOutput().slice(before).includes(FRAME_END) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  // Waits until output has paused, so a second frame for the same key is counted too.
  await hermes.cursor();
  return hermes.rawOutput().slice(before);
}

/** Sends one key and returns the bytes hermes wrote for it, once it has drawn it. */
const keyBytes = async (hermes: HermesPty, key: string | { press: KeyName }) => Buffer.byteLength(await keyOutput(hermes, key));

/** Types `text` one grapheme at a time; returns the bytes each key cost. */
async function typeKeys(hermes: HermesPty, text: string): Promise<number[]> {
  const costs: number[] = [];
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)) costs.push(await keyBytes(hermes, segment));
  return costs;
}

const promptRows = (screen: string) => screen.split('\n').filter((row) => row.startsWith('❯'));

/** The screen has one prompt row, showing `shown`, and the terminal cursor right after `beforeCaret` (on the row `below` it). */
async function expectPromptRow(hermes: HermesPty, shown: string, beforeCaret: string, below = 0): Promise<void> {
  const cursor = await hermes.cursor();
  const screen = hermes.screenText().split('\n');
  const row = screen.findIndex((line) => line.startsWith('❯ '));
  expect(screen[row]).toBe(shown);
  expect(promptRows(hermes.screenText())).toHaveLength(1);
  expect(cursor).toEqual({ row: row + below, column: stringWidth(beforeCaret), visible: true });
}

describe('a key typed into the composer', () => {
  it('writes at most 100 bytes while a line grows past the width and wraps; the draft and the cursor follow', async () => {
    const hermes = await hermesAtPrompt();
    const text = 'the quick brown fox jumps over the lazy dog and then runs far away';
    const costs = await typeKeys(hermes, text);
    // The one key that wraps the draft onto a second row redraws the rows from the composer down (the
    // status line moves down a row); every other key rewrites only the end of its row.
    const over = costs.filter((cost) => cost > MAX_BYTES_PER_KEY);
    expect(over.length).toBeLessThanOrEqual(1);
    expect(Math.max(...costs)).toBeLessThanOrEqual(3 * MAX_BYTES_PER_KEY);

    const screen = hermes.screenText().split('\n');
    const first = screen.findIndex((row) => row.startsWith('❯ '));
    expect(screen[first]).toBe(`❯ ${text.slice(0, text.indexOf(' far'))}`);
    expect(screen[first + 1]).toBe('far away');
    expect(screen[first + 2]).toMatch(/^● ready/);
    // One prompt on screen: no copy of an earlier frame left above it.
    expect(promptRows(hermes.screenText())).toHaveLength(1);
    expect(await hermes.cursor()).toEqual({ row: first + 1, column: 'far away'.length, visible: true });
  });

  it('writes at most 100 bytes for wide characters and for Backspace in the middle of the draft', async () => {
    const hermes = await hermesAtPrompt();
    const text = '你好世界 hello 😀 done';
    const costs = await typeKeys(hermes, text);
    for (let at = 0; at < 5; at += 1) costs.push(await keyBytes(hermes, { press: 'left' }));
    // The caret now sits right after the emoji: Backspace deletes it, the text after it moves left.
    costs.push(await keyBytes(hermes, { press: 'backspace' }));
    expect(Math.max(...costs)).toBeLessThanOrEqual(MAX_BYTES_PER_KEY);

    await expectPromptRow(hermes, '❯ 你好世界 hello  done', '❯ 你好世界 hello ');
  });

  it('after the terminal narrows, keeps the draft whole and each further key at most 100 bytes', async () => {
    const hermes = await hermesAtPrompt();
    await typeKeys(hermes, 'hello world');
    const before = hermes.rawOutput().length;
    hermes.resize(40, 24);
    // The transcript is printed again once the resize settles; keys are counted after that.
    await expect.poll(() => hermes.rawOutput().slice(before).includes(CLEAR_ALL)).toBe(true);
    await hermes.waitForText(/^─{40}$/m);
    const costs = await typeKeys(hermes, ' and more');
    expect(Math.max(...costs)).toBeLessThanOrEqual(MAX_BYTES_PER_KEY);

    await expectPromptRow(hermes, '❯ hello world and more', '❯ hello world and more');
  });
});

/** Ink's begin- and end-synchronized-update: each frame starts and ends with them. */
const FRAME_START = '\x1b[?2026h';
const FRAME_END = '\x1b[?2026l';
/** How long a key's frame is waited for before what came is counted as the key's. */
const FRAME_WAIT_MS = 1_500;

/**
 * Whether `output` holds the echo of `char` written while the turn runs (dimmed), between frames (each
 * in its synchronized-update markers; one of a stream may come first): at the cursor, or from under
 * the frame up to the caret and back.
 */
function busyEchoIn(output: string, char: string): boolean {
  const echo = new RegExp(`^(?:\\x1b\\[(\\d+)A\\x1b\\[\\d+G)?\\x1b\\[2m${char}\\x1b\\[22m(?:\\x1b\\[\\1B\\r)?$`);
  return output.split(/\x1b\[\?2026[hl]/).some((part) => echo.test(part));
}

/**
 * Types each character of `text` as its own key into a draft of `typed` while something else draws
 * too (no pause in the output to wait for): each once the composer shows the one before. Returns what
 * was written from each key until the composer showed it.
 */
async function typeWhileBusy(hermes: HermesPty, typed: string, text: string): Promise<string[]> {
  const outputs: string[] = [];
  for (const [index, char] of [...text].entries()) {
    const before = hermes.rawOutput().length;
    hermes.type(char);
    const shown = `${typed}${text.slice(0, index + 1)}`;
    await expect.poll(() => hermes.screenText().split('\n').some((row) => row.trimEnd() === `❯ ${shown}`)).toBe(true);
    outputs.push(hermes.rawOutput().slice(before));
  }
  return outputs;
}

/**
 * The keys typed while busy were echoed, but the first: the busy placeholder is longer than a row of 60
 * columns, so the first key shortens the composer by a row, which only the frame can draw.
 */
function expectBusyEchoes(outputs: string[], text: string): void {
  expect(busyEchoIn(outputs[0], text[0]), JSON.stringify(outputs[0])).toBe(false);
  for (const [index, output] of outputs.entries()) if (index > 0) expect(busyEchoIn(output, text[index]), JSON.stringify(output)).toBe(true);
}

/** Types each character of `text` as its own key and returns what each one wrote. */
async function keyOutputs(hermes: HermesPty, text: string): Promise<string[]> {
  const outputs: string[] = [];
  for (const char of text) outputs.push(await keyOutput(hermes, char));
  return outputs;
}

describe('a plain key typed at the end of the draft', () => {
  it('is written before its frame; after keys and Backspaces the screen and the cursor are right', async () => {
    const hermes = await hermesAtPrompt();
    // The first key replaces the placeholder: the echo erases it.
    expect(await keyOutput(hermes, 'h')).toMatch(/^h\x1b\[K\x1b\[\?2026h/);
    for (const [index, output] of (await keyOutputs(hermes, 'ello world')).entries()) expect(output.startsWith(`${'ello world'[index]}${FRAME_START}`), JSON.stringify(output)).toBe(true);
    await expectPromptRow(hermes, '❯ hello world', '❯ hello world');
    for (let at = 0; at < 3; at += 1) expect(await keyOutput(hermes, { press: 'backspace' })).toMatch(/^\x08 \x08\x1b\[\?2026h/);
    await expectPromptRow(hermes, '❯ hello wo', '❯ hello wo');
    // Typed again after the Backspaces, then a wide character, which the frame alone draws.
    expect(await keyOutput(hermes, 'r')).toMatch(/^r\x1b\[\?2026h/);
    expect(await keyOutput(hermes, '界')).toMatch(/^\x1b\[\?2026h/);
    expect(await keyOutput(hermes, { press: 'backspace' })).toMatch(/^\x1b\[\?2026h/);
    await expectPromptRow(hermes, '❯ hello wor', '❯ hello wor');
    // Backspace down to the empty draft: the last one erases the row after the sign; the frame draws the placeholder.
    hermes.type('\x7f'.repeat(8));
    await hermes.waitForText(/^❯ h$/m);
    expect(await keyOutput(hermes, { press: 'backspace' })).toMatch(/^\x08\x1b\[K\x1b\[\?2026h/);
    await expectPromptRow(hermes, '❯   Ask hermes anything · !cmd runs a shell command', '❯ ');
  });

  it('on a narrow screen, has a placeholder of one row to replace: the first key is still echoed before its frame', async () => {
    const hermes = await hermesAtPrompt(30);
    // "Ask hermes anything · !cmd runs a shell command" would wrap at 30 columns: its hint is left out.
    await expectPromptRow(hermes, '❯   Ask hermes anything', '❯ ');
    expect(await keyOutput(hermes, 'h')).toMatch(/^h\x1b\[K\x1b\[\?2026h/);
    await expectPromptRow(hermes, '❯ h', '❯ h');
  });

  it('is left to the frame at the wrap column, and Backspace too from the start of a wrapped row', async () => {
    const hermes = await hermesAtPrompt(30);
    hermes.type('a'.repeat(26));
    await hermes.waitForText(`❯ ${'a'.repeat(26)}`);
    // "❯ " and 27 characters: the caret's block is in column 29, the last.
    const full = `❯ ${'a'.repeat(26)}b`;
    expect(await keyOutput(hermes, 'b')).toMatch(/^b\x1b\[\?2026h/);
    await expectPromptRow(hermes, full, full);
    // The next character fills the row and the block moves to a row of its own.
    expect(await keyOutput(hermes, 'c')).toMatch(/^\x1b\[\?2026h/);
    await expectPromptRow(hermes, `${full}c`, '', 1);
    expect(await keyOutput(hermes, { press: 'backspace' })).toMatch(/^\x1b\[\?2026h/);
    await expectPromptRow(hermes, full, full);
  });

  it('is left to the frame in a command or a shell line', async () => {
    const hermes = await hermesAtPrompt();
    for (const output of await keyOutputs(hermes, '/he')) expect(output).toMatch(/^\x1b\[\?2026h/);
    await hermes.waitForText('/help');
    await expectPromptRow(hermes, '❯ /he', '❯ /he');
    hermes.press('ctrl-c');
    await hermes.waitForText('Ask hermes anything');
    for (const output of await keyOutputs(hermes, '!ls')) expect(output).toMatch(/^\x1b\[\?2026h/);
    await expectPromptRow(hermes, '❯ !ls', '❯ !ls');
  });

  it('is left to the card while an approval card has the keys, and echoed dimmed while the turn runs', async () => {
    const hermes = await hermesAtPrompt();
    hermes.type('approve-slow');
    await hermes.waitForText('❯ approve-slow');
    hermes.press('enter');
    // The turn runs (a spinner turns) for 1.5 s before the card comes: the draft is dimmed, and so is its echo.
    await expect.poll(() => hermes.screenText()).toContain('warming up');
    const outputs = await typeWhileBusy(hermes, '', 'next');
    expectBusyEchoes(outputs, 'next');
    await hermes.waitForText('approval needed');
    const before = hermes.rawOutput().length;
    hermes.type('2');
    await hermes.waitForText('❯ 2 Allow for this session');
    expect(hermes.rawOutput().slice(before)).toMatch(/^\x1b\[\?2026h/);
    // The draft is kept under the card, and no caret is shown.
    expect(hermes.screenText()).toMatch(/^❯ next\s*$/m);
    expect((await hermes.cursor()).visible).toBe(false);
  });

  it('is echoed from under the frame while a reply streams, and the screen and the cursor are right after it', async () => {
    // A reply of ~20 s, interrupted once the keys are typed.
    const words = Array.from({ length: 400 }, (_, i) => `w${String(i + 1).padStart(3, '0')} `);
    const { hermes } = await hermesWithModel(withModel, { turns: [{ chunks: words, chunk_delay_ms: 50 }] }, { cols: COLS, rows: 24 });
    hermes.type('Count slowly');
    await hermes.waitForText('❯ Count slowly');
    hermes.press('enter');
    await hermes.waitForText('w003');
    const outputs = await typeWhileBusy(hermes, '', 'next');
    expectBusyEchoes(outputs, 'next');
    expect(hermes.screenText()).toContain('answering');
    hermes.press('escape');
    await hermes.waitForText('[interrupted]');
    await hermes.waitForText(/● ready/);
    // The sent prompt is in the transcript above; the composer's row is the last one with the sign.
    const cursor = await hermes.cursor();
    const screen = hermes.screenText().split('\n');
    const row = screen.findLastIndex((line) => line.startsWith('❯ '));
    expect(screen[row]).toBe('❯ next');
    expect(cursor).toEqual({ row, column: '❯ next'.length, visible: true });
  });

  it('after a resize, whatever draws it, leaves the draft whole and the cursor at the caret', async () => {
    const hermes = await hermesAtPrompt();
    await typeKeys(hermes, 'hello');
    hermes.resize(40, 24);
    // Keys right after the resize, before hermes has drawn for the new size, then once it has.
    hermes.type(' ');
    hermes.type('w');
    await hermes.waitForText(/^─{40}$/m);
    await typeKeys(hermes, 'orld');
    await expectPromptRow(hermes, '❯ hello world', '❯ hello world');
    hermes.resize(60, 20);
    hermes.type('!');
    await hermes.waitForText(/^─{60}$/m);
    await expectPromptRow(hermes, '❯ hello world!', '❯ hello world!');
  });
});
