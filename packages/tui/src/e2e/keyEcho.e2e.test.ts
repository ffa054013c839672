/**
 * What one key costs the terminal: in a real pseudo-terminal, each key typed into the composer writes
 * at most 100 bytes (only the changed end of the composer's row, not the whole live area), and the
 * screen is still right: the text, one prompt row, and the terminal cursor at the caret (for input
 * methods), with wide characters, Backspace in the middle, a draft that wraps, and after a resize.
 * Bytes are counted, not timed.
 */
import stringWidth from 'string-width';
import { afterEach, describe, expect, it } from 'vitest';
import { CLEAR_ALL } from '../hooks/useTerminalSize.ts';
import { FAKE_BACKEND, spawnHermes, type HermesPty, type KeyName } from '../testing/ptyHarness.ts';

/** The ceiling for one key typed into the composer (Claude Code writes 46). */
const MAX_BYTES_PER_KEY = 100;
const COLS = 60;

const running: HermesPty[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((hermes) => hermes.kill()));
});

async function hermesAtPrompt(): Promise<HermesPty> {
  const hermes = spawnHermes({ args: ['--tui'], env: { HERMES_RPC_ENTRY: FAKE_BACKEND }, cols: COLS, rows: 24 });
  running.push(hermes);
  await hermes.waitForText('Ask hermes anything', 20_000);
  return hermes;
}

/** Sends one key (a character or a named key) and returns the bytes hermes wrote for it, once it has drawn it. */
async function keyBytes(hermes: HermesPty, key: string | { press: KeyName }): Promise<number> {
  const before = hermes.rawOutput().length;
  if (typeof key === 'string') hermes.type(key);
  else hermes.press(key.press);
  await expect.poll(() => hermes.rawOutput().length, { interval: 5 }).toBeGreaterThan(before);
  // Waits until output has paused, so a second frame for the same key is counted too.
  await hermes.cursor();
  return Buffer.byteLength(hermes.rawOutput().slice(before));
}

/** Types `text` one grapheme at a time; returns the bytes each key cost. */
async function typeKeys(hermes: HermesPty, text: string): Promise<number[]> {
  const costs: number[] = [];
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)) costs.push(await keyBytes(hermes, segment));
  return costs;
}

const promptRows = (screen: string) => screen.split('\n').filter((row) => row.startsWith('❯'));

/** The screen has one prompt row, showing `shown`, and the terminal cursor right after `beforeCaret`. */
async function expectPromptRow(hermes: HermesPty, shown: string, beforeCaret: string): Promise<void> {
  const screen = hermes.screenText().split('\n');
  const row = screen.findIndex((line) => line.startsWith('❯ '));
  expect(screen[row]).toBe(shown);
  expect(promptRows(hermes.screenText())).toHaveLength(1);
  expect(await hermes.cursor()).toEqual({ row, column: stringWidth(beforeCaret), visible: true });
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
