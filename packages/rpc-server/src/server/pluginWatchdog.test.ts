/**
 * The plugin watchdog in a real process whose thread a plugin blocks, with its shared regions made too
 * small, so that what it must know reaches it as messages instead: callbacks past the slots, names past
 * the names region, a load past the load region. (The backend's e2e tests cover the shared memory with
 * a real hermes-rpc: pluginContainment.e2e.test.ts, pluginFastPath.e2e.test.ts.) The script takes the
 * plugin host and agent-core as built (their dist), like the backend.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';
import type { WatchdogSizes } from './pluginWatchdog.ts';

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'testing', 'watchdogOverflow.ts');

const run = (home: string, scenario: 'hooks' | 'load' | 'moved', sizes: Partial<WatchdogSizes>) =>
  execa(process.execPath, ['--import', 'tsx', script, home, scenario, JSON.stringify(sizes)], { reject: false, stdin: 'ignore', timeout: 30_000 });

describe('the plugin watchdog', () => {
  it.each([
    ['a blocking callback that found no free slot, beside the one holding the slot', { callSlots: 1 }],
    ['blocking callbacks whose names did not fit the shared names', { nameBytes: 8 }],
  ])('names %s', async (_, sizes) => {
    const home = tempDir('hermes-watchdog-');
    const stopped = await run(home, 'hooks', sizes);
    expect(stopped.stderr).toContain('blocking');
    expect(stopped.signal).toBe('SIGKILL');
    expect(stopped.stderr).toMatch(/hermes-rpc: .*plugin spins \(post_tool_call hook\).* blocked hermes for more than 5 s/);
    expect(stopped.stderr).toMatch(/hermes-rpc: .*plugin waits \(pre_tool_call hook\).* blocked hermes for more than 5 s/);
    // The entry file, which came with the name, is recorded: the next start skips the plugin until it changes.
    const records = JSON.parse(fs.readFileSync(path.join(home, 'plugins', '.last-load.json'), 'utf8')) as { plugins: Record<string, { blocked?: { entry: string } }> };
    expect(records.plugins.spins?.blocked?.entry).toBe(path.join(home, 'plugins', 'spins', 'index.mjs'));
  }, 40_000);

  it('records a blocking hook with the entry its plugin was last loaded from, after a reload from another directory', async () => {
    const home = tempDir('hermes-watchdog-');
    const stopped = await run(home, 'moved', {});
    expect(stopped.signal).toBe('SIGKILL');
    expect(stopped.stderr).toMatch(/hermes-rpc: plugin spins \(post_tool_call hook\) blocked hermes/);
    const records = JSON.parse(fs.readFileSync(path.join(home, 'plugins', '.last-load.json'), 'utf8')) as { plugins: Record<string, { blocked?: { entry: string } }> };
    expect(records.plugins.spins?.blocked?.entry).toBe(path.join(home, 'plugins', 'spins-v2', 'index.mjs'));
  }, 40_000);

  it.each([
    ['in shared memory', {}],
    ['as a message, past the load region', { loadBytes: 8 }],
  ])('stops a register() that blocks the thread, told the load %s', async (_, sizes) => {
    const home = tempDir('hermes-watchdog-');
    const stopped = await run(home, 'load', sizes);
    expect(stopped.stderr).toContain('loading');
    expect(stopped.stderr).not.toContain('blocking');
    expect(stopped.signal).toBe('SIGKILL');
    expect(stopped.stderr).toMatch(/plugin stuck: its import or register\(\) blocked hermes for more than 0.5 s \(plugins.register_timeout\)/);
    const records = JSON.parse(fs.readFileSync(path.join(home, 'plugins', '.last-load.json'), 'utf8')) as { plugins: Record<string, { blocked?: { entry: string } }> };
    expect(records.plugins.stuck?.blocked?.entry).toBe(path.join(home, 'plugins', 'stuck', 'index.mjs'));
  }, 40_000);
});
