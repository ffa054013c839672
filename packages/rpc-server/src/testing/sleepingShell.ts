/** A `!cmd` (shell.exec) that sleeps 30 s in its own process group, for tests that stop it. */
import fs from 'node:fs';
import path from 'node:path';
import { expect, vi } from 'vitest';
import { isAlive } from '../../../agent-core/src/processes/processTestUtil.ts';
import type { BackendProcess } from './backendProcess.ts';

/**
 * Starts `<before>sleep 30` through shell.exec in session `sid` (pids written to a file in `cwd`);
 * resolves once it runs, with the pending answer, the shell's group and the sleep's pid, and `kill`
 * (for the test's cleanup: SIGKILL to whatever of the group is left).
 */
export async function startSleepingShell(backend: BackendProcess, sid: string, cwd: string, before = '') {
  const pidFile = path.join(cwd, 'pids');
  const answer = backend.request('shell.exec', { session_id: sid, command: `${before}sleep 30 & echo "$$ $!" > ${pidFile}; wait` });
  // Polled tightly: the kill -9 test kills as soon as the command runs, where a late registration with
  // the watchdog would show (it did, before commands waited for their go: shellProcess.ts AWAIT_GO).
  const [group, child] = await vi.waitFor(() => {
    const pids = fs.readFileSync(pidFile, 'utf8').trim().split(' ').map(Number);
    expect(pids).toHaveLength(2);
    return pids as [number, number];
  }, { timeout: 15_000, interval: 2 });
  const kill = () => {
    if (isAlive(-group)) process.kill(-group, 'SIGKILL');
  };
  return { answer, group, child, kill };
}
