/**
 * `/details tools expanded` in the real `hermes` bundle in a pseudo-terminal, with the real backend and
 * tools and the scripted model: a tool that ran afterwards shows its output under its row, where the
 * default (collapsed) shows only the first line's summary.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';
import { hermesWithModel, stopAll, type Running } from '../testing/realBackend.ts';

const running: Running = { hermes: [], servers: [] };

afterEach(async () => {
  await stopAll(running);
});

const command = "printf 'out-line-1\\nout-line-2\\nout-line-3\\n'";

describe('/details', () => {
  it('tools expanded shows a finished tool\'s output under its row', async () => {
    const home = tempDir('hermes-details-home-');
    const { hermes } = await hermesWithModel(
      running,
      { turns: [{ tool_calls: [{ name: 'terminal', arguments: { command } }] }, { text: 'Listed.' }] },
      { home },
    );
    await hermes.waitForText('● ready');
    hermes.type('/details tools expanded');
    await hermes.waitForText('❯ /details tools expanded');
    hermes.press('enter');
    await hermes.waitForText('details: thinking collapsed · tools expanded');
    hermes.type('print three lines');
    await hermes.waitForText('❯ print three lines');
    hermes.press('enter');
    const screen = await hermes.waitForText('Listed.');
    const rows = screen.split('\n');
    const row = rows.findIndex((line) => /^\s*✓ terminal printf/.test(line));
    expect(row).toBeGreaterThanOrEqual(0);
    // The output follows the row, indented under it.
    expect(rows.slice(row + 1, row + 4).map((line) => line.trim())).toEqual(['out-line-1', 'out-line-2', 'out-line-3']);
    hermes.press('ctrl-d');
    expect((await hermes.exited).exitCode).toBe(0);
  });
});
