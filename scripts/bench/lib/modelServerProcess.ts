/**
 * The scripted model server in a process of its own (scripts/model-server/cli.ts, run from this
 * checkout's source), as a model is to hermes: across a socket, on its own event loop.
 *
 * Why not `startModelServer` in the harness's process: there the server shares one event loop with the
 * pty's terminal emulator, so while the harness parses what the TUI wrote, no SSE event leaves, and the
 * TUI's output throttles the model itself. The backend-alone floor has no emulator to stall it, so that
 * coupling counted against the TUI alone.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Script } from '../../model-server/index.ts';
import { tempDir } from '../../testing/tempDirs.ts';

const CLI = fileURLToPath(new URL('../../model-server/cli.ts', import.meta.url));

export interface ModelServerProcess {
  /** `http://127.0.0.1:PORT/v1`, what `--base-url` takes. */
  baseUrl: string;
  pid: number;
  close(): Promise<void>;
}

export async function startModelServerProcess(script: Script, timeoutMs = 30_000): Promise<ModelServerProcess> {
  const file = `${tempDir('hermes-bench-model-')}/script.json`;
  writeFileSync(file, JSON.stringify(script));
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--script', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the model server did not listen within ${timeoutMs} ms; stderr:\n${stderr}`)), timeoutMs);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const listening = /^listening (\S+)\n/.exec(out);
      if (!listening) return;
      clearTimeout(timer);
      resolve(listening[1]);
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`the model server exited before listening; stderr:\n${stderr}`));
    });
  });
  return {
    baseUrl,
    pid: child.pid!,
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
