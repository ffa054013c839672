/**
 * The product's backend (HERMES_RPC_BIN under plain node) over real pipes, spoken to in raw NDJSON
 * JSON-RPC, so a benchmark times requests through the public wire without the product's own client code.
 * Also the backend-alone start figure: spawn to `gateway.ready` (`gatewayReadyMs`).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { HERMES_RPC_BIN } from './figures.ts';

export interface RpcBackend {
  readonly pid: number;
  /** Milliseconds from spawn to the chunk that brought `gateway.ready`. */
  readonly readyMs: number;
  /** One request; resolves with its result, rejects with the error the backend sent. */
  request(method: string, params: object): Promise<unknown>;
  stop(): Promise<void>;
  /** SIGKILL, for a figure that ends at once. */
  kill(): Promise<void>;
}

/** Starts the backend with `env` added (and `args`) and resolves once it sent `gateway.ready`. */
export function startBackend(env: Record<string, string>, { args = [], timeoutMs = 30_000 }: { args?: string[]; timeoutMs?: number } = {}): Promise<RpcBackend> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  // Checking every result against its schema is for tests, not for the figures.
  delete childEnv.HERMES_CHECK_RESULTS;
  const started = performance.now();
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [HERMES_RPC_BIN, ...args], { env: childEnv, stdio: ['pipe', 'pipe', 'pipe'] });
  let readyMs = -1;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let next = 1;
  let stderr = '';
  let partial = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolveReady, rejectReady) => {
    const timer = setTimeout(() => rejectReady(new Error(`hermes-rpc sent no gateway.ready within ${timeoutMs} ms; stderr:\n${stderr}`)), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      const error = new Error(`hermes-rpc exited (${code}); stderr:\n${stderr}`);
      rejectReady(error);
      for (const waiter of pending.values()) waiter.reject(error);
    });
    child.stdout.on('data', (chunk: Buffer) => {
      const at = performance.now() - started;
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.trim()) continue;
        const frame = JSON.parse(line) as { id?: number; result?: unknown; error?: { message: string }; params?: { type?: string } };
        if (frame.params?.type === 'gateway.ready') {
          readyMs = at;
          clearTimeout(timer);
          resolveReady(backend);
        }
        const waiter = frame.id === undefined ? undefined : pending.get(frame.id);
        if (!waiter) continue;
        pending.delete(frame.id!);
        if (frame.error) waiter.reject(new Error(frame.error.message));
        else waiter.resolve(frame.result);
      }
    });
    const backend: RpcBackend = {
      pid: child.pid!,
      get readyMs() {
        return readyMs;
      },
      request(method, params) {
        const id = next++;
        return new Promise((resolve, reject) => {
          pending.set(id, { resolve, reject });
          child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
        });
      },
      async stop() {
        if (child.exitCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.stdin.end();
        const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(kill);
      },
      async kill() {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      },
    };
  });
}

/**
 * Milliseconds from spawning the backend (HERMES_HOME `home`, `args`) to its `gateway.ready`; then it is
 * killed, or with `quit` stopped as a client stops it. Warm-ups quit: a build's first start writes its
 * code cache at exit (scripts/bundling/codeCache/runCached.ts), which a killed one never reaches.
 */
export async function gatewayReadyMs({ home, args = [], timeoutMs = 30_000, quit = false }: { home: string; args?: string[]; timeoutMs?: number; quit?: boolean }): Promise<number> {
  const backend = await startBackend({ HERMES_HOME: home }, { args, timeoutMs });
  await (quit ? backend.stop() : backend.kill());
  return backend.readyMs;
}
