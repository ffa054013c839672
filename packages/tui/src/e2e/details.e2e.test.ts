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

  it("Ctrl+O prints the newest tool's output under the transcript", async () => {
    const home = tempDir('hermes-details-home-');
    const { hermes } = await hermesWithModel(
      running,
      { turns: [{ tool_calls: [{ name: 'terminal', arguments: { command } }] }, { text: 'Listed.' }] },
      { home },
    );
    await hermes.waitForText('● ready');
    hermes.type('print three lines');
    await hermes.waitForText('❯ print three lines');
    hermes.press('enter');
    const collapsed = await hermes.waitForText('Listed.');
    // Collapsed: the row with its summary, no output line of its own.
    expect(collapsed.split('\n').map((line) => line.trim())).not.toContain('out-line-3');
    await hermes.waitForText('● ready');
    // Ctrl+O: the harness names no such key, so its byte is sent as typed.
    hermes.type('\x0f');
    const screen = await hermes.waitForText('output of terminal');
    const rows = screen.split('\n');
    const title = rows.findIndex((line) => line.includes('output of terminal printf'));
    expect(rows.slice(title + 1, title + 4).map((line) => line.trim())).toEqual(['out-line-1', 'out-line-2', 'out-line-3']);
    hermes.press('ctrl-d');
    expect((await hermes.exited).exitCode).toBe(0);
  });
});
