/**
 * Tool output details in the real `hermes` bundle in a pseudo-terminal, with the real backend and tools
 * and the scripted model: after `/details tools expanded` a tool's output is under its row, and Ctrl+O
 * prints the newest tool's output, where the default (collapsed) shows only the first line's summary.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';
import { submit, type HermesPty } from '../testing/ptyHarness.ts';
import { hermesWithModel, stopAll, type Running } from '../testing/realBackend.ts';

const running: Running = { hermes: [], servers: [] };

afterEach(async () => {
  await stopAll(running);
});

const command = "printf 'out-line-1\\nout-line-2\\nout-line-3\\n'";

/** hermes, ready, with a model that runs `command` and then answers "Listed.". */
async function hermesRunningPrintf(): Promise<HermesPty> {
  const { hermes } = await hermesWithModel(
    running,
    { turns: [{ tool_calls: [{ name: 'terminal', arguments: { command } }] }, { text: 'Listed.' }] },
    { home: tempDir('hermes-details-home-') },
  );
  await hermes.waitForText('● ready');
  return hermes;
}

/** Types `text`, waits for the echo, presses Enter. */
/** The three rows after the first row matching `title`, trimmed. */
const rowsAfter = (screen: string, title: RegExp) => {
  const rows = screen.split('\n');
  const at = rows.findIndex((line) => title.test(line));
  expect(at).toBeGreaterThanOrEqual(0);
  return rows.slice(at + 1, at + 4).map((line) => line.trim());
};

describe('tool output details', () => {
  it("/details tools expanded shows a finished tool's output under its row", async () => {
    const hermes = await hermesRunningPrintf();
    await submit(hermes, '/details tools expanded');
    await hermes.waitForText('details: thinking collapsed · tools expanded');
    await submit(hermes, 'print three lines');
    const screen = await hermes.waitForText('Listed.');
    expect(rowsAfter(screen, /^\s*✓ terminal printf/)).toEqual(['out-line-1', 'out-line-2', 'out-line-3']);
    hermes.press('ctrl-d');
    expect((await hermes.exited).exitCode).toBe(0);
  });

  it("Ctrl+O prints the newest tool's output under the transcript", async () => {
    const hermes = await hermesRunningPrintf();
    await submit(hermes, 'print three lines');
    const collapsed = await hermes.waitForText('Listed.');
    // Collapsed: the row with its summary, no output line of its own.
    expect(collapsed.split('\n').map((line) => line.trim())).not.toContain('out-line-3');
    await hermes.waitForText('● ready');
    // Ctrl+O: the harness names no such key, so its byte is sent as typed.
    hermes.type('\x0f');
    const screen = await hermes.waitForText('output of terminal');
    expect(rowsAfter(screen, /output of terminal printf/)).toEqual(['out-line-1', 'out-line-2', 'out-line-3']);
    hermes.press('ctrl-d');
    expect((await hermes.exited).exitCode).toBe(0);
  });
});
