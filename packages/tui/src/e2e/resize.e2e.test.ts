/**
 * Changing the terminal's width, in a real pseudo-terminal against the real backend: the transcript is
 * cleared and printed again at the new width, once per burst of resize events, idle and while a reply
 * streams. The screen that results is compared with a fresh hermes that ran the same conversation at
 * the final width and was never resized.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Script } from '../../../../scripts/model-server/index.ts';
import { CLEAR_ALL } from '../hooks/useTerminalSize.ts';
import type { HermesPty } from '../testing/ptyHarness.ts';
import { hermesWithModel, stopAll, type Running } from '../testing/realBackend.ts';

const running: Running = { hermes: [], servers: [] };
afterEach(() => stopAll(running));

const EARLIER = 'An earlier answer that is long enough to be wrapped differently at sixty columns than at eighty, and again at a hundred and twenty columns.';
const STREAMED = `Streaming begins here. ${'Each of these sentences is one more piece of a reply that arrives slowly, a few characters at a time. '.repeat(5)}Streaming ends here.`;
const SCRIPT: Script = {
  turns: [{ text: EARLIER }, { text: STREAMED, chunk_size: 4, chunk_delay_ms: 25 }],
};
const SIZE = { cols: 120, rows: 40 };

const clears = (hermes: HermesPty) => hermes.rawOutput().split(CLEAR_ALL).length - 1;
const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

/** Runs the whole conversation at 120 columns with no resize: what the resized screen must equal. */
async function freshRender(): Promise<string> {
  const { hermes } = await hermesWithModel(running, SCRIPT, SIZE);
  for (const prompt of ['first', 'second']) {
    hermes.type(prompt);
    hermes.press('enter');
    await hermes.waitForText(prompt === 'first' ? 'An earlier answer' : 'Streaming ends here.');
    await hermes.waitForText(/● ready/);
  }
  return hermes.bufferText().trimEnd();
}

/**
 * 120 → 80 → 60 → 120 in quick succession, as a drag on the window's edge sends it. Each step waits
 * until hermes has drawn a rule at that width (so it saw the step: signals sent at once merge into one),
 * which is well inside the pause that ends a burst.
 */
async function burst(hermes: HermesPty): Promise<void> {
  let previous = SIZE.cols;
  for (const cols of [80, 60, 120]) {
    const from = hermes.rawOutput().length;
    hermes.resize(cols, SIZE.rows);
    const narrower = cols < previous;
    const drawn = () => {
      const written = hermes.rawOutput().slice(from);
      // Narrower: Ink redraws every row on the resize event, in the same tick as hermes takes it (read
      // from what hermes wrote: the emulator's own reflow of a wider rule makes one this wide on screen).
      // Wider: Ink writes only the rule's new end, and the screen cannot show a rule this wide before
      // hermes drew it.
      return narrower ? written.includes('─') : new RegExp(`^─{${cols}}$`, 'm').test(hermes.screenText());
    };
    await expect.poll(drawn, { interval: 5, timeout: 10_000 }).toBe(true);
    previous = cols;
  }
}

describe('a terminal whose width changes', () => {
  it('reprints the transcript at each new width, and a burst of resizes reprints once, idle and mid-stream', async () => {
    const { hermes } = await hermesWithModel(running, SCRIPT, SIZE);
    hermes.type('first');
    hermes.press('enter');
    await hermes.waitForText('An earlier answer');
    await hermes.waitForText(/● ready/);

    // One step at a time: each width gets its own reprint, laid out for it, with no row of the wider one.
    for (const cols of [80, 60, 120]) {
      const before = clears(hermes);
      hermes.resize(cols, SIZE.rows);
      await expect.poll(() => clears(hermes), { timeout: 10_000 }).toBe(before + 1);
      const screen = await hermes.waitForText(/● ready/);
      expect(screen).toMatch(new RegExp(`^─{${cols}}$`, 'm'));
      expect(screen).not.toMatch(new RegExp(`─{${cols + 1}}`));
      expect(count(hermes.bufferText(), /An earlier answer/g)).toBe(1);
      expect(await hermes.overflowRows()).toEqual([]);
    }

    // A burst while idle: one reprint.
    let before = clears(hermes);
    await burst(hermes);
    await expect.poll(() => clears(hermes), { timeout: 10_000 }).toBe(before + 1);
    await hermes.waitForText(/● ready/);
    expect(clears(hermes)).toBe(before + 1);

    // A burst while the reply streams: one reprint, and no copy of the partial reply left above the real one.
    hermes.type('second');
    hermes.press('enter');
    await hermes.waitForText('Streaming begins here.');
    before = clears(hermes);
    await burst(hermes);
    await expect.poll(() => clears(hermes), { timeout: 10_000 }).toBe(before + 1);
    await hermes.waitForText('Streaming ends here.');
    await hermes.waitForText(/● ready/);
    expect(clears(hermes)).toBe(before + 1);
    const resized = hermes.bufferText().trimEnd();
    expect(count(resized, /Streaming begins here/g)).toBe(1);
    expect(count(resized, /An earlier answer/g)).toBe(1);

    expect(resized).toEqual(await freshRender());
  });
});
