/**
 * Text whose width terminals and string-width disagree on, in a real pseudo-terminal at 60 columns: emoji
 * joined by U+200D (👩‍👩‍👧‍👦) and emoji with U+FE0F. string-width counts a joined sequence as one glyph two
 * columns wide; terminals without grapheme clustering (xterm.js, VTE, pyte) draw each part in its own
 * cells. Laid out by the first and drawn by the second, a card is wider than Ink thinks: its lines wrap,
 * and when it closes Ink erases too few rows, leaving pieces of it on screen. A terminal made narrower
 * does the same to everything Ink drew at the old width: it reflows it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { hermesWithModel, stopAll, type Running } from '../testing/realBackend.ts';

const running: Running = { hermes: [], servers: [] };
afterEach(() => stopAll(running));

const FAMILY = '👩‍👩‍👧‍👦';
const FLAG = '🏳️‍🌈';
const JOINED = `${FAMILY}${FAMILY} ${FLAG} 家族の旗`;

describe('joined emoji at 60 columns', () => {
  it('a clarify card with them fits the terminal and leaves nothing behind once answered; the status line stays one row', async () => {
    const { hermes } = await hermesWithModel(
      running,
      {
        turns: [
          { tool_calls: [{ name: 'clarify', arguments: { question: `Which one? ${JOINED} ${JOINED}`, choices: [`${JOINED} ${JOINED} ${JOINED}`, 'plain'] } }] },
          { text: 'Noted.' },
        ],
      },
      { cols: 60, rows: 24 },
    );
    hermes.type('ask me');
    hermes.press('enter');
    const card = await hermes.waitForText(/Enter send · Esc decline/);
    // Every row of the card is one screen row: its right border closes each of them.
    const rows = card.split('\n');
    const top = rows.findIndex((row) => row.startsWith('╭'));
    const bottom = rows.findIndex((row) => row.startsWith('╰'));
    expect(top).toBeGreaterThanOrEqual(0);
    for (const row of rows.slice(top, bottom + 1)) expect(row).toMatch(/[│╮╯]$/);
    hermes.press('enter');
    const after = await hermes.waitForText('Noted.');
    // The card is gone, all of it.
    expect(after).not.toMatch(/[╭╰│]/);

    hermes.type(`/model ${FAMILY.repeat(12)}`);
    hermes.press('enter');
    const screen = await hermes.waitForText(/Model set to/);
    const statusRow = screen.split('\n').findLast((row) => row.startsWith('●'));
    expect(statusRow).toMatch(/Shift\+Tab: yolo on$/);
    hermes.type(`/title ${JOINED.repeat(3)}`);
    hermes.press('enter');
    await hermes.waitForText(/Title set to/);
    expect(await hermes.overflowRows()).toEqual([]);
  });

  it('a draft, a streamed reply and a tool line with them never run past the right edge', async () => {
    const { hermes } = await hermesWithModel(
      running,
      {
        turns: [
          { chunks: [`${FAMILY} `.repeat(10), `${FLAG} `.repeat(10), 'end of reply'], chunk_delay_ms: 300 },
          { tool_calls: [{ name: 'terminal', arguments: { command: `echo ${FAMILY.repeat(10)}` } }] },
          { text: 'Echoed.' },
        ],
      },
      { cols: 60, rows: 24 },
    );
    hermes.paste(`${FAMILY} `.repeat(12));
    await hermes.waitForText(/❯ 👩/);
    hermes.press('enter');
    await hermes.waitForText('end of reply');
    await hermes.waitForText(/● ready/);
    hermes.type('echo them');
    hermes.press('enter');
    // The gate asks about the unusual characters; denied, the call shows as blocked.
    await hermes.waitForText(/approval needed/);
    hermes.press('enter');
    await hermes.waitForText('Echoed.');
    expect(await hermes.overflowRows()).toEqual([]);
  });

  it('a session titled with them fits its row in the picker', async () => {
    const { hermes } = await hermesWithModel(running, { turns: [{ text: 'First reply.' }] }, { cols: 60, rows: 24 });
    hermes.type('hello');
    hermes.press('enter');
    await hermes.waitForText('First reply.');
    hermes.type(`/title ${JOINED.repeat(3)}`);
    hermes.press('enter');
    await hermes.waitForText(/Title set to/);
    hermes.type('/new');
    hermes.press('enter');
    await hermes.waitForText('Started a new session.');
    hermes.type('\x18');
    const picker = await hermes.waitForText(/1 of 1/);
    expect(picker).toMatch(/^❯ just now +2 msg +👩/m);
    expect(await hermes.overflowRows()).toEqual([]);
  });
});

describe('CJK cut at the right edge', () => {
  // Ink cuts a `truncate-end` row with cli-truncate, whose cut keeps a wide character that straddles the
  // edge: the row is one column too wide, the terminal wraps it, and the live area leaves a stray row.
  const CJK = '你想要哪种颜色的主题呢这是一个很长的问题需要换行显示在窄终端上面测试一下宽字符的处理';

  it('a tool line, a clarify choice and the status line stay within 60 columns wherever the cut falls', async () => {
    const { hermes } = await hermesWithModel(
      running,
      {
        turns: [
          { tool_calls: [{ name: 'clarify', arguments: { question: CJK, choices: [CJK, `x${CJK}`] } }] },
          { text: 'Noted.' },
        ],
      },
      { cols: 60, rows: 24 },
    );
    hermes.type('ask me');
    hermes.press('enter');
    await hermes.waitForText(/Type an answer/);
    expect(await hermes.overflowRows()).toEqual([]);
    hermes.press('enter');
    await hermes.waitForText('Noted.');
    for (const model of [`${CJK}`, `m${CJK}`]) {
      hermes.type(`/model ${model}`);
      hermes.press('enter');
      await hermes.waitForText(new RegExp(`Model set to custom:${model.slice(0, 3)}`));
    }
    expect(await hermes.overflowRows()).toEqual([]);
  });
});

describe('a terminal made narrower', () => {
  it('narrowing the terminal under a card redraws it once, with no piece of the wider one left', async () => {
    const { hermes } = await hermesWithModel(
      running,
      {
        turns: [
          { text: 'An earlier answer that is long enough to be wrapped differently at sixty columns than at a hundred and twenty.' },
          { tool_calls: [{ name: 'clarify', arguments: { question: 'Which colour for the new theme of the application, and why? 你想要哪种颜色', choices: ['blue', 'green'] } }] },
          { text: 'Noted.' },
        ],
      },
      { cols: 120, rows: 40 },
    );
    hermes.type('first');
    hermes.press('enter');
    await hermes.waitForText('An earlier answer');
    await hermes.waitForText(/● ready/);
    hermes.type('ask me');
    hermes.press('enter');
    await hermes.waitForText(/Type an answer/);
    hermes.resize(60, 20);
    const screen = await hermes.waitForText(/^╭─{58}╮$/m);
    expect(screen.match(/^╭/gm)).toHaveLength(1);
    expect(screen.match(/^╰/gm)).toHaveLength(1);
    // The transcript above is printed again at the new width once the resize events pause (useTerminalSize).
    await expect.poll(() => hermes.overflowRows(), { timeout: 10_000 }).toEqual([]);
    hermes.press('enter');
    const after = await hermes.waitForText('Noted.');
    expect(after).not.toMatch(/[╭╰│]/);
    // The transcript above was printed again at the new width: the earlier answer is still there, once.
    expect(hermes.bufferText().match(/An earlier answer/g)).toHaveLength(1);
  });
});
