/**
 * Stopping a `!cmd` in the real TUI: the real bundle and backend in a pseudo-terminal, a real
 * `sleep 30`. Ctrl+C stops the command (not hermes), its row says it was stopped, and hermes goes on.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { childPids } from '../testing/processes.ts';
import { submit, type HermesPty } from '../testing/ptyHarness.ts';
import { backendPids, hermesWithModel, stopAll, type Running } from '../testing/realBackend.ts';

const running: Running = { hermes: [], servers: [] };
afterEach(() => stopAll(running));

/** Live (not zombie) `sleep` processes whose parent is `parent`: the `!sleep 30` the backend started. */
function sleepsOf(parent: number): number[] {
  return childPids(parent).filter((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.includes('(sleep)') && stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] !== 'Z';
    } catch {
      return false; // gone between the listing and the read
    }
  });
}

/** hermes running `!sleep 30`, once the sleep runs; `backend` is the backend's pid (the sleep's parent). */
async function sleeping(): Promise<{ hermes: HermesPty; backend: number }> {
  const { hermes } = await hermesWithModel(running, { turns: [{ text: 'unused' }] });
  await submit(hermes, '!sleep 30');
  await hermes.waitForText('running !sleep 30…');
  const [backend] = backendPids(hermes.hermesHome);
  await vi.waitFor(() => expect(sleepsOf(backend!)).toHaveLength(1), { timeout: 15_000, interval: 50 });
  return { hermes, backend: backend! };
}

describe('stopping a !cmd in the TUI', () => {
  it('Ctrl+C stops !sleep 30: the row says stopped, the status line clears, and hermes stays usable', { timeout: 60_000 }, async () => {
    const { hermes, backend } = await sleeping();

    hermes.press('ctrl-c');
    const screen = await hermes.waitForText('⊘ stopped: interrupted by the user · exit 1');
    // Ctrl+C went to the command, not towards leaving hermes.
    expect(screen).not.toMatch(/Press Ctrl\+C again to exit/);
    expect(screen).not.toContain('[stopped:');
    const idle = await hermes.waitForText('● ready');
    expect(idle).not.toMatch(/running !sleep 30|still running|interrupting/);
    expect(sleepsOf(backend)).toEqual([]);

    await submit(hermes, '!echo after the stop');
    await hermes.waitForText(/^ {2}after the stop$/m);
    await hermes.waitForText('● ready');
    // Still the same hermes and backend: nothing exited or restarted.
    expect(backendPids(hermes.hermesHome)).toEqual([backend]);
    expect(hermes.bufferText()).not.toMatch(/backend restarted|Press Ctrl\+C again/);
  });

  it('/stop typed while !sleep 30 runs stops it too', { timeout: 60_000 }, async () => {
    const { hermes, backend } = await sleeping();
    await submit(hermes, '/stop');
    await hermes.waitForText('⊘ stopped: interrupted by the user · exit 1');
    await hermes.waitForText('Stopped the running !cmd; no turn was running');
    await hermes.waitForText('● ready');
    expect(sleepsOf(backend)).toEqual([]);
  });
});
