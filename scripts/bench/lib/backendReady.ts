/**
 * The backend alone: `hermes-rpc` (as built, plain node) spawned over real pipes, timed from spawn to its
 * `gateway.ready` event on stdout. The process is killed once the event is read.
 */
import { spawn } from 'node:child_process';
import { HERMES_RPC_BIN } from './figures.ts';

export interface BackendRun {
  /** HERMES_HOME of the run. */
  home: string;
  args?: string[];
  env?: Record<string, string>;
  timeoutMs?: number;
}

/** Milliseconds from spawn to the `gateway.ready` event. */
export function gatewayReadyMs({ home, args = [], env = {}, timeoutMs = 30_000 }: BackendRun): Promise<number> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, HERMES_HOME: home, ...env };
  // Checking every result against its schema is for tests, not for the figures.
  delete childEnv.HERMES_CHECK_RESULTS;
  const started = performance.now();
  const child = spawn(process.execPath, [HERMES_RPC_BIN, ...args], { env: childEnv, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise<number>((resolve, reject) => {
    let buffered = '';
    const finish = (result: { ms: number } | { error: Error }) => {
      clearTimeout(timer);
      child.stdout.removeAllListeners('data');
      child.removeAllListeners('exit');
      child.once('exit', () => ('ms' in result ? resolve(result.ms) : reject(result.error)));
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => finish({ error: new Error(`hermes-rpc sent no gateway.ready within ${timeoutMs} ms; stderr:\n${stderr}`) }), timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      const at = performance.now() - started;
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      if (lines.some((line) => line.includes('"gateway.ready"'))) finish({ ms: at });
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`hermes-rpc exited (${code}) before gateway.ready; stderr:\n${stderr}`));
    });
  });
}
