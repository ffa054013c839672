import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AWAIT_GO, loadExeca, spawnShell } from './shellProcess.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

/** Runs `script` in `shell` with stdin a pipe; `go` is what hermes writes before ending stdin. */
function gated(shell: string, script: string, go: string): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(shell, ['-c', `${AWAIT_GO}${script}`], { stdio: ['pipe', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stdin.end(go);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout })));
}

const SHELLS = ['/bin/bash', '/bin/sh'].filter((shell) => fs.existsSync(shell));

describe('the go every command waits for (AWAIT_GO)', () => {
  it.each(SHELLS)('%s: without the go (hermes died before the group was registered) the command never runs', async (shell) => {
    expect(await gated(shell, 'echo ran', '')).toEqual({ code: 1, stdout: '' });
  });

  it.each(SHELLS)('%s: after the go the command runs with /dev/null as its stdin (EOF, no hang; /dev/stdin opens)', async (shell) => {
    expect(await gated(shell, 'cat; cat /dev/stdin && echo ran', '\n')).toEqual({ code: 0, stdout: 'ran\n' });
  });

  it('spawnShell releases what it starts: the command runs, reads EOF, and keeps its exit code', async () => {
    await loadExeca();
    const child = spawnShell('cat /dev/stdin; echo "ran in $PWD"; exit 3', tempDir('hermes-shell-'));
    let output = '';
    child.all.on('data', (chunk: string) => (output += chunk));
    const result = await child;
    expect(output).toMatch(/^ran in .*hermes-shell-/);
    expect(result.exitCode).toBe(3);
  });
});
