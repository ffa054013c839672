/**
 * Owns the backend for one TUI run: starts it (and the demo model server for `--demo`), opens the
 * session, routes events into the view store, puts the backend's questions on cards, and carries out
 * the user's submits, answers, interrupts and exit.
 * React components only read the stores and call these methods.
 */
import type { HermesEvent, TranscriptMessage } from '@hermes/rpc-server/protocol';
import { routeSlash } from '../commands/localCommands.ts';
import type { Logger } from '../logging/logger.ts';
import { backendCommand, type BackendOptions } from '../rpc/backendCommand.ts';
import type { BackendProcess } from '../rpc/backendProcess.ts';
import { parseShellPrompt, SHELL_USAGE } from '../shell/shellPrompt.ts';
import { HistoryKeys } from '../history/historyKeys.ts';
import { historyFile } from '../history/historyFile.ts';
import { PromptHistory } from '../history/promptHistory.ts';
import { hermesHome } from '../logging/logger.ts';
import { createComposerSideStore, createComposerStore, type ComposerSideStore, type ComposerStore } from '../state/composerStore.ts';
import { approvalPrompt, clarifyPrompt } from '../state/promptQueue.ts';
import { notReadyReason, type PendingPrompt } from '../state/viewState.ts';
import { createViewStore, type ViewStore } from '../state/viewStore.ts';
import { PromptBroker, type PromptAnswer } from './promptBroker.ts';
import { QueuedPrompts } from './queuedPrompts.ts';
import { errorCode, errorMessage, stderrOf, submitFailure } from './rpcErrors.ts';
import { BackendRecovery, killedWhileRestarting } from './backendRecovery.ts';
import type { Runtime } from './runtime.ts';
import { CompletionController } from './completionController.ts';
import { EarlyEvents } from './earlyEvents.ts';
import { SessionActions } from './sessionActions.ts';
import { SessionInfoCache } from './sessionInfoCache.ts';
import type { StartupSession } from './sessionHost.ts';
import { TurnInterrupts } from './turnInterrupts.ts';
import { loadMarkdown, preloadMarkdown } from '../markdown/loadMarkdown.ts';

/** How long a switch to a session a command opened waits for that session's info event. */
const SESSION_INFO_WAIT_MS = 2_000;
/**
 * How long after a new session's prompt shows the markdown renderer loads (about 100 ms of work, in
 * steps of a few ms): long enough that a start which ends at once (a script, `hermes` then Ctrl+D)
 * never loads it, short next to the time a person takes to type a first prompt.
 */
export const MARKDOWN_PRELOAD_MS = 1_000;

export interface ControllerOptions {
  backend: BackendOptions;
  runtime: Runtime;
  logger: Logger;
  cwd: string;
  cols: number;
  /** Which session to open: a new one unless `--resume` or `--continue` asked for a stored one. */
  startup?: StartupSession;
  /** The prompt history file; `$HERMES_HOME/.hermes_history` unless given. */
  historyFile?: string;
  /** A backend started before the screen's code loaded (main.tsx): the first launch takes it over. */
  started?: BackendProcess;
}

export class SessionController {
  readonly view: ViewStore = createViewStore();
  readonly composer: ComposerStore = createComposerStore();
  /** The prompts queued behind a running turn and a Ctrl+R search, shown under the composer. */
  readonly composerSide: ComposerSideStore = createComposerSideStore();
  readonly history: PromptHistory;
  /** ↑/↓ history, Ctrl+R, Esc (interrupt) and Esc Esc. */
  readonly historyKeys: HistoryKeys;
  /** Prompts typed while the session works, sent in order when it is free. */
  private readonly queue: QueuedPrompts;
  private backend: BackendProcess | undefined;
  /** The backend's options once resolved (the demo model's address filled in), for restarts. */
  private backendOptions: BackendOptions | undefined;
  /** Brings the session back on a new backend when this one dies. */
  private readonly recovery: BackendRecovery;
  private launching: Promise<BackendProcess | undefined> | undefined;
  private stopDemo: (() => Promise<void>) | undefined;
  /** Session events that arrived while `session.create` was in flight, before we knew our id. */
  private readonly early = new EarlyEvents(this.view);
  private shuttingDown: Promise<void> | undefined;
  /** The markdown renderer's preload, due MARKDOWN_PRELOAD_MS after a new session's prompt shows. */
  private preload: NodeJS.Timeout | undefined;
  /** Ctrl+C: the interrupt, and what happens when the backend refuses it or does not answer. */
  private readonly interrupts: TurnInterrupts;
  /** A prompt sent whose `prompt.submit` is not answered yet (the backend stores it before answering). */
  private unconfirmedPrompt: string | undefined;
  private yoloPending = false;
  private readonly prompts: PromptBroker;
  /** Session switching, the picker and the slash commands. */
  readonly sessions: SessionActions;
  /** The slash-command completion list under the composer. */
  readonly completion: CompletionController;
  private readonly infos = new SessionInfoCache();
  private exitHandler: (() => void) | undefined;
  private clearHandler: (() => void) | undefined;

  constructor(private readonly options: ControllerOptions) {
    this.prompts = new PromptBroker(this.view, options.logger);
    const host = {
      view: this.view,
      composer: this.composer,
      logger: options.logger,
      cols: options.cols,
      cwd: options.cwd,
      client: () => this.backend?.client,
      sessionInfo: (sessionId: string) => this.infos.get(sessionId, SESSION_INFO_WAIT_MS),
      sendPrompt: (text: string) => this.sendPrompt(text),
      exit: () => this.exitHandler?.(),
      clearScreen: () => this.clearHandler?.(),
    };
    this.sessions = new SessionActions(host);
    this.completion = new CompletionController(host);
    this.recovery = new BackendRecovery({
      view: this.view,
      logger: options.logger,
      cols: options.cols,
      early: this.early,
      backend: () => this.backend,
      shuttingDown: () => this.shuttingDown !== undefined,
      spawnBackend: () => this.spawnBackend(this.backendOptions ?? this.options.backend),
      settleInterrupt: () => this.interrupts.settle(),
      resumed: (messages) => this.restoreUnstoredPrompt(messages),
    });
    this.interrupts = new TurnInterrupts({
      view: this.view,
      logger: options.logger,
      backend: () => this.backend,
      shuttingDown: () => this.shuttingDown !== undefined,
    });
    this.history = new PromptHistory(options.historyFile ?? historyFile(hermesHome()), (problem) => {
      this.logger.warn('prompt history', { problem });
      this.view.dispatch({ type: 'local.notice', level: 'warn', text: problem });
    });
    this.historyKeys = new HistoryKeys({
      composer: this.composer,
      side: this.composerSide,
      history: this.history,
      // What Ctrl+C would interrupt: a turn or a command holding the session (`/compress`).
      busy: () => this.state.busy || (this.state.commands?.length ?? 0) > 0,
      interrupt: () => this.interrupt(),
    });
    this.queue = new QueuedPrompts(this.composerSide, this.view, (text) => this.sendPrompt(text), () => this.shuttingDown !== undefined);
  }

  /** What to do when the backend asks the TUI to exit (/quit): the screen's own exit. */
  onExitRequest(handler: () => void): void {
    this.exitHandler = handler;
  }

  /** How to wipe the terminal (`/clear`): the screen's own, as only it writes to the terminal. */
  onClearScreen(handler: () => void): void {
    this.clearHandler = handler;
  }

  /** Where this run logs, for error messages that point the user to details. */
  get logFile(): string {
    return this.options.logger.file;
  }

  private get logger(): Logger {
    return this.options.logger;
  }

  private get state() {
    return this.view.store.getState();
  }

  /**
   * Starts the processes behind the screen: the demo model server for `--demo`, then the backend.
   * Called as early as possible (before Ink has loaded) so the backend boots while the first frame
   * renders; `start()` calls it too, and it runs once.
   */
  launch(): Promise<BackendProcess | undefined> {
    if (!this.launching) {
      this.launching = this.spawnProcesses();
      // start() awaits and reports the failure; this only keeps it from counting as unhandled.
      this.launching.catch(() => undefined);
    }
    return this.launching;
  }

  private async spawnProcesses(): Promise<BackendProcess | undefined> {
    const backendOptions = { ...this.options.backend };
    if (backendOptions.demo) {
      this.view.dispatch({ type: 'local.status', text: 'starting the demo model…' });
      const { startDemoModelServer } = await import('../demo/demoModelServer.ts');
      const demo = await startDemoModelServer(this.options.runtime, this.logger);
      if (this.shuttingDown) {
        await demo.stop();
        return undefined;
      }
      this.stopDemo = demo.stop;
      Object.assign(backendOptions, { provider: 'custom', baseUrl: demo.baseUrl, model: 'scripted-demo' });
    }
    this.backendOptions = backendOptions;
    if (this.options.started && !backendOptions.demo) return this.adopt(this.options.started);
    return this.spawnBackend(backendOptions);
  }

  /** Starts a backend process and routes its events, questions and death to this controller. */
  private async spawnBackend(backendOptions: BackendOptions): Promise<BackendProcess | undefined> {
    // Loaded lazily: execa and the JSON-RPC stack must not delay the first frame.
    const { BackendProcess } = await import('../rpc/backendProcess.ts');
    // The user may have quit while we were loading; a backend started now would outlive the TUI.
    if (this.shuttingDown) return undefined;
    return this.adopt(new BackendProcess(backendCommand(backendOptions), this.logger));
  }

  private adopt(backend: BackendProcess): BackendProcess {
    this.backend = backend;
    backend.client.onEvent((event) => this.receive(event));
    backend.client.handlePrompts({
      approval: (id, params, signal) =>
        this.ask(approvalPrompt(id, params), signal).then((answer) => ({ choice: answer?.kind === 'approval' ? answer.choice : 'deny' })),
      clarify: (id, params, signal) =>
        this.ask(clarifyPrompt(id, params), signal).then((answer) => ({ answer: answer?.kind === 'clarify' ? answer.answer : '' })),
    });
    // The questions it asked are declined as their cards go (the view withdraws them when the backend is lost).
    backend.client.onClose(() => this.recovery.lost(backend));
    backend.onExit(() => this.recovery.lost(backend));
    return backend;
  }

  async start(): Promise<void> {
    let backend: BackendProcess | undefined;
    try {
      backend = await this.launch();
      if (!backend) return;
      // A resumed session prints replies: their renderer loads while the backend starts, not after it
      // (a failure is logged where it happens, and replies print plain).
      if (this.options.startup && this.options.startup.kind !== 'new') loadMarkdown().catch(() => undefined);
      const ready = await backend.waitReady();
      this.logger.info('backend ready', { ...ready });
      const { result, how, notice } = await this.sessions.openInitial(backend.client, this.options.startup ?? { kind: 'new' });
      this.logger.info('session opened', { how, session_id: result.session_id, model: result.info.model, provider: result.info.provider });
      this.view.dispatch({ type: 'local.sessionOpened', result, how });
      // A new session's first reply is drawn as fast as the later ones: the renderer loads in the
      // moment after the prompt shows, when nothing else runs (a resumed one loaded it above).
      if ((this.options.startup?.kind ?? 'new') === 'new') {
        const preload = () => void preloadMarkdown().then((done) => done && this.logger.info('markdown renderer preloaded'));
        this.preload = setTimeout(preload, MARKDOWN_PRELOAD_MS).unref();
      }
      if (notice) this.view.dispatch({ type: 'local.notice', ...notice });
      this.early.flush(result.session_id);
      this.history.load();
    } catch (error) {
      this.early.drop();
      if (this.shuttingDown) return;
      // Killed while starting (an OOM kill): started again within the restart budget. One that exits
      // by itself (a broken state.db) says why below instead.
      if (backend && (await killedWhileRestarting(backend)) && this.recovery.takeRestart()) {
        this.logger.warn('the backend was killed while starting; starting another', { error });
        this.early.hold();
        this.launching = this.spawnBackend(this.backendOptions ?? this.options.backend);
        return this.start();
      }
      this.logger.error('startup failed', { error });
      const message = errorMessage(error);
      this.view.dispatch({ type: 'local.backendFailed', message: `hermes could not start: ${message}`, stderrTail: stderrOf(error, this.backend) });
    }
  }

  private receive(event: HermesEvent): void {
    // session.create goes out first (start(), on the same event): painting the interim status is a
    // frame's work that would otherwise delay it; the backend opens the session meanwhile.
    if (event.type === 'gateway.ready') {
      setImmediate(() => this.view.dispatch(event));
      return;
    }
    if (this.early.keep(event)) return;
    if (event.type === 'session.info' && event.session_id && event.session_id !== this.state.sessionId) this.infos.put(event.session_id, event.payload);
    if (event.type === 'message.complete') this.interrupts.settle();
    this.view.dispatch(event);
  }

  /** Declines questions this controller cannot put in front of the user. */
  private ask(prompt: PendingPrompt, signal: AbortSignal): Promise<PromptAnswer> {
    const sessionId = this.state.sessionId;
    if (this.shuttingDown || this.state.phase === 'failed' || (sessionId && prompt.request.session_id !== sessionId)) {
      this.logger.warn('declined a backend question nobody can answer here', { id: prompt.id, session_id: prompt.request.session_id });
      return Promise.resolve(undefined);
    }
    return this.prompts.ask(prompt, signal);
  }

  /** The user answered the card `id`; `undefined` declines it (Esc, Ctrl+C). */
  answerPrompt(id: string, answer: PromptAnswer): void {
    this.prompts.answer(id, answer);
  }

  /**
   * Sends a prompt, runs a `/command`, or runs a shell command when it starts with `!`. Returns false (and says
   * why) when it cannot be done now; the draft is then kept.
   */
  submit(text: string): boolean {
    const sent = this.submitNow(text);
    if (sent) this.history.add(text);
    return sent;
  }

  private submitNow(text: string): boolean {
    const slash = routeSlash(text);
    if (slash) {
      this.sessions.run(slash);
      return true;
    }
    const shell = parseShellPrompt(text);
    if (shell?.kind === 'usage') {
      this.view.dispatch({ type: 'local.notice', level: 'info', text: SHELL_USAGE });
      return true;
    }
    if (shell) {
      const target = this.sendable();
      if (!target) return false;
      this.runShell(target, shell.command);
      return true;
    }
    // Typed while a turn runs: queued, and sent when the session is free (slash commands and !cmd run at once, above).
    return this.queue.offer(text) || this.sendPrompt(text);
  }

  /** Sends `text` to the model as it is (no `/` or `!` meaning); false, with the reason shown, when it cannot go now. */
  private sendPrompt(text: string): boolean {
    const target = this.sendable();
    if (!target) return false;
    this.unconfirmedPrompt = text;
    // Shown once the frame is on its way: a store change is rendered at once (React, in a microtask),
    // and the repaint of the submitted prompt (20-60 ms, the markdown loader starting) came before the
    // transport's write of this tick, so every reply started that much later.
    this.view.dispatchSoon({ type: 'local.submitted', text });
    target.backend.client.request('prompt.submit', { session_id: target.sessionId, text }).then(
      (result) => {
        // Answered only once the prompt is stored.
        if (this.unconfirmedPrompt === text) this.unconfirmedPrompt = undefined;
        this.logger.debug('prompt accepted', { status: result.status });
      },
      (error: unknown) => {
        this.logger.warn('prompt.submit failed', { error });
        // The backend died with the request open: the turn is marked interrupted and the restart says why.
        if (target.backend.client.isClosed) return;
        this.view.dispatch({ type: 'local.submitFailed', message: submitFailure(error), code: errorCode(error) });
      },
    );
    return true;
  }

  /**
   * A backend that died (or hung) before answering `prompt.submit` may never have stored the prompt: when
   * the resumed session does not end with it, it goes back into an empty composer, so it is not lost.
   */
  private restoreUnstoredPrompt(messages: readonly TranscriptMessage[]): void {
    const text = this.unconfirmedPrompt;
    this.unconfirmedPrompt = undefined;
    if (text === undefined || messages.findLast((message) => message.role === 'user')?.text === text) return;
    this.logger.warn('the prompt in flight when the backend died is not in the resumed session', { chars: text.length });
    const kept = this.composer.getState().draft === '';
    if (kept) this.composer.setState({ draft: text, cursor: text.length });
    const where = kept ? 'it is back in the prompt: press Enter to send it' : 'type it again to send it';
    this.view.dispatch({ type: 'local.notice', level: 'warn', text: `your last prompt never reached the backend; ${where}` });
  }

  /** The session a prompt or `!cmd` can go to now; otherwise undefined, with the reason on the status line. */
  private sendable(): { backend: BackendProcess; sessionId: string } | undefined {
    const state = this.state;
    const refuse = (text: string) => {
      this.view.dispatch({ type: 'local.status', text });
      return undefined;
    };
    if (state.phase === 'failed') return refuse('the backend is not running — press Ctrl+C twice to exit');
    if (state.phase !== 'ready' || !state.sessionId || !this.backend) return refuse(notReadyReason(state.phase));
    if (state.busy) return refuse('still answering — wait, or press Ctrl+C to interrupt');
    // A command holding the session (`/compress`) would make the backend refuse it (4009): the draft is kept instead.
    const command = state.commands?.[0]?.trim().split(/\s+/)[0];
    if (command) return refuse(`wait for ${command} to finish, or press Ctrl+C to stop it`);
    if (state.shell) return refuse(`!${state.shell.command} is still running — wait, or press Ctrl+C to stop it`);
    return { backend: this.backend, sessionId: state.sessionId };
  }

  /** Runs a `!cmd` through the backend (and its approval gate, which may put a card up meanwhile). */
  private runShell(target: { backend: BackendProcess; sessionId: string }, command: string): void {
    this.view.dispatch({ type: 'local.shellStarted', command });
    target.backend.client.request('shell.exec', { session_id: target.sessionId, command }).then(
      (result) => {
        this.logger.info('shell command finished', { code: result.code });
        this.view.dispatch({ type: 'local.shellFinished', command, ...result });
      },
      (error: unknown) => {
        this.logger.warn('shell.exec failed', { error });
        const message = target.backend.client.isClosed ? 'the backend stopped before it finished' : errorMessage(error);
        this.view.dispatch({ type: 'local.shellFailed', command, message });
      },
    );
  }

  /** Shift+Tab: turns yolo on or off for this session; the backend confirms (and warns) before the view changes. */
  toggleYolo(): void {
    const { phase, sessionId, info } = this.state;
    if (phase !== 'ready' || !sessionId || !this.backend) {
      this.view.dispatch({ type: 'local.status', text: 'still starting — try again in a moment' });
      return;
    }
    // A second press before the first is confirmed would send the same value again.
    if (this.yoloPending) return;
    this.yoloPending = true;
    const value = !info?.yolo;
    this.backend.client.request('config.set', { key: 'yolo', value, session_id: sessionId }).then(
      (result) => {
        this.yoloPending = false;
        this.view.dispatch({ type: 'local.yoloChanged', value: result.value === true, warning: result.warning });
      },
      (error: unknown) => {
        this.yoloPending = false;
        this.logger.warn('config.set yolo failed', { error });
        this.view.dispatch({ type: 'local.notice', level: 'error', text: `could not turn yolo ${value ? 'on' : 'off'}: ${errorMessage(error)}` });
      },
    );
  }

  /** Ctrl+C during a turn. */
  interrupt(): void {
    this.interrupts.interrupt();
  }

  /** Stops the backend (stdin closed, then killed after a grace period) and the demo model server. */
  shutdown(): Promise<void> {
    this.shuttingDown ??= (async () => {
      clearTimeout(this.preload);
      this.interrupts.settle();
      this.sessions.dispose();
      this.completion.dispose();
      // Answered before stdin closes, so the backend reads a deny rather than a broken pipe.
      this.prompts.declineAll();
      this.view.dispose();
      try {
        if (this.backend) {
          const exit = await this.backend.shutdown(2_000);
          this.logger.info('backend stopped', { code: exit.code, signal: exit.signal });
        }
      } catch (error) {
        this.logger.error('backend shutdown failed', { error });
      }
      try {
        await this.stopDemo?.();
      } catch (error) {
        this.logger.error('demo model server shutdown failed', { error });
      }
    })();
    return this.shuttingDown;
  }
}

