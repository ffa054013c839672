/**
 * The backend child process (backendSpawn.ts), its stdio wired to a HermesClient, its stderr kept in a
 * ring buffer (never on screen), its exit reported instead of leaving the TUI hanging. Not execa: it
 * was on the start path before the backend was spawned, and its 245 kB cost ~20 ms of CPU there
 * (scripts/bench/startup.ts) for the few things backendSpawn.ts and terminate() do by hand.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { ErrorCode, HERMES_VERSION, HermesError, PROTOCOL_VERSION, protocolMismatch, type GatewayReadyPayload } from '@hermes/rpc-server/protocol';
import type { Logger } from '../logging/logger.ts';
import type { ProcessCommand } from './backendCommand.ts';
import { spawnBackend, type SpawnedBackend } from './backendSpawn.ts';
import { HermesClient } from './hermesClient.ts';
import { StderrRing } from './stderrRing.ts';

export const READY_TIMEOUT_MS = 15_000;

/** A backend asked to stop by a signal is killed this long after if it is still there. */
const FORCE_KILL_AFTER_MS = 1_000;

export interface BackendExit {
  code: number | null;
  signal: string | null;
  stderrTail: string[];
  /** Set when the process could not be started at all (e.g. node missing). */
  spawnError?: string;
}

/** The backend did not come up (so no agent: 5032): the message says why, the tail shows what it printed. */
export class BackendStartError extends HermesError {
  override name = 'BackendStartError';
  constructor(
    message: string,
    readonly stderrTail: string[],
  ) {
    super(ErrorCode.AgentUnavailable, message);
  }
}

/**
 * An argument as it may go into tui.log: a URL (e.g. `--base-url`) loses its password and query
 * values, which can hold credentials. The TUI cannot use the backend's redactor (agent-core).
 */
export function maskUrlSecrets(arg: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(arg)) return arg;
  return arg.replace(/^([^/]*\/\/[^/@:]*:)[^/@]*@/, '$1[REDACTED]@').replace(/([?&][^=&#]+=)[^&#]*/g, '$1[REDACTED]');
}

export class BackendProcess {
  readonly client: HermesClient;
  private readonly stderr = new StderrRing(200);
  private readonly child: ChildProcessWithoutNullStreams;
  private exitInfo: BackendExit | undefined;
  private readonly exited: Promise<BackendExit>;
  private stopping = false;

  /** Spawns `command`, or takes over a backend spawnBackend() already started. */
  constructor(
    command: ProcessCommand | SpawnedBackend,
    private readonly logger: Logger,
    options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
  ) {
    const spawned = 'child' in command ? command : spawnBackend(command, options);
    logger.info('starting backend', { command: spawned.command.command, args: spawned.command.args.map(maskUrlSecrets) });
    this.child = spawned.child;
    spawned.takeStderr((chunk) => this.stderr.push(chunk));
    // A backend that dies mid-write must not crash the TUI with EPIPE.
    this.child.stdin.on('error', (error) => logger.warn('backend stdin error', { error }));
    this.child.on('error', (error) => {
      if (this.child.pid !== undefined) logger.warn('backend process error', { error });
    });
    this.client = new HermesClient(this.child.stdout, this.child.stdin, logger);
    this.exited = spawned.ended.then(async (end) => {
      const exit: BackendExit = { code: end.code, signal: end.signal, stderrTail: this.stderr.tail(), ...(end.spawnError ? { spawnError: end.spawnError } : {}) };
      this.exitInfo = exit;
      logger[this.stopping ? 'info' : 'warn']('backend exited', { code: exit.code, signal: exit.signal, spawnError: exit.spawnError });
      // What the backend wrote before it died is handled before its death is (a partial reply kept).
      await this.client.drained();
      this.client.dispose();
      return exit;
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get hasExited(): boolean {
    return this.exitInfo !== undefined;
  }

  stderrTail(count = 200): string[] {
    return this.stderr.tail(count);
  }

  onExit(listener: (exit: BackendExit) => void): void {
    void this.exited.then(listener);
  }

  /**
   * Waits for `gateway.ready`; rejects with the stderr tail on timeout or early exit, and when the
   * backend speaks another protocol (one from before the backend's own check, which would not refuse).
   */
  waitReady(timeoutMs = READY_TIMEOUT_MS): Promise<GatewayReadyPayload> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new BackendStartError(`the backend did not report ready within ${Math.round(timeoutMs / 1000)} s`, this.stderr.tail()));
      }, timeoutMs);
      void this.client.ready().then((payload) => {
        clearTimeout(timer);
        if (payload.protocol === PROTOCOL_VERSION) resolve(payload);
        else reject(new BackendStartError(protocolMismatch(payload, { version: HERMES_VERSION, protocol: PROTOCOL_VERSION }), this.stderr.tail()));
      });
      void this.exited.then((exit) => {
        clearTimeout(timer);
        reject(new BackendStartError(describeExit(exit, 'before it was ready'), exit.stderrTail));
      });
    });
  }

  /** Kills a backend that stopped answering: SIGKILL, the one signal a stopped or blocked process cannot put off. */
  killHung(): void {
    this.child.kill('SIGKILL');
  }

  /** Sends `signal`, then SIGKILL if the backend is still there a second later. */
  private terminate(signal: NodeJS.Signals): void {
    this.child.kill(signal);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), FORCE_KILL_AFTER_MS);
    timer.unref();
    void this.exited.then(() => clearTimeout(timer));
  }

  /** Ends the backend's stdin (its cue to exit), then kills it if it is still there after `graceMs`. */
  async shutdown(graceMs = 2_000): Promise<BackendExit> {
    this.stopping = true;
    // The client writes a tick's frames together once its promise callbacks have run: answers given
    // just before (approvals declined on the way out) go out before stdin closes.
    await new Promise((resolve) => setImmediate(resolve));
    if (!this.exitInfo) {
      this.child.stdin.end();
      const timer = setTimeout(() => {
        this.logger.warn('backend did not exit after stdin closed; sending SIGTERM');
        this.terminate('SIGTERM');
      }, graceMs);
      await this.exited;
      clearTimeout(timer);
    }
    return this.exited;
  }
}

export function describeExit(exit: BackendExit, when = ''): string {
  const suffix = when ? ` ${when}` : '';
  if (exit.spawnError) return `the backend could not be started${suffix}: ${exit.spawnError}`;
  if (exit.signal) return `the backend was killed by ${exit.signal}${suffix}`;
  return `the backend exited with code ${exit.code ?? 'unknown'}${suffix}`;
}

/** How the process ended, in a few words for a one-line notice: `exit signal SIGKILL`, `exit code 1`. */
export function exitCause(exit: BackendExit): string {
  if (exit.spawnError) return `could not start: ${exit.spawnError}`;
  if (exit.signal) return `exit signal ${exit.signal}`;
  return `exit code ${exit.code ?? 'unknown'}`;
}
