import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import type { AgentSession } from '../agent/agentSession.ts';
import type { AgentEventSink } from '../agent/events.ts';
import type { SessionPrompts } from '../agent/sessionOptions.ts';
import { configValue } from '../config/configLookup.ts';
import type { ModelFlags } from '../config/resolveModel.ts';
import type { HermesRuntime } from '../runtime.ts';
import { withFreshSessionId } from '../sessions/sessionIds.ts';
import type { StoredSession } from '../sessions/sessionStore.ts';
import { ModelUnavailableError, SessionBusyError } from '../agent/agentErrors.ts';
import { ApprovalModeError, CompressInterruptedError, ModelValueError, withinLimit } from './sessionErrors.ts';
import { ParamLimit } from '../contract/limits.ts';
import type { ExportFormat } from '../contract/transcript.ts';
import { exportConversation, toTranscriptText } from './sessionExport.ts';
import type { SessionInfo } from '../contract/sessionInfo.ts';
import { APPROVAL_MODES } from '../contract/approvalNames.ts';
import type { ApprovalMode } from '../contract/approvals.ts';
import type { SessionFacts } from './sessionInfo.ts';
import { parseModelValue } from './modelValue.ts';

/** What of the runtime a live session's changes touch. */
export type SessionRuntime = Pick<
  HermesRuntime,
  'store' | 'loaded' | 'configProblems' | 'sessionModel' | 'openSession' | 'approvalMode' | 'setApprovalMode' | 'processes' | 'mcp'
>;

export interface OpenSessionInput {
  cwd: string;
  /** Where the session's events go; `session.info` included. */
  emit: AgentEventSink;
  prompts?: SessionPrompts;
  title?: string | null;
  /** The session's own model choice (session.create's flags, later `/model`). */
  overrides?: ModelFlags;
  resume?: StoredSession;
  parentId?: string | null;
  yolo?: boolean;
}

export interface CompressSummary {
  removed: number;
  beforeTokens: number;
  afterTokens: number;
  summary: string;
}

/**
 * The one owner of every change to a live session: model, yolo, approval mode, title, undo, retry,
 * branch, compress, close, export. Each change ends with a `session.info` event carrying the
 * session's current truth, so every client view (status line, Shift+Tab, `/status`) agrees.
 */
export class SessionService {
  readonly agent: AgentSession;
  private modelChoice: ModelFlags | undefined;
  /** Stops telling this session's client about its background processes (at close). */
  private readonly unwatchProcesses: () => void;

  private constructor(
    private readonly runtime: SessionRuntime,
    private readonly facts: SessionFacts,
    private readonly emit: AgentEventSink,
    input: OpenSessionInput,
  ) {
    this.modelChoice = input.overrides && Object.keys(input.overrides).length ? input.overrides : undefined;
    this.agent = runtime.openSession({
      cwd: input.cwd,
      emit,
      title: input.title ?? null,
      ...(this.modelChoice ? { overrides: this.modelChoice } : {}),
      ...(input.prompts ? { prompts: input.prompts } : {}),
      ...(input.resume ? { resume: input.resume } : {}),
      ...(input.parentId ? { parentId: input.parentId } : {}),
    });
    this.agent.yolo = input.yolo ?? false;
    // The status line counts background tasks: a process of this session starting or ending changes the info.
    this.unwatchProcesses = runtime.processes.onChange((sessionId) => {
      if (sessionId === this.agent.id) this.publishInfo();
    });
  }

  /** Opens (creates, resumes or branches) a session; sends no event. */
  static open(runtime: SessionRuntime, facts: SessionFacts, input: OpenSessionInput): SessionService {
    return new SessionService(runtime, facts, input.emit, input);
  }

  /** The stored session id (what `--resume` takes). */
  get id(): string {
    return this.agent.id;
  }

  get busy(): boolean {
    return this.agent.busy;
  }

  /** The model the user chose for this session, if any (kept to reopen it the same way). */
  get overrides(): ModelFlags | undefined {
    return this.modelChoice;
  }

  /** `provider:model` now in effect. */
  get modelLabel(): string {
    return `${this.agent.providerId}:${this.agent.modelName}`;
  }

  get yolo(): boolean {
    return this.agent.yolo;
  }

  get approvalMode(): ApprovalMode {
    return this.runtime.approvalMode;
  }

  private stored(): StoredSession | undefined {
    return this.runtime.store.getSession(this.agent.id);
  }

  /** What to configure so that the session can answer (config mistakes included, as they may be why); null when it can. */
  setupProblem(): string | null {
    const unavailable = this.agent.unavailable;
    return unavailable ? [...this.runtime.configProblems, unavailable].join('\n') : null;
  }

  info(): SessionInfo {
    const { agent } = this;
    const problem = this.setupProblem();
    const configProblems = this.facts.configProblems();
    const background = this.runtime.processes.running(agent.id);
    return {
      model: agent.modelName || '(none)',
      provider: agent.providerId || '(none)',
      ...(this.facts.demo ? { demo: true } : {}),
      ...(problem ? { setup_hint: problem } : {}),
      ...(configProblems.length ? { config_problems: configProblems } : {}),
      ...(agent.baseUrl ? { base_url: agent.baseUrl } : {}),
      cwd: agent.cwd,
      title: this.stored()?.title ?? null,
      stored_session_id: agent.id,
      toolsets: this.facts.toolsets(),
      approval_mode: this.approvalMode,
      yolo: agent.yolo,
      plugin_count: this.facts.pluginCount(),
      usage: { ...agent.usage },
      ...(background ? { background_tasks: background } : {}),
      // Hermes's gateway shape: the summary only (mcp.list has the targets and tool names).
      mcp_servers: this.runtime.mcp.statuses().map(({ name, status, tool_count, error }) => ({ name, status, tool_count, error })),
      version: this.facts.version,
    };
  }

  /** Sends `session.info` with the current truth. */
  publishInfo(): void {
    this.emit({ type: 'session.info', payload: this.info() });
  }

  /**
   * Switches model (`/model`, `config.set model`): at once when idle, after the running turn
   * otherwise; `session.info` follows the switch either way. Throws ModelValueError for a value that
   * names no model and ModelUnavailableError for one that cannot be used.
   */
  setModel(value: unknown): { value: string; deferred: boolean } {
    const flags = parseModelValue(value);
    if (!flags) throw new ModelValueError(value);
    const model = this.runtime.sessionModel(flags);
    if (!model.provider) throw new ModelUnavailableError(model.unavailable ?? 'That model cannot be used.');
    const { deferred } = this.agent.switchModel(model);
    this.modelChoice = flags;
    if (deferred) void this.agent.idle().then(() => this.publishInfo());
    else this.publishInfo();
    return { value: `${model.providerLabel}:${model.modelLabel}`, deferred };
  }

  setYolo(on: boolean): boolean {
    this.agent.yolo = on;
    this.publishInfo();
    return on;
  }

  toggleYolo(): boolean {
    return this.setYolo(!this.agent.yolo);
  }

  /** The modes that exist, for `/approvals` to offer. */
  get approvalModes(): readonly ApprovalMode[] {
    return APPROVAL_MODES;
  }

  /** Persists the approval mode (config.yaml `approvals.mode`) and applies it; throws ApprovalModeError for a mode that does not exist. */
  setApprovalMode(mode: string): ApprovalMode {
    const set = saveApprovalMode(this.runtime, mode);
    this.publishInfo();
    this.facts.sharedChange?.();
    return set;
  }

  get title(): string | null {
    return this.stored()?.title ?? null;
  }

  /** Sets the title (a StoreError when another session has it); `session.title` and `session.info` follow. */
  setTitle(title: string): string {
    const text = withinLimit('A title', title.trim(), ParamLimit.title);
    this.runtime.store.setTitle(this.agent.id, text);
    this.emit({ type: 'session.title', payload: { title: text } });
    this.publishInfo();
    return text;
  }

  /** Drops the last `turns` user turns (each with everything after it); `text` is the earliest removed prompt. Throws SessionBusyError during a turn. */
  undo(turns = 1): { removed: number; text: string } {
    this.agent.reloadPrompt();
    let removed = 0;
    let text = '';
    for (let i = 0; i < Math.max(1, turns); i += 1) {
      const step = this.runtime.store.undoLastTurn(this.agent.id);
      if (step.removed === 0) break;
      removed += 1;
      text = step.text;
    }
    if (removed > 0) this.publishInfo();
    return { removed, text };
  }

  /** `session.undo`: one turn, counted in messages as the store removed them. */
  undoMessages(): { removed: number; text: string } {
    this.agent.reloadPrompt();
    const step = this.runtime.store.undoLastTurn(this.agent.id);
    if (step.removed > 0) this.publishInfo();
    return step;
  }

  /** Drops the last exchange and returns its prompt for resending; null when nothing was sent yet. */
  retry(): string | null {
    const { removed, text } = this.undo(1);
    return removed > 0 ? text : null;
  }

  /** Copies this session into a new stored one (opening it is the caller's); refuses during a turn. */
  branch(name?: string): StoredSession {
    if (this.agent.busy) throw new SessionBusyError();
    return branchStored(this.runtime.store, this.agent.id, name === undefined ? name : withinLimit('A branch name', name, ParamLimit.title));
  }

  /**
   * `/compress`: holds the running slot while it summarizes; `interrupt()` stops it
   * (CompressInterruptedError, the conversation unchanged).
   */
  async compress(focusTopic?: string): Promise<CompressSummary> {
    let result;
    try {
      result = await this.agent.compress(focusTopic === undefined ? focusTopic : withinLimit('A focus topic', focusTopic, ParamLimit.answer));
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw new CompressInterruptedError();
      throw error;
    }
    this.publishInfo();
    return {
      removed: result?.removed ?? 0,
      beforeTokens: result?.beforeTokens ?? 0,
      afterTokens: result?.afterTokens ?? 0,
      summary: result?.summary ?? '',
    };
  }

  /** Stops the running turn or compression; what it stopped, or null when nothing ran. */
  interrupt(): 'turn' | 'compress' | null {
    const activity = this.agent.activity;
    return this.agent.interrupt() ? activity : null;
  }

  /** Stops this session's running `!cmd`s; how many, once each has answered. */
  stopShells(): Promise<number> {
    return this.agent.stopShells();
  }

  /** Kills this session's background processes; how many were stopped. */
  stopProcesses(): number {
    return this.runtime.processes.killAll(this.agent.id);
  }

  /** Ends the session: its turn and `!cmd`s are stopped and waited for, its approvals forgotten, its row ended. */
  close(reason?: string): Promise<void> {
    this.unwatchProcesses();
    return this.agent.close(reason);
  }

  /** Writes the conversation to `filename` (relative to the session's cwd) or `hermes-<id>.<format>`; returns the path. */
  export(format: ExportFormat, filename?: string): string {
    const stored = this.stored();
    if (!stored) throw new Error(`Session ${this.agent.id} is no longer in the store; nothing to export.`);
    const file = path.resolve(this.agent.cwd, filename ?? `hermes-${this.agent.id}.${format}`);
    fs.writeFileSync(file, exportConversation(format, stored, this.agent.history()));
    return file;
  }

  /** `/history`. */
  transcript(): string {
    return toTranscriptText(this.agent.history()) || '(no messages yet)';
  }

  /**
   * The configuration this session runs with, as YAML: config.yaml as hermes holds it now (with what
   * hermes wrote since it started), the session's model and provider, and the approval mode in force.
   */
  config(key?: string): string {
    const raw = this.runtime.loaded.config.raw;
    const model = raw.model !== null && typeof raw.model === 'object' ? (raw.model as Record<string, unknown>) : {};
    const approvals = raw.approvals !== null && typeof raw.approvals === 'object' ? (raw.approvals as Record<string, unknown>) : {};
    const live = {
      ...raw,
      model: { ...model, provider: this.agent.providerId, default: this.agent.modelName, ...(this.agent.baseUrl ? { base_url: this.agent.baseUrl } : {}) },
      approvals: { ...approvals, mode: this.approvalMode },
    };
    const value = configValue(live, key);
    return value === undefined ? `${key} is not set` : stringify(value).trimEnd();
  }

  /** `/usage`. */
  usage(): string {
    const u = this.agent.usage;
    const cost = u.cost_usd !== undefined ? `, $${u.cost_usd.toFixed(4)}` : '';
    return `${u.model}: ${u.calls} calls, ${u.input} in / ${u.output} out tokens, ${this.contextLine()}${cost}`;
  }

  /** How full the context window is: measured by the last model call, 0 before any. */
  private contextLine(): string {
    const u = this.agent.usage;
    const max = u.context_max ?? this.agent.contextMax;
    return `context ${u.context_used ?? 0}/${max} (${u.context_percent ?? 0}%)`;
  }

  /** `/status`: the stored id (as everywhere else), model, tokens, context, approvals. */
  status(): string {
    const { agent } = this;
    const u = agent.usage;
    const title = this.title;
    return [
      `session ${agent.id}${title ? ` "${title}"` : ''} · ${agent.busy ? 'running' : 'idle'}`,
      `model ${agent.providerId}:${agent.modelName} · cwd ${agent.cwd}`,
      `tokens ${u.input} in / ${u.output} out (${u.calls} calls) · ${this.contextLine()}`,
      `approvals ${this.approvalMode}${agent.yolo ? ' · YOLO' : ''} · plugins ${this.facts.pluginCount()}`,
    ].join('\n');
  }
}

/** Copies a stored session into a new one under a fresh id (`/branch`, `session.branch`). */
/**
 * The approval mode is every session's: persisted to config.yaml `approvals.mode` and applied from the
 * next check. Throws ApprovalModeError for a mode that does not exist. Callers tell the open sessions.
 */
export function saveApprovalMode(runtime: Pick<SessionRuntime, 'setApprovalMode'>, mode: string): ApprovalMode {
  const wanted = mode.trim().toLowerCase();
  if (!(APPROVAL_MODES as readonly string[]).includes(wanted)) throw new ApprovalModeError(mode, APPROVAL_MODES);
  runtime.setApprovalMode(wanted as ApprovalMode);
  return wanted as ApprovalMode;
}

export function branchStored(store: SessionRuntime['store'], sourceId: string, name?: string): StoredSession {
  const title = name?.trim();
  return withFreshSessionId(store, (id) => store.branchSession(sourceId, id, title ? { title } : {}));
}
