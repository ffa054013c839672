/**
 * Stopping the composer's `!cmd` over the wire: `shell.cancel` and `/stop` against the real backend, a
 * real `sleep 30` in its own process group. The stopped `shell.exec` is answered at once, says it was
 * stopped, and nothing of the command is left running.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startModelServer } from '../../../../scripts/model-server/index.ts';
import { isAlive } from '../../../agent-core/src/processes/processTestUtil.ts';
import { BackendProcess } from '../testing/backendProcess.ts';
import { startSleepingShell } from '../testing/sleepingShell.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** A session running `!…sleep 30` (shell.exec); resolves once the command runs, with its group and child pids. */
async function runningShell() {
  const server = await startModelServer({ turns: [{ text: 'unused' }] });
  cleanups.push(() => server.close());
  const backend = new BackendProcess({ args: ['--provider', 'custom', '--base-url', server.baseUrl, '--model', 'scripted-model'] });
  cleanups.push(() => backend.stop());
  const cwd = tempDir('hermes-shell-cancel-');
  const { session_id: sid } = await backend.request('session.create', { cwd });
  let answered = false;
  const { answer, group, child, kill } = await startSleepingShell(backend, sid, cwd, 'echo started; ');
  cleanups.push(kill);
  void answer.finally(() => (answered = true)).catch(() => undefined);
  expect(isAlive(child)).toBe(true);
  return { backend, sid, answer, group, child, answered: () => answered };
}

const STOPPED = { stdout: 'started', stderr: '[stopped: interrupted by the user]', code: 1 };

describe('stopping a !cmd', () => {
  it('shell.cancel stops a running !sleep 30: shell.exec answers first, stopped, and its process group is gone', { timeout: 60_000 }, async () => {
    const { backend, sid, answer, group, child, answered } = await runningShell();
    const cancelled = await backend.request('shell.cancel', { session_id: sid });
    // shell.cancel answers only once the stopped command has answered.
    expect(answered()).toBe(true);
    expect(cancelled).toEqual({ stopped: 1 });
    expect(await answer).toEqual(STOPPED);
    await vi.waitFor(() => expect(!isAlive(-group) && !isAlive(child)).toBe(true), { timeout: 5_000, interval: 50 });
    // Nothing left to stop, and the session runs the next command.
    expect(await backend.request('shell.cancel', { session_id: sid })).toEqual({ stopped: 0 });
    expect(await backend.request('shell.exec', { session_id: sid, command: 'echo again' })).toEqual({ stdout: 'again', stderr: '', code: 0 });
  });

  it('/stop during a !cmd stops it and says so', { timeout: 60_000 }, async () => {
    const { backend, sid, answer, group, child, answered } = await runningShell();
    const stop = await backend.request('slash.exec', { session_id: sid, command: '/stop' });
    expect(answered()).toBe(true);
    expect(stop).toEqual({ output: 'Stopped the running !cmd; no turn was running; no background processes to stop.' });
    expect(await answer).toEqual(STOPPED);
    await vi.waitFor(() => expect(!isAlive(-group) && !isAlive(child)).toBe(true), { timeout: 5_000, interval: 50 });
    expect(await backend.request('slash.exec', { session_id: sid, command: '/stop' })).toEqual({ output: 'Nothing to stop: no turn running, no background processes.' });
  });

  it('shell.cancel of a session that is not open says so', async () => {
    const server = await startModelServer({ turns: [{ text: 'unused' }] });
    cleanups.push(() => server.close());
    const backend = new BackendProcess({ args: ['--provider', 'custom', '--base-url', server.baseUrl, '--model', 'scripted-model'] });
    cleanups.push(() => backend.stop());
    await expect(backend.request('shell.cancel', { session_id: 'no-such-session' })).rejects.toMatchObject({ code: 4001 });
  });
});
