import { existsSync } from 'node:fs';
import { expect, it, vi } from 'vitest';
import { onCleanup, tempDir } from '../../../../scripts/testing/tempDirs.ts';
import { isAlive } from './processes.ts';
import { backendPids, hermesWithModel, type Running } from './realBackend.ts';

it('stops hermes and the backend it started before removing their home, even a backend that would not exit by itself', async () => {
  const home = tempDir('hermes-pty-home-');
  const running: Running = { hermes: [], servers: [] };
  let pids: number[] = [];
  // Runs after the harness's own cleanup (registered later, inside spawnHermes) and before the home goes.
  onCleanup(async () => {
    try {
      await vi.waitFor(() => expect(pids.filter(isAlive)).toEqual([]), { timeout: 10_000, interval: 50 });
      expect(existsSync(home)).toBe(true);
    } finally {
      for (const pid of pids.filter(isAlive)) process.kill(pid, 'SIGKILL');
      await Promise.all(running.servers.map((server) => server.close()));
    }
  });
  const { hermes } = await hermesWithModel(running, { loop: true, turns: [{ text: 'hi' }] }, { home });
  const [backend] = backendPids(home);
  // A stopped backend no longer exits when its stdin closes; only a kill reaches it.
  process.kill(backend, 'SIGSTOP');
  pids = [hermes.pid, backend];
});
