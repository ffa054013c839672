import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { EVENT_METHOD, type HermesEvent, type Method, type ParamsOf, type ResultOf } from '../protocol/index.ts';
import { createNdjsonConnection } from '../transport/index.ts';
import { onCleanup, tempDir } from '../../../../scripts/testing/tempDirs.ts';

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The shipped backend command (the bundle built by scripts/build.mjs). */
export const BACKEND_BIN = path.join(packageRoot, 'bin', 'hermes-rpc.cjs');

export interface BackendProcessOptions {
  args?: string[];
  env?: Record<string, string>;
  /** Extra node flags, e.g. `--import` of a module. */
  nodeArgs?: string[];
  /** An existing HERMES_HOME; by default a fresh temp dir, removed when the test is done. */
  home?: string;
  config?: string;
  /** The backend's working directory (project plugins are found from it). */
  cwd?: string;
}

/**
 * The real backend as a child process over real pipes, with a vscode-jsonrpc client on the other
 * end. Every raw stdout line is kept too, so tests can check the wire itself.
 */
export class BackendProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly connection: MessageConnection;
  readonly home: string;
  readonly events: HermesEvent[] = [];
  readonly rawLines: string[] = [];
  stderr = '';
  private listeners: (() => void)[] = [];
  private partial = '';
  readonly exited: Promise<number | null>;

  constructor(options: BackendProcessOptions = {}) {
    this.home = options.home ?? tempDir('hermes-home-');
    if (options.config !== undefined) fs.writeFileSync(path.join(this.home, 'config.yaml'), options.config);
    // Check mode: every result and event the backend sends is checked against its schema (contractCheck.ts).
    const env: NodeJS.ProcessEnv = { ...process.env, HERMES_CHECK_RESULTS: '1', HERMES_HOME: this.home, ...options.env };
    delete env.OPENAI_API_KEY;
    delete env.OPENROUTER_API_KEY;
    Object.assign(env, options.env);
    this.child = spawn(process.execPath, [...(options.nodeArgs ?? []), BACKEND_BIN, ...(options.args ?? [])], {
      env,
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString('utf8');
    });
    this.child.stdout.on('data', (chunk: Buffer) => {
      const text = this.partial + chunk.toString('utf8');
      const lines = text.split('\n');
      this.partial = lines.pop() ?? '';
      this.rawLines.push(...lines.filter((l) => l !== ''));
    });
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
    this.connection = createNdjsonConnection(this.child.stdout, this.child.stdin).connection;
    this.connection.onNotification(EVENT_METHOD, (params: HermesEvent) => {
      this.events.push(params);
      for (const notify of this.listeners) notify();
    });
    this.connection.listen();
    // Registered after its home: a backend the test left running is stopped before the home goes.
    onCleanup(() => this.stop().then(() => undefined));
  }

  request<M extends Method>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>> {
    return this.connection.sendRequest(method, params) as Promise<ResultOf<M>>;
  }

  /** Writes bytes straight onto the backend's stdin, bypassing the client. */
  writeRaw(text: string): void {
    this.child.stdin.write(text);
  }

  /** Resolves with the first event (already received or still to come) that matches. */
  waitForEvent(match: (e: HermesEvent) => boolean, timeoutMs = 15_000): Promise<HermesEvent> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.events.find(match);
        if (!found) return false;
        this.listeners = this.listeners.filter((l) => l !== listener);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const listener = () => void check();
      const timer = setTimeout(() => {
        this.listeners = this.listeners.filter((l) => l !== listener);
        reject(new Error(`no matching event within ${timeoutMs} ms; got: ${this.events.map((e) => e.type).join(', ')}\nstderr: ${this.stderr}`));
      }, timeoutMs);
      if (!check()) this.listeners.push(listener);
    });
  }

  eventsOf(sessionId: string): HermesEvent[] {
    return this.events.filter((e) => e.session_id === sessionId);
  }

  /** What the backend wrote to $HERMES_HOME/logs/backend.log so far (throws while there is no log). */
  log(): string {
    return fs.readFileSync(path.join(this.home, 'logs', 'backend.log'), 'utf8');
  }

  /** Closes stdin (the backend then exits by itself) and waits for the exit. */
  async stop(): Promise<number | null> {
    this.connection.dispose();
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    const code = await this.exited;
    clearTimeout(timer);
    return code;
  }
}
