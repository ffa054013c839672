/**
 * Ctrl+C during a turn (or a `/compress`, or a `!cmd`): asks the backend to interrupt it, and makes sure the turn ends even when the
 * backend cannot. An interrupt the backend refused, or one that failed, ends the turn in the view
 * after a moment (unless its message.complete arrives first); one it never answers means the backend
 * hung, so it is killed and recovery restarts it and resumes the session.
 */
import type { Logger } from '../logging/logger.ts';
import type { BackendProcess } from '../rpc/backendProcess.ts';
import type { ViewStore } from '../state/viewStore.ts';
import { errorMessage } from './rpcErrors.ts';

/** How long an interrupt the backend refused may leave the turn running before the TUI ends it itself. */
const ABANDON_AFTER_MS = 3_000;

/**
 * How long an interrupt may go unanswered before the backend is taken for hung (stopped, or its thread
 * blocked) and replaced: a hung backend answers nothing, so without this the turn says "interrupting…"
 * until the user quits.
 */
const INTERRUPT_ANSWER_MS = 5_000;

export interface InterruptHost {
  view: ViewStore;
  logger: Logger;
  backend(): BackendProcess | undefined;
  shuttingDown(): boolean;
}

export class TurnInterrupts {
  /** Waits for the interrupt's answer, or for the turn to end after a refused one. */
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly host: InterruptHost) {}

  private get state() {
    return this.host.view.store.getState();
  }

  /** Interrupts the running turn of the current session, a `/command` still running (`/compress`), or a `!cmd`; else nothing. */
  interrupt(): void {
    const { sessionId, busy, commands, shell } = this.state;
    const backend = this.host.backend();
    if (!sessionId || !backend) return;
    if (!busy) {
      // No turn: a `/command` still running is what holds the session; its answer ends it.
      if (commands?.length) this.interruptCommand(backend, sessionId);
      else if (shell) this.stopShell(backend, sessionId);
      return;
    }
    this.host.view.dispatch({ type: 'local.interruptSent' });
    this.settle();
    this.timer = setTimeout(() => this.replaceHung(backend), INTERRUPT_ANSWER_MS);
    backend.client.request('session.interrupt', { session_id: sessionId }).then(
      (result) => {
        this.settle();
        if (result.status === 'not_interrupted') this.abandonIfStillBusy('the backend had no turn to interrupt');
      },
      (error: unknown) => {
        this.host.logger.warn('session.interrupt failed', { error });
        // The backend died meanwhile: recovery ended that turn, and a turn running now is a new one.
        if (backend !== this.host.backend() || backend.hasExited || backend.client.isClosed) return;
        this.abandonIfStillBusy(`the interrupt failed: ${errorMessage(error)}`);
      },
    );
  }

  private interruptCommand(backend: BackendProcess, sessionId: string): void {
    this.host.view.dispatch({ type: 'local.interruptSent' });
    backend.client.request('session.interrupt', { session_id: sessionId }).catch((error: unknown) => this.host.logger.warn('session.interrupt failed', { error }));
  }

  /** A `!cmd`: its `shell.exec` answer (marked stopped) ends it in the view, before `shell.cancel` answers. */
  private stopShell(backend: BackendProcess, sessionId: string): void {
    this.host.view.dispatch({ type: 'local.interruptSent' });
    backend.client.request('shell.cancel', { session_id: sessionId }).catch((error: unknown) => {
      this.host.logger.warn('shell.cancel failed', { error });
      // A backend that died meanwhile ended the `!cmd` already (recovery says so).
      if (backend.hasExited || backend.client.isClosed) return;
      this.host.view.dispatch({ type: 'local.notice', level: 'warn', text: `the !cmd could not be stopped: ${errorMessage(error)}` });
    });
  }

  /** The turn ended, the backend was lost, or the TUI is exiting: nothing is left to wait for. */
  settle(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The interrupt got no answer: the backend is killed, and recovery restarts it and resumes the session. */
  private replaceHung(backend: BackendProcess): void {
    this.timer = undefined;
    if (this.host.shuttingDown() || backend !== this.host.backend() || backend.hasExited || !this.state.busy) return;
    const seconds = Math.round(INTERRUPT_ANSWER_MS / 1000);
    this.host.logger.warn('backend did not answer the interrupt; killing it so it can be restarted', { pid: backend.pid, waited_ms: INTERRUPT_ANSWER_MS });
    this.host.view.dispatch({ type: 'local.notice', level: 'warn', text: `the backend did not answer Ctrl+C within ${seconds} s (hung); restarting it` });
    backend.killHung();
  }

  /** The turn may have just finished on its own; give its message.complete a moment to arrive. */
  private abandonIfStillBusy(reason: string): void {
    this.settle();
    this.timer = setTimeout(() => {
      if (this.state.busy) this.host.view.dispatch({ type: 'local.turnAbandoned', reason });
    }, ABANDON_AFTER_MS);
  }
}
