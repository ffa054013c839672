import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { isAlive } from './processTestUtil.ts';

describe('isAlive', () => {
  it('sees a live process group through its members, and none once the group is killed', async () => {
    const leader = spawn('sh', ['-c', 'sleep 30 & wait'], { detached: true, stdio: 'ignore' });
    const group = leader.pid!;
    try {
      expect(isAlive(group)).toBe(true);
      expect(isAlive(-group)).toBe(true);
    } finally {
      process.kill(-group, 'SIGKILL');
    }
    await once(leader, 'exit');
    await expect.poll(() => isAlive(-group), { timeout: 10_000, interval: 50 }).toBe(false);
    expect(isAlive(group)).toBe(false);
  });
});
