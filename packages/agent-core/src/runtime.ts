import path from 'node:path';
import { AgentSession } from './agent/agentSession.ts';
import type { AgentEventSink } from './agent/events.ts';
import { hermesHome, judgeHomes } from './config/hermesHome.ts';
import { formatProblem, loadConfig, type HermesConfig, type LoadedConfig } from './config/loadConfig.ts';
import { resolveModel, type ModelFlags, type ModelResolution } from './config/resolveModel.ts';
import { createFileLogger, type Logger } from './logging/logger.ts';
import { createProvider } from './providers/createProvider.ts';
import { findPreset } from './providers/presets.ts';
import { resolveAuxiliaryModel } from './config/resolveModel.ts';
import { resolveContextWindow } from './context/contextWindows.ts';
import { ContextCompressor } from './context/contextCompressor.ts';
import type { ContextEngine } from './context/contextEngine.ts';
import { SessionStore, StoreError, type StoredSession } from './sessions/sessionStore.ts';
import { sessionStoreLocation } from './sessions/storeLocation.ts';
import { ApprovalGate } from './approvals/approvalGate.ts';
import { appendToConfigList, setConfigValue } from './config/configWriter.ts';
import { setInConfig } from './config/configLookup.ts';
import { ProcessRegistry } from './processes/processRegistry.ts';
import { groupWatchdog } from './processes/shellProcess.ts';
import { registerBuiltinTools } from './tools/builtins.ts';
import { TodoList } from './tools/todoList.ts';
import { SkillCatalog } from './skills/skillCatalog.ts';
import { ToolRegistry } from './tools/registry.ts';
import { McpManager } from './mcp/mcpManager.ts';
import type { ToolSettings } from './tools/types.ts';
import { NO_PROMPTS, type SessionModel, type SessionPrompts } from './agent/sessionOptions.ts';
import { shellExec, type ShellExecResult } from './agent/shellExec.ts';
import { NO_EXTENSIONS, type ExtensionPort } from './extensions/extensionPort.ts';
import { passedValues, rememberSecrets, secretValuesInConfig } from './secrets/processSecrets.ts';
import { toolEnvironment } from './secrets/toolEnvironment.ts';
import type { ChatProvider } from './providers/types.ts';

/** The first line of a multi-line problem (the rest is setup instructions for the main model). */
const firstLine = (text: string) => text.split('\n')[0]!;

export interface RuntimeOptions {
  home?: string;
  env?: NodeJS.ProcessEnv;
  flags?: ModelFlags;
  logger?: Logger;
  /** Where plugins plug in (plugin-host implements it); nothing by default. */
  extensions?: ExtensionPort;
  /**
   * false: the session store is neither opened nor created (`hermes doctor` must not create state.db in
   * a home that has none); `store` then throws. Default true.
   */
  openStore?: boolean;
}

/**
 * Everything a front end needs to run sessions: settings, the model, tools, the store. Config
 * problems and a missing model do not stop it; they are reported through `problems`/`unavailable`.
 */
export class HermesRuntime {
  readonly home: string;
  readonly loaded: LoadedConfig;
  readonly model: ModelResolution;
  readonly tools: ToolRegistry;
  private readonly openedStore: SessionStore | undefined;
  /** The session store; throws in a runtime made with `openStore: false`. */
  get store(): SessionStore {
    if (!this.openedStore) throw new StoreError('This hermes-rpc was started with --no-session-store (for hermes doctor): it keeps no sessions.');
    return this.openedStore;
  }
  readonly logger: Logger;
  readonly gate: ApprovalGate;
  /** MCP servers as tools; created here from config.yaml, started by the front end once it is ready. */
  readonly mcp: McpManager;
  /** Smart approval's guardian model (`auxiliary.approval`), or why it cannot be used; absent: each session's own model. */
  private readonly guardianModel: ChatProvider | { unavailable: string } | undefined;
  /** The homes the gate judges against (for `approvals.check` too). */
  get judgeHomes(): { home: string; hermesHome: string } {
    return judgeHomes(this.home, this.env);
  }
  /** User skills (`$HERMES_HOME/skills/`) and plugin skills, for the skill tools and the system prompt. */
  readonly skills: SkillCatalog;
  /** Background processes started by the terminal tool, across sessions. */
  readonly processes = new ProcessRegistry();
  readonly settings: ToolSettings;
  extensions: ExtensionPort;
  /** The built-in context engine, used whenever no plugin provides one. */
  readonly builtinContextEngine: ContextEngine = new ContextCompressor();
  private pluginContextEngine: ContextEngine | null = null;
  private readonly env: Record<string, string | undefined>;
  private readonly flags: ModelFlags;

  constructor(options: RuntimeOptions = {}) {
    const env = options.env ?? process.env;
    this.home = options.home ?? hermesHome(env);
    this.logger = options.logger ?? createFileLogger(path.join(this.home, 'logs', 'backend.log'));
    groupWatchdog.onProblem = (message) => this.logger.warn('processes: %s', message);
    this.loaded = loadConfig(this.home);
    // Before anything is logged or run: the redactor must know the .env values.
    // A variable passed to commands on purpose is still a secret in what hermes shows (docs/secrets.md).
    const passed = Object.fromEntries(this.loaded.config.terminal.env_passthrough.map((name) => [name, env[name] ?? this.loaded.dotenv[name]]));
    rememberSecrets(env, this.loaded.dotenv, [...secretValuesInConfig(this.loaded.config.raw), ...passedValues(passed)]);
    for (const problem of this.loaded.problems) this.logger.warn('config: %s', formatProblem(problem));
    // The process environment wins over $HERMES_HOME/.env.
    this.env = { ...this.loaded.dotenv, ...env };
    this.flags = options.flags ?? {};
    this.model = resolveModel(this.loaded.config, this.env, this.flags, this.home);
    const config = this.loaded.config;
    this.extensions = options.extensions ?? NO_EXTENSIONS;
    this.tools = new ToolRegistry({ env: this.env });
    registerBuiltinTools(this.tools);
    for (const problem of this.toolsetProblems) this.logger.warn('tools: %s', problem);
    this.settings = {
      terminalTimeoutS: config.terminal.timeout,
      maxBytes: config.tool_output.max_bytes,
      maxLines: config.tool_output.max_lines,
      env: toolEnvironment(env, { dotenvNames: Object.keys(this.loaded.dotenv), passthrough: config.terminal.env_passthrough, values: this.env }),
    };
    this.mcp = new McpManager({
      servers: config.mcp_servers,
      discoveryTimeoutS: config.mcp_discovery_timeout,
      registry: this.tools,
      env: this.env,
      logger: this.logger,
      toolsets: () => this.toolsets,
      // stdio servers start from the tool environment (no provider keys or .env values) plus their own `env`.
      ...(this.settings.env ? { childEnv: this.settings.env } : {}),
    });
    // state.db, or hermes-node.db beside Hermes's own state.db (sessions/storeLocation.ts).
    this.openedStore = options.openStore === false ? undefined : SessionStore.open(sessionStoreLocation(this.home).file);
    this.skills = new SkillCatalog({ onWarning: (warning) => this.logger.warn('skills: %s', warning) });
    for (const problem of this.skills.loadUserSkills(this.home)) this.logger.warn('skills: %s: %s', problem.path, problem.message);
    const guardian = resolveAuxiliaryModel(config.auxiliary.approval, config, this.env, this.flags, this.home);
    if (guardian && !guardian.ok) this.logger.warn('auxiliary.approval: %s', guardian.problem);
    this.guardianModel = guardian ? (guardian.ok ? createProvider(guardian.model) : { unavailable: firstLine(guardian.problem) }) : undefined;
    this.gate = new ApprovalGate({
      mode: config.approvals.mode,
      denialBreakerThreshold: config.approvals.denial_breaker_threshold,
      allowlist: config.command_allowlist,
      timeoutMs: config.approvals.timeout * 1000,
      persistAlways: (key) => this.appendConfig('command_allowlist', key),
      record: (decision) => {
        // shell.exec without a session has no row to attach the decision to: it goes to the log.
        if (this.store.getSession(decision.sessionId)) this.store.recordApproval(decision);
        else this.logger.info('approval decision outside a session: %s', JSON.stringify(decision));
      },
      ...this.judgeHomes,
      onError: (message, error) => this.logger.error('approvals: %s: %s', message, error),
    });
  }

  /**
   * Writes a dotted key to config.yaml and to the config in memory, so what hermes shows (`/config`,
   * `config.get`) is what the file now says. `undefined` removes the key. Throws ConfigWriteError.
   */
  writeConfig(key: string, value: unknown): void {
    setConfigValue(this.home, key, value);
    setInConfig(this.loaded.config.raw, key, value);
  }

  /** Appends to a top-level list in config.yaml and in memory (`command_allowlist` after "always"). */
  appendConfig(key: 'command_allowlist', value: string): void {
    appendToConfigList(this.home, key, value);
    const list = this.loaded.config[key];
    if (!list.includes(value)) list.push(value);
    const raw = this.loaded.config.raw[key];
    if (Array.isArray(raw)) {
      if (!raw.includes(value)) raw.push(value);
    } else this.loaded.config.raw[key] = [...list];
  }

  get approvalMode(): HermesConfig['approvals']['mode'] {
    return this.loaded.config.approvals.mode;
  }

  /** Sets the persistent approval mode: config.yaml `approvals.mode`, the config in memory and the gate. */
  setApprovalMode(mode: HermesConfig['approvals']['mode']): void {
    this.writeConfig('approvals.mode', mode);
    this.loaded.config.approvals.mode = mode;
    this.gate.setMode(mode);
  }

  /** Compresses long prompts: a plugin's engine (plugin-host's registerContextEngine) or the built-in one. */
  get contextEngine(): ContextEngine {
    return this.pluginContextEngine ?? this.builtinContextEngine;
  }

  /** After a plugin (re)load: the engine a plugin registered, or null to fall back to the built-in one. */
  usePluginContextEngine(engine: ContextEngine | null): void {
    this.pluginContextEngine = engine;
  }

  /** Unknown toolsets and unavailable tools, as the registry is now (a plugin reload adds and removes toolsets). */
  private get toolsetProblems(): string[] {
    return this.tools.enabledFor(this.loaded.config.toolsets).problems;
  }

  /** Problems in config.yaml or .env, one line each; hermes runs on with defaults meanwhile. */
  get configProblems(): string[] {
    return [...this.loaded.problems.map(formatProblem), ...this.toolsetProblems];
  }

  /** The toolsets offered to the model (`toolsets:` in config.yaml; all when absent). */
  get toolsets(): string[] | undefined {
    return this.loaded.config.toolsets;
  }

  /**
   * The model for a session: `overrides` (the session's own choice) win over the command-line flags,
   * which win over config.yaml. Never throws: a model that cannot be used says why.
   */
  sessionModel(overrides?: ModelFlags): SessionModel {
    const resolution =
      overrides && Object.keys(overrides).length > 0
        ? resolveModel(this.loaded.config, this.env, { ...this.flags, ...overrides, ...this.presetUrlFor(overrides) }, this.home)
        : this.model;
    if (!resolution.ok) {
      return {
        provider: null,
        unavailable: resolution.problem,
        modelLabel: resolution.model,
        providerLabel: resolution.provider,
        contextMax: resolveContextWindow(resolution.model, this.loaded.config.model.context_length).tokens,
      };
    }
    return {
      provider: createProvider(resolution.model),
      modelLabel: resolution.model.model,
      providerLabel: resolution.model.provider,
      contextMax: resolveContextWindow(resolution.model.model, this.loaded.config.model.context_length).tokens,
    };
  }

  /**
   * A session that picks another provider than hermes runs with (`/model openrouter:x`) talks to that
   * provider's own endpoint: the --base-url or model.base_url set for the first one (and its API key
   * with it) is not where the other provider lives. `custom` has no endpoint of its own and keeps it.
   */
  private presetUrlFor(overrides: ModelFlags): { baseUrl?: string } {
    const current = this.model.ok ? this.model.model.provider : this.model.provider;
    if (!overrides.provider || overrides.baseUrl || overrides.provider === current) return {};
    const url = findPreset(overrides.provider)?.baseUrl;
    return url ? { baseUrl: url } : {};
  }

  /**
   * Opens a new session. `overrides` (a session's own model or provider) take precedence over the
   * command-line flags, which take precedence over config.yaml.
   */
  openSession(input: {
    cwd: string;
    emit: AgentEventSink;
    title?: string | null;
    source?: string;
    overrides?: ModelFlags;
    prompts?: SessionPrompts;
    /** Continue a stored session (its cwd and model stay as the caller passes them). */
    resume?: StoredSession;
    /** A branch: the stored session it was copied from. */
    parentId?: string | null;
  }): AgentSession {
    const model = this.sessionModel(input.overrides);
    const { input_cost_per_million: inputCost, output_cost_per_million: outputCost } = this.loaded.config.model;
    const pricing = inputCost !== undefined || outputCost !== undefined ? { input: inputCost ?? 0, output: outputCost ?? 0 } : undefined;
    return new AgentSession({
      store: this.store,
      tools: this.tools,
      toolsets: this.toolsets,
      // Read live: open sessions see a plugin reload's tools and engine from their next turn.
      toolSchemas: () => this.tools.schemas(this.toolsets),
      // The first model call of a turn waits (at most mcp_discovery_timeout) for MCP servers still connecting.
      toolsReady: () => this.mcp.whenDiscovered(),
      gate: this.gate,
      prompts: input.prompts ?? NO_PROMPTS,
      home: this.home,
      settings: this.settings,
      processes: this.processes,
      skills: this.skills,
      extensions: this.extensions,
      retry: {
        maxRetries: this.loaded.config.agent.api_max_retries,
        baseDelayMs: this.loaded.config.agent.retry_base_delay * 1000,
        maxDelayMs: 60_000,
      },
      stallTimeoutMs: this.loaded.config.agent.stream_stall_timeout * 1000,
      ...(pricing ? { pricing } : {}),
      contextEngine: () => this.contextEngine,
      compression: this.loaded.config.compression,
      model,
      cwd: input.cwd,
      maxTurns: this.loaded.config.agent.max_turns,
      logger: this.logger,
      emit: input.emit,
      title: input.title,
      source: input.source,
      ...(input.resume ? { resume: input.resume } : {}),
      ...(input.parentId ? { parentId: input.parentId } : {}),
      guardian: { ...(this.guardianModel ? { model: this.guardianModel } : {}), timeoutMs: this.loaded.config.auxiliary.approval.timeout * 1000 },
    });
  }

  /** A plugin's `dispatchTool`: runs a registered tool outside any turn and returns its result text. */
  async dispatchTool(name: string, args: Record<string, unknown>): Promise<string> {
    const outcome = await this.tools.run(name, JSON.stringify(args ?? {}), {
      cwd: process.cwd(),
      sessionId: 'plugin',
      home: this.home,
      settings: this.settings,
      processes: this.processes,
      skills: this.skills,
      todos: new TodoList(),
      sessions: this.store,
      signal: new AbortController().signal,
    });
    return outcome.result;
  }

  /** A shell command outside any session: nobody can be asked, so dangerous commands are denied. */
  shellExec(command: string, cwd: string): Promise<ShellExecResult> {
    return shellExec({
      command,
      cwd,
      sessionId: 'shell',
      yolo: false,
      gate: this.gate,
      ask: NO_PROMPTS.approval,
      settings: this.settings,
    });
  }

  close(): void {
    // Ends the stdio servers' process groups at once (close's synchronous part); the exit hook and the watchdog back it up.
    void this.mcp.close().catch((error: unknown) => this.logger.warn('mcp: closing the servers failed: %s', error));
    this.processes.killAll();
    this.openedStore?.close();
  }
}
