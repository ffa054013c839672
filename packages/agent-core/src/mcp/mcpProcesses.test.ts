/** stdio servers are child processes that die with their owner: on close, and when the owner is SIGKILLed. */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { onCleanup } from '../../../../scripts/testing/tempDirs.ts';
import { isAlive } from '../processes/processTestUtil.ts';
import { testContext } from '../tools/toolTestContext.ts';
import { startedManager, stdioServerConfig } from './testServerConfigs.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const TSX = createRequire(import.meta.url).resolve('tsx');

const killLeft = (pids: number[]) =>
  onCleanup(() => {
    for (const pid of pids) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  });

describe('stdio MCP server processes', () => {
  it('close() ends the server and what it started', async () => {
    const { manager, registry } = startedManager([stdioServerConfig('owned', '--spawn-grandchild')]);
    await manager.whenDiscovered();
    const { pid, grandchild } = JSON.parse((await registry.run('mcp_owned_pids', '{}', testContext())).result) as { pid: number; grandchild: number };
    killLeft([pid, grandchild]);
    expect(isAlive(pid) && isAlive(grandchild)).toBe(true);
    await manager.close();
    await vi.waitFor(() => expect([isAlive(pid), isAlive(grandchild)]).toEqual([false, false]), { timeout: 10_000, interval: 50 });
    expect(registry.get('mcp_owned_echo')).toBeUndefined();
  });

  it('a SIGKILLed owner takes the server and its children with it (the group watchdog)', async () => {
    const owner = spawn(process.execPath, ['--conditions=source', '--import', TSX, path.join(here, 'mcpOwner.fixture.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
    onCleanup(() => void owner.kill('SIGKILL'));
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      owner.stdout.setEncoding('utf8').on('data', (text: string) => {
        out += text;
        if (out.includes('\n')) resolve(out.split('\n')[0]!);
      });
      owner.once('exit', (code) => reject(new Error(`the owner exited (${code}) before printing the pids`)));
    });
    const { pid, grandchild } = JSON.parse(line) as { pid: number; grandchild: number };
    killLeft([pid, grandchild]);
    expect(isAlive(pid) && isAlive(grandchild)).toBe(true);
    owner.kill('SIGKILL');
    await vi.waitFor(() => expect([isAlive(pid), isAlive(grandchild)]).toEqual([false, false]), { timeout: 15_000, interval: 100 });
  });
});
