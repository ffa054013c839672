/**
 * The plugin watchdog in a real process whose thread a plugin's hook blocks: the running callbacks
 * are read from shared memory, and, past its slots, from messages (the backend's e2e tests cover the
 * shared slots with a real hermes-rpc: pluginContainment.e2e.test.ts). The script takes the plugin
 * host and agent-core as built (their dist), like the backend.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'testing', 'watchdogOverflow.ts');

describe('the plugin watchdog', () => {
  it('names a blocking callback that found no free slot, beside the one holding the slot', async () => {
    const run = await execa(process.execPath, ['--import', 'tsx', script, tempDir('hermes-watchdog-')], { reject: false, stdin: 'ignore', timeout: 30_000 });
    expect(run.stderr).toContain('blocking');
    expect(run.signal).toBe('SIGKILL');
    expect(run.stderr).toMatch(/hermes-rpc: .*plugin spins \(post_tool_call hook\).* blocked hermes for more than 5 s/);
    expect(run.stderr).toMatch(/hermes-rpc: .*plugin waits \(pre_tool_call hook\).* blocked hermes for more than 5 s/);
  }, 40_000);
});
