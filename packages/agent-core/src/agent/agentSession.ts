import crypto from 'node:crypto';
import type { Logger } from '../logging/logger.ts';
import type { ChatMessage, ChatProvider } from '../providers/types.ts';
import { toChatMessages, type SessionStore, type StoredMessage } from '../sessions/sessionStore.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import { runTurn, type TurnResult } from './agentLoop.ts';
import type { AgentEventSink, SessionUsage } from './events.ts';
import { buildSystemPrompt } from './systemPrompt.ts';

export class SessionBusyError extends Error {
  override name = 'SessionBusyError';
  constructor() {
    super('A turn is already running in this session: wait for it, or interrupt it first (Ctrl+C or /stop).');
  }
}

/** No usable model: the message says exactly what to configure. */
export class ModelUnavailableError extends Error {
  override name = 'ModelUnavailableError';
}

export interface AgentSessionOptions {
  store: SessionStore;
  tools: ToolRegistry;
  /** Null when no model is configured; `unavailable` then says how to configure one. */
  provider: ChatProvider | null;
  unavailable?: string;
  modelLabel: string;
  providerLabel: string;
  cwd: string;
  maxTurns: number;
  logger: Logger;
  emit: AgentEventSink;
  source?: string;
  title?: string | null;
}

/** A stored session id: sortable by time, unique enough to never clash. */
export function newStoredSessionId(date = new Date()): string {
  const stamp = date.toISOString().replace(/[-:]/g, '').replace('T', '_').slice(0, 15);
  return `${stamp}_${crypto.randomBytes(3).toString('hex')}`;
}

/** One conversation: its history, its running turn, its usage. */
export class AgentSession {
  readonly id: string;
  readonly usage: SessionUsage;
  private readonly systemPrompt: string;
  private running: { controller: AbortController; done: Promise<TurnResult> } | null = null;

  constructor(private readonly options: AgentSessionOptions) {
    this.id = newStoredSessionId();
    options.store.createSession({
      id: this.id,
      source: options.source ?? 'tui',
      model: options.provider?.model,
      provider: options.provider?.id,
      cwd: options.cwd,
      title: options.title ?? null,
    });
    this.systemPrompt = buildSystemPrompt({ cwd: options.cwd, toolNames: options.tools.names() });
    this.usage = { model: options.modelLabel, input: 0, output: 0, reasoning: 0, total: 0, calls: 0 };
  }

  get busy(): boolean {
    return this.running !== null;
  }

  get cwd(): string {
    return this.options.cwd;
  }

  get modelName(): string {
    return this.options.modelLabel;
  }

  get providerId(): string {
    return this.options.providerLabel;
  }

  get baseUrl(): string | undefined {
    return this.options.provider?.baseUrl;
  }

  /** Why no model call can be made (what to configure), or null when a model is ready. */
  get unavailable(): string | null {
    return this.options.provider ? null : (this.options.unavailable ?? 'No model is configured.');
  }

  history(): StoredMessage[] {
    return this.options.store.messages(this.id);
  }

  /**
   * Starts a turn and returns at once with a promise of its end. The user's message is stored
   * before anything else happens, so it survives a crash of the model call.
   */
  submit(text: string): Promise<TurnResult> {
    if (this.running) throw new SessionBusyError();
    const provider = this.options.provider;
    if (!provider) throw new ModelUnavailableError(this.options.unavailable ?? 'No model is configured.');
    const { store, emit } = this.options;
    const prior = toChatMessages(store.messages(this.id));
    store.appendMessage(this.id, { role: 'user', content: text });
    const history: ChatMessage[] = [{ role: 'system', content: this.systemPrompt }, ...prior, { role: 'user', content: text }];
    const controller = new AbortController();
    // Start on a later tick: the caller's reply (e.g. prompt.submit's result) goes out first.
    const done = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => {
        emit({ type: 'turn.start' });
        return runTurn(
      {
        sessionId: this.id,
        cwd: this.options.cwd,
        provider,
        tools: this.options.tools,
        store,
        logger: this.options.logger,
        maxTurns: this.options.maxTurns,
        usage: this.usage,
        emit,
      },
      history,
      controller.signal,
        );
      })
      .catch((error: unknown) => {
        // A failure outside the model and tools (e.g. the database): end the turn visibly.
        const message = error instanceof Error ? error.message : String(error);
        this.options.logger.error('turn failed in session %s: %s', this.id, message);
        emit({ type: 'turn.complete', text: '', status: 'error', error: message, usage: { ...this.usage } });
        return { status: 'error' as const, text: '', error: message };
      })
      .finally(() => {
        this.running = null;
      });
    this.running = { controller, done };
    return done;
  }

  /** Aborts the running turn (model stream and tool); its partial reply is kept. */
  interrupt(): boolean {
    if (!this.running) return false;
    this.running.controller.abort(new DOMException('interrupted by the user', 'AbortError'));
    return true;
  }

  /** Interrupts any turn, waits for it to settle, and marks the session ended. */
  async close(): Promise<void> {
    const running = this.running;
    if (running) {
      running.controller.abort(new DOMException('session closed', 'AbortError'));
      await running.done;
    }
    this.options.store.endSession(this.id);
  }
}
