import type { Logger } from '../logging/logger.ts';
import type { ChatMessage, ChatResponse, ToolSchema } from '../providers/types.ts';
import type { CompressionResult } from '../context/contextEngine.ts';
import { compressPrompt, type CompressionState } from './compression.ts';
import { TodoList } from '../tools/todoList.ts';
import type { ToolContext } from '../tools/types.ts';
import { toChatMessages, type StoredMessage } from '../sessions/sessionStore.ts';
import { isDiskWriteFailure, isSqliteFailure } from '../sessions/storeError.ts';
import { runTurn, type TurnResult } from './agentLoop.ts';
import { SessionShells, type ShellExecResult } from './shellExec.ts';
import { ModelUnavailableError, SessionBusyError } from './agentErrors.ts';
import { addCallUsage, applyAutoTitle, setContextFill } from './sessionMeta.ts';
import type { AgentEventSink, SessionUsage } from './events.ts';
import { SessionSystemPrompt } from './systemPrompt.ts';
import { repairSessionStore } from './storeRepair.ts';
import { withFreshSessionId } from '../sessions/sessionIds.ts';
import type { AgentSessionOptions, SessionModel } from './sessionOptions.ts';
import { DEFAULT_GUARDIAN_TIMEOUT_S, modelGuardian, type Guardian } from '../approvals/smart/guardian.ts';

/** `emit` that logs instead of throwing: a closed connection must not abort a turn before its results are stored. */
function guardedEmit(emit: AgentEventSink, logger: Logger): AgentEventSink {
  return (event) => {
    try {
      emit(event);
    } catch (error) {
      logger.warn('event %s not delivered: %s', event.type, (error as Error).message);
    }
  };
}

/** One conversation: its history, its running turn, its usage. */
export class AgentSession {
  readonly id: string;
  readonly usage: SessionUsage;
  readonly todos = new TodoList();
  /** Per-session yolo: dangerous commands run without asking (hardline ones never do). */
  yolo = false;
  private readonly systemPrompt: SessionSystemPrompt;
  private turns = 0;
  /** Plugin messages waiting for the running turn to end. */
  private readonly injected: string[] = [];
  private model: SessionModel;
  private pendingModel: SessionModel | null = null;
  /** What the model is sent: system prompt + history, compressed when it grows too long. */
  private prompt: ChatMessage[] | null = null;
  private readonly compressionState: CompressionState = {};
  private readonly toolContext: Omit<ToolContext, 'signal' | 'progress'>;
  /** The turn or `/compress` that owns the working prompt now; one at a time. */
  private running: { kind: 'turn' | 'compress'; controller: AbortController; done: Promise<unknown> } | null = null;
  /** The composer's `!cmd`s running now. */
  private readonly shells = new SessionShells();

  constructor(private readonly options: AgentSessionOptions) {
    // A client that is gone must not end a turn: events are best effort, the store is not.
    this.options = { ...options, emit: guardedEmit(options.emit, options.logger) };
    const existing = options.resume;
    this.id = existing?.id ?? withFreshSessionId(options.store, (id) => {
      options.store.createSession({
        id,
        source: options.source ?? 'tui',
        model: options.model.provider?.model,
        provider: options.model.provider?.id,
        cwd: options.cwd,
        title: options.title ?? null,
        parentId: options.parentId ?? null,
      });
      return id;
    });
    if (existing) repairSessionStore(options.store, this.id, 'resumed', options.logger);
    this.systemPrompt = new SessionSystemPrompt(options);
    this.systemPrompt.update(options.toolSchemas().map((t) => t.function.name));
    this.toolContext = {
      cwd: options.cwd,
      sessionId: this.id,
      home: options.home,
      settings: options.settings,
      processes: options.processes,
      todos: this.todos,
      sessions: options.store,
      skills: options.skills,
      clarify: async (question, choices) => {
        const answer = await options.prompts.clarify(question, choices, this.running?.controller.signal ?? new AbortController().signal);
        if (answer === null) throw new Error('Nobody answered the question (no interactive user, or it was withdrawn).');
        return answer;
      },
    };
    this.todos.onChange((todos, revision) => this.options.emit({ type: 'todo.updated', payload: { todos, revision } }));
    this.model = options.model;
    this.usage = {
      model: options.model.modelLabel,
      input: existing?.input_tokens ?? 0,
      output: existing?.output_tokens ?? 0,
      reasoning: existing?.reasoning_tokens ?? 0,
      total: (existing?.input_tokens ?? 0) + (existing?.output_tokens ?? 0),
      calls: existing?.api_calls ?? 0,
      // A resumed session's cost goes on from what it cost so far (the store adds each priced call).
      ...(typeof existing?.cost_usd === 'number' ? { cost_usd: existing.cost_usd } : {}),
    };
  }

  get busy(): boolean {
    return this.running !== null;
  }

  /** What holds the running slot: a turn, a `/compress`, or nothing. */
  get activity(): 'turn' | 'compress' | null {
    return this.running?.kind ?? null;
  }

  /** `!cmd`s running now: closing the session would stop them. */
  get shellsRunning(): number {
    return this.shells.count;
  }

  get cwd(): string {
    return this.options.cwd;
  }

  /** The model's context window in tokens (for `/status` before any call has measured the prompt). */
  get contextMax(): number {
    return this.model.contextMax;
  }

  get modelName(): string {
    return this.model.modelLabel;
  }

  get providerId(): string {
    return this.model.providerLabel;
  }

  get baseUrl(): string | undefined {
    return this.model.provider?.baseUrl;
  }

  /** Why no model call can be made (what to configure), or null when a model is ready. */
  get unavailable(): string | null {
    return this.model.provider ? null : (this.model.unavailable ?? 'No model is configured.');
  }

  history(): StoredMessage[] {
    return this.options.store.messages(this.id);
  }

  /** Loads what the model's first call needs (ChatProvider.warmUp); false when there is nothing to load. Never rejects. */
  async warmUp(): Promise<boolean> {
    const warm = this.model.provider?.warmUp;
    if (!warm) return false;
    await warm.call(this.model.provider);
    return true;
  }

  /**
   * Starts a turn and returns at once with a promise of its end. The user's message is stored
   * before anything else happens, so it survives a crash of the model call.
   */
  submit(text: string): Promise<TurnResult> {
    if (this.running) throw new SessionBusyError();
    const provider = this.model.provider;
    if (!provider) throw new ModelUnavailableError(this.model.unavailable ?? 'No model is configured.');
    const { store, emit } = this.options;
    // Tools and engine are read once per turn: after a plugin reload, the next turn sees the new ones;
    // a turn already running finishes with the schemas and engine it started with. (Tools are always
    // run through the live registry, so a removed plugin's tool answers "unknown tool", never runs.)
    const schemasAtSubmit = this.options.toolSchemas();
    const engine = this.options.contextEngine();
    const working = this.workingPrompt(schemasAtSubmit);
    try {
      const notice = store.keepFileInPlace();
      if (notice) {
        this.options.logger.warn('%s', notice);
        emit({ type: 'status.update', payload: { kind: 'warn', text: notice } });
      }
      store.appendMessage(this.id, { role: 'user', content: text });
    } catch (error) {
      throw isSqliteFailure(error) ? store.explainFailure(error) : error;
    }
    working.push({ role: 'user', content: text });
    const controller = new AbortController();
    // Start on a later tick: the caller's reply (e.g. prompt.submit's result) goes out first.
    const done = new Promise<void>((resolve) => setImmediate(resolve))
      .then(async () => {
        emit({ type: 'message.start' });
        const toolSchemas = await this.toolsAfterDiscovery(schemasAtSubmit, controller.signal);
        return runTurn(
          {
            sessionId: this.id,
            provider,
            tools: this.options.tools,
            toolSchemas,
            toolsets: this.options.toolsets,
            store,
            logger: this.options.logger,
            maxTurns: this.options.maxTurns,
            usage: this.usage,
            emit,
            context: this.toolContext,
            gate: this.options.gate,
            ask: this.options.prompts.approval,
            yolo: () => this.yolo,
            guardian: this.guardian(),
            extensions: this.options.extensions,
            retry: this.options.retry,
            stallTimeoutMs: this.options.stallTimeoutMs,
            turnId: `${this.id}:${++this.turns}`,
            onUsage: (response) => this.recordUsage(response),
            compression: {
              engine,
              settings: this.options.compression,
              contextMax: this.model.contextMax,
              state: this.compressionState,
              onUsage: (response) => this.recordUsage(response, { sideCall: true, priced: true }),
            },
          },
          working,
          controller.signal,
        );
      })
      .catch((error: unknown) => {
        // A failure outside the model and tools (e.g. the database): end the turn visibly.
        const message = isSqliteFailure(error) ? this.options.store.explainFailure(error).message : error instanceof Error ? error.message : String(error);
        this.options.logger.error('turn failed in session %s: %s (%s)', this.id, message, error);
        // Tool calls the failed turn stored without results are answered, so the session stays usable.
        repairSessionStore(this.options.store, this.id, 'after a failed turn', this.options.logger);
        emit({ type: 'message.complete', payload: { text: '', status: 'error', error: message, usage: { ...this.usage } } });
        return { status: 'error' as const, text: '', error: message };
      })
      .finally(() => {
        this.running = null;
        this.applyPendingModel();
      })
      .then((result) => {
        if (result.status === 'complete') applyAutoTitle(this.options.store, this.id, text, this.options.emit);
        const next = this.injected.shift();
        if (next !== undefined) setImmediate(() => this.inject(next));
        return result;
      });
    this.running = { kind: 'turn', controller, done };
    return done;
  }

  /**
   * Switches the model for the next turn. While a turn runs, it finishes on the old model; the
   * result says whether the switch waits for that.
   */
  switchModel(model: SessionModel): { deferred: boolean } {
    this.pendingModel = model;
    if (this.running) return { deferred: true };
    this.applyPendingModel();
    return { deferred: false };
  }

  /** Resolves when no turn or compression runs (at once when idle). Never rejects. */
  async idle(): Promise<void> {
    while (this.running) await this.running.done.catch(() => undefined);
  }

  /** A switch made during a turn takes effect as the turn ends, so what the session reports is what the next turn uses. */
  private applyPendingModel(): void {
    if (!this.pendingModel) return;
    this.model = this.pendingModel;
    this.pendingModel = null;
    this.usage.model = this.model.modelLabel;
    // The prompt is as long as it was; how full the new model's window is, is measured against that window.
    if (this.usage.context_used !== undefined) this.measureContext(this.usage.context_used, false);
  }

  /**
   * A message from a plugin (`injectMessage`): sent now when idle, or queued until the running turn
   * ends. Failures (no model) are logged, not thrown: the plugin's caller is not the user.
   */
  inject(content: string): void {
    if (this.running) {
      this.injected.push(content);
      return;
    }
    try {
      void this.submit(content);
    } catch (error) {
      this.options.logger.warn('injected message not sent in session %s: %s', this.id, error);
    }
  }

  /** Rebuilds the working prompt from the store on the next turn (after undo, for instance). */
  reloadPrompt(): void {
    if (this.running) throw new SessionBusyError();
    this.prompt = null;
  }

  /**
   * `/compress`: compresses the working prompt now, whatever its size, optionally around a topic.
   * It holds the running slot while it works (a submit answers SessionBusyError), and `interrupt()`
   * aborts its model call: it then rejects with the abort reason and the prompt is left as it was.
   */
  async compress(focusTopic?: string): Promise<CompressionResult | null> {
    if (this.running) throw new SessionBusyError();
    const provider = this.model.provider;
    if (!provider) throw new ModelUnavailableError(this.model.unavailable ?? 'No model is configured.');
    const toolSchemas = this.options.toolSchemas();
    const controller = new AbortController();
    const done = compressPrompt(
      {
        engine: this.options.contextEngine(),
        settings: this.options.compression,
        state: this.compressionState,
        provider,
        contextMax: this.model.contextMax,
        emit: this.options.emit,
        logger: this.options.logger,
        onUsage: (response) => this.recordUsage(response, { sideCall: true, priced: true }),
      },
      this.workingPrompt(toolSchemas),
      toolSchemas,
      controller.signal,
      { force: true, ...(focusTopic ? { focusTopic } : {}) },
    )
      .then((result) => {
        // No model call measures the shorter prompt until the next turn: until then, its estimate is how full the context is.
        if (result && result.removed > 0) this.measureContext(result.afterTokens);
        return result;
      })
      .finally(() => {
        this.running = null;
        this.applyPendingModel();
      });
    this.running = { kind: 'compress', controller, done };
    return done;
  }

  /**
   * The tools for a turn's model calls: once tools still being discovered (MCP servers connecting) are
   * in or `toolsReady` gave up waiting, the live set; the working prompt's system prompt then names it.
   */
  private async toolsAfterDiscovery(atSubmit: ToolSchema[], signal: AbortSignal): Promise<ToolSchema[]> {
    if (!this.options.toolsReady) return atSubmit;
    let settled = false;
    const ready = this.options.toolsReady().then(() => void (settled = true));
    // An already-settled discovery resolves within these microtasks: only a real wait is shown.
    await Promise.resolve();
    if (!settled) this.options.emit({ type: 'status.update', payload: { kind: 'status', text: 'waiting for MCP servers to connect…' } });
    let onAbort = () => {};
    const aborted = new Promise<void>((resolve) => (onAbort = resolve));
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      await Promise.race([ready, aborted]);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    const now = this.options.toolSchemas();
    if (now.length === atSubmit.length && now.every((schema, i) => schema.function.name === atSubmit[i]!.function.name)) return atSubmit;
    this.workingPrompt(now);
    return now;
  }

  /**
   * The prompt the next model call works on, its system prompt naming `toolSchemas`. It lives in memory
   * across turns (compression replaces its middle); it starts from the store.
   */
  private workingPrompt(toolSchemas: ToolSchema[]): ChatMessage[] {
    const rebuilt = this.systemPrompt.update(toolSchemas.map((t) => t.function.name));
    if (rebuilt && this.prompt?.[0]?.role === 'system') this.prompt[0] = { role: 'system', content: this.systemPrompt.text };
    this.prompt ??= [{ role: 'system', content: this.systemPrompt.text }, ...toChatMessages(this.options.store.messages(this.id))];
    return this.prompt;
  }

  /** Sets how full the context window is to `tokens` (a compression's estimate, or the same prompt under a new model); `tell` sends session.usage. */
  private measureContext(tokens: number, tell = true): void {
    setContextFill(this.usage, tokens, this.model.contextMax);
    if (tell) this.options.emit({ type: 'session.usage', payload: { ...this.usage } });
  }

  /** Adds one model call's tokens (and cost) to the session's usage and the store, and tells the client. */
  private recordUsage(response: ChatResponse, side = { sideCall: false, priced: true }): void {
    const call = addCallUsage(this.usage, response, this.model.contextMax, side.priced ? this.options.pricing : undefined, side.sideCall);
    try {
      if (call) this.options.store.addUsage(this.id, call);
    } catch (error) {
      // The reply matters more than its token count: a full disk must not end the turn here.
      if (!isDiskWriteFailure(error)) throw error;
      this.options.logger.warn('usage of session %s not stored: %s', this.id, this.options.store.explainFailure(error).message);
    }
    this.options.emit({ type: 'session.usage', payload: { ...this.usage } });
  }

  /** The composer's `!cmd`, judged by this session's approval settings (yolo, session approvals). */
  shellExec(command: string): Promise<ShellExecResult> {
    const gate = this.options.gate;
    if (!gate) throw new Error('shell commands need the approval gate');
    // Stopped by close() (hermes stopping), which then waits for the answer to go out.
    return this.shells.run({
      command,
      cwd: this.options.cwd,
      sessionId: this.id,
      yolo: this.yolo,
      gate,
      ask: this.options.prompts.approval,
      settings: this.options.settings,
    });
  }

  /**
   * Stops the composer's `!cmd`s (`shell.cancel`, `/stop`): their process groups are killed and each
   * `shellExec` answers with what it printed and `[stopped: reason]`. Resolves with how many were
   * stopped, once each has answered.
   */
  stopShells(reason = 'interrupted by the user'): Promise<number> {
    return this.shells.stopAll(reason);
  }

  /** Aborts the running turn (model stream and tool); its partial reply is kept. */
  interrupt(): boolean {
    if (!this.running) return false;
    this.running.controller.abort(new DOMException('interrupted by the user', 'AbortError'));
    return true;
  }

  /**
   * Interrupts any turn, waits for it to settle (its running tools are stopped and their partial output
   * stored as their results), and marks the session ended. `reason` is what the tools are told.
   */
  async close(reason = 'session closed'): Promise<void> {
    const running = this.running;
    const shellsStopped = this.shells.stopAll(reason);
    if (running) {
      running.controller.abort(new DOMException(reason, 'AbortError'));
      // A compression rejects with the abort reason; its caller hears of that, closing does not fail.
      await running.done.catch(() => undefined);
    }
    await shellsStopped;
    this.options.gate?.forgetSession(this.id);
    try {
      this.options.store.endSession(this.id);
    } catch (error) {
      // The session is closed whatever the store says: a locked or full state.db only misses its end time.
      if (!isSqliteFailure(error)) throw error;
      this.options.logger.warn('session %s closed, but its end was not stored: %s', this.id, this.options.store.explainFailure(error).message);
    }
  }

  /**
   * Smart approval's guardian for a turn's tool calls (the gate asks it only in mode `smart`). It holds
   * no state of its own (the gate counts denials), so each turn gets a fresh one.
   */
  private guardian(): Guardian {
    const own = this.options.guardian?.model;
    return modelGuardian({
      provider: () => own ?? this.model.provider ?? { unavailable: this.unavailable ?? 'no model' },
      timeoutMs: this.options.guardian?.timeoutMs ?? DEFAULT_GUARDIAN_TIMEOUT_S * 1000,
      // model.*_cost_per_million price the session's model, not another guardian model.
      onUsage: (response) => this.recordUsage(response, { sideCall: true, priced: !own }),
      tell: (text) => this.options.emit({ type: 'status.update', payload: { kind: 'status', text } }),
      onError: (message) => this.options.logger.warn('smart approval in session %s: %s', this.id, message),
    });
  }
}
