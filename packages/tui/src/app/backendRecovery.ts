/**
 * Bringing the session back after its backend died: a new backend in place of the dead one resumes the
 * same stored session, within the restart budget, so a backend that keeps dying is given up on (saying
 * why, and how to continue) instead of being restarted forever.
 */
import type { TranscriptMessage } from '@hermes/rpc-server/protocol';
import type { Logger } from '../logging/logger.ts';
import type { BackendProcess } from '../rpc/backendProcess.ts';
import type { ViewStore } from '../state/viewStore.ts';
import { RESUME_MESSAGES } from '../transcript/printPlan.ts';
import { budgetSpent, continueHint, RestartBudget } from './restartBudget.ts';
import type { EarlyEvents } from './earlyEvents.ts';
import { errorMessage, stderrOf } from './rpcErrors.ts';

/** What recovery needs from the controller that owns the backend. */
export interface RecoveryHost {
  readonly view: ViewStore;
  readonly logger: Logger;
  readonly cols: number;
  /** Holds the resumed session's events back until it is on screen. */
  readonly early: EarlyEvents;
  /** The backend in use now. */
  backend(): BackendProcess | undefined;
  /** The TUI is exiting: nothing is brought back then. */
  shuttingDown(): boolean;
  /** Starts a backend wired to the controller; undefined when the TUI quit meanwhile. */
  spawnBackend(): Promise<BackendProcess | undefined>;
  /** The turn the dead backend ran is over: no interrupt is waiting for it any more. */
  settleInterrupt(): void;
  /** The session is back on a new backend, as `messages` were stored. */
  resumed(messages: readonly TranscriptMessage[]): void;
}

export class BackendRecovery {
  private readonly restarts = new RestartBudget();
  /** The dead backend whose loss is being handled, so its exit and its closed pipe count once. */
  private recovering: BackendProcess | undefined;

  constructor(private readonly host: RecoveryHost) {}

  /** Takes one restart from the budget; false once it is spent. */
  takeRestart(): boolean {
    return this.restarts.take(Date.now());
  }

  /**
   * `dead` stopped answering (it exited, was killed, or closed its pipe). A death during startup is
   * reported by `start()` (or `restart()`), not restarted: a backend that cannot start would loop.
   */
  lost(dead: BackendProcess): void {
    const { host } = this;
    if (host.shuttingDown() || dead !== host.backend() || this.recovering === dead || host.view.store.getState().phase !== 'ready') return;
    this.recovering = dead;
    host.settleInterrupt();
    host.view.dispatch({ type: 'local.backendLost' });
    void this.restart(dead);
  }

  /** Brings a new backend up in place of `dead` and resumes the same stored session, within the restart budget. */
  private async restart(dead: BackendProcess): Promise<void> {
    const { host } = this;
    const { exitCause } = await import('../rpc/backendProcess.ts');
    // A backend that only closed its pipe is killed so nothing is left behind.
    const exit = await dead.shutdown(1_000);
    const cause = exitCause(exit);
    const stored = host.view.store.getState().info?.stored_session_id;
    host.logger.warn('backend lost', { cause, stored_session_id: stored });
    if (host.shuttingDown()) return;
    if (!this.takeRestart()) {
      host.view.dispatch({ type: 'local.backendFailed', message: budgetSpent(cause, stored, this.restarts.limit), stderrTail: exit.stderrTail });
      return;
    }
    host.early.hold();
    let backend: BackendProcess | undefined;
    try {
      if (!stored) throw new Error('the session on screen has no stored id to resume');
      backend = await host.spawnBackend();
      if (!backend) return;
      const ready = await backend.waitReady();
      host.logger.info('backend restarted', { ...ready, cause });
      // The screen keeps its transcript: the end is read only for the prompt that may not have been stored.
      const result = await backend.client.request('session.resume', { session_id: stored, cols: host.cols, tail: RESUME_MESSAGES });
      if (host.shuttingDown()) return;
      host.logger.info('session resumed after a restart', { session_id: result.session_id, stored_session_id: stored });
      host.view.dispatch({ type: 'local.backendRestarted', result, cause });
      host.resumed(result.messages);
      host.early.flush(result.session_id);
    } catch (error) {
      host.early.drop();
      if (host.shuttingDown()) return;
      // Killed while coming back (a second kill -9, an OOM kill): one more death within the budget, not
      // a backend that cannot start, which exits with a code and its reason and is reported below.
      if (backend && (await killedWhileRestarting(backend))) {
        host.logger.warn('the restarted backend was killed before the session was resumed', { error });
        return this.restart(backend);
      }
      host.logger.error('backend restart failed', { error });
      const message = `hermes could not restart the backend: ${errorMessage(error)}. ${continueHint(stored)}`;
      host.view.dispatch({ type: 'local.backendFailed', message, stderrTail: stderrOf(error, host.backend()) });
    }
  }
}

/** Whether `backend` failed to come up because it was killed by a signal (or closed its pipe and had to be). */
export async function killedWhileRestarting(backend: BackendProcess): Promise<boolean> {
  if (!backend.hasExited && !backend.client.isClosed) return false;
  const exit = await backend.shutdown(1_000);
  return exit.signal !== null && !exit.spawnError;
}
