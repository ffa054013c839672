/** reload: unchanged servers keep their connection, changed ones restart, removed ones (even mid-connect) end at once. */
import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { onCleanup } from '../../../../scripts/testing/tempDirs.ts';
import { isAlive } from '../processes/processTestUtil.ts';
import { testContext } from '../tools/toolTestContext.ts';
import { startedManager, stdioServerConfig } from './testServerConfigs.ts';

/** Live processes whose command line holds `marker` (the test server ignores arguments after its mode). */
function pidsWith(marker: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker) && isAlive(Number(pid));
      } catch {
        return false;
      }
    })
    .map(Number);
}

const serverPid = async (run: (name: string) => Promise<{ result: string }>, name: string) => (JSON.parse((await run(name)).result) as { pid: number }).pid;

describe('McpManager.reload', () => {
  it('a server removed while still connecting loses its process at once, not at its connect_timeout', async () => {
    const marker = `reload-mark-${randomUUID()}`;
    const mute = stdioServerConfig('mute', '--never-initialize', { connectTimeoutS: 60 });
    const { manager } = startedManager([{ ...mute, args: [...mute.args, marker] }]);
    onCleanup(() => {
      for (const pid of pidsWith(marker)) process.kill(pid, 'SIGKILL');
    });
    await vi.waitFor(() => expect(pidsWith(marker)).toHaveLength(1), { timeout: 15_000, interval: 50 });
    const statuses = await manager.reload([]);
    expect(statuses).toEqual([]);
    await vi.waitFor(() => expect(pidsWith(marker)).toEqual([]), { timeout: 8_000, interval: 50 });
  });

  it('keeps an unchanged server connected (same process, same tools), restarts a changed one, starts a new one', async () => {
    const same = stdioServerConfig('same');
    const edited = stdioServerConfig('edited');
    const { manager, registry } = startedManager([same, edited]);
    await manager.whenDiscovered();
    const run = (name: string, args: object = {}) => registry.run(name, JSON.stringify(args), testContext());
    const samePid = await serverPid(run, 'mcp_same_pids');
    const editedPid = await serverPid(run, 'mcp_edited_pids');
    // State that lives only in the running server: a tool added at run time.
    expect((await run('mcp_same_add_tool', { name: 'fresh' })).result).toBe('added fresh');
    await vi.waitFor(() => expect(registry.get('mcp_same_fresh')).toBeDefined(), { timeout: 10_000, interval: 50 });

    const statuses = await manager.reload([{ ...same }, { ...edited, timeoutS: 30 }, stdioServerConfig('added')]);
    expect(statuses.map((s) => [s.name, s.status])).toEqual([['same', 'connected'], ['edited', 'connected'], ['added', 'connected']]);
    expect(await serverPid(run, 'mcp_same_pids')).toBe(samePid);
    expect(registry.get('mcp_same_fresh')).toBeDefined();
    expect(await serverPid(run, 'mcp_edited_pids')).not.toBe(editedPid);
    await vi.waitFor(() => expect(isAlive(editedPid)).toBe(false), { timeout: 10_000, interval: 50 });
    expect(registry.get('mcp_added_echo')).toBeDefined();
  });

  it('restarts an unchanged server that is failed (a reload is how a user says "try now")', async () => {
    const broken = stdioServerConfig('broken', '--fail-at-start');
    const { manager, logger } = startedManager([broken], { retry: { firstMs: 60_000, maxMs: 60_000 } });
    await manager.whenDiscovered();
    expect(manager.statuses()[0]!.status).toBe('failed');
    const before = logger.lines.filter((line) => line.includes('exited with code 3')).length;
    await manager.reload([{ ...broken }]);
    expect(manager.statuses()[0]!.status).toBe('failed');
    // A fresh entry: its failure is reported again.
    expect(logger.lines.filter((line) => line.includes('exited with code 3')).length).toBe(before + 1);
  });
});
