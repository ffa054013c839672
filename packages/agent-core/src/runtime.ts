import path from 'node:path';
import { AgentSession } from './agent/agentSession.ts';
import type { AgentEventSink } from './agent/events.ts';
import { hermesHome } from './config/hermesHome.ts';
import { formatProblem, loadConfig, type LoadedConfig } from './config/loadConfig.ts';
import { resolveModel, type ModelFlags, type ModelResolution } from './config/resolveModel.ts';
import { createFileLogger, type Logger } from './logging/logger.ts';
import { OpenAICompatibleProvider } from './providers/openaiProvider.ts';
import type { ChatProvider } from './providers/types.ts';
import { SessionStore } from './sessions/sessionStore.ts';
import { readFileTool } from './tools/readFile.ts';
import { ToolRegistry } from './tools/registry.ts';

export interface RuntimeOptions {
  home?: string;
  env?: NodeJS.ProcessEnv;
  flags?: ModelFlags;
  logger?: Logger;
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
  readonly store: SessionStore;
  readonly logger: Logger;
  private readonly env: Record<string, string | undefined>;
  private readonly flags: ModelFlags;

  constructor(options: RuntimeOptions = {}) {
    const env = options.env ?? process.env;
    this.home = options.home ?? hermesHome(env);
    this.logger = options.logger ?? createFileLogger(path.join(this.home, 'logs', 'backend.log'));
    this.loaded = loadConfig(this.home);
    for (const problem of this.loaded.problems) this.logger.warn('config: %s', formatProblem(problem));
    // The process environment wins over $HERMES_HOME/.env.
    this.env = { ...this.loaded.dotenv, ...env };
    this.flags = options.flags ?? {};
    this.model = resolveModel(this.loaded.config, this.env, this.flags, this.home);
    this.tools = new ToolRegistry();
    this.tools.register(readFileTool);
    this.store = SessionStore.open(path.join(this.home, 'state.db'));
  }

  /** Problems in config.yaml or .env, one line each; hermes runs on with defaults meanwhile. */
  get configProblems(): string[] {
    return this.loaded.problems.map(formatProblem);
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
  }): AgentSession {
    const resolution =
      input.overrides && Object.keys(input.overrides).length > 0
        ? resolveModel(this.loaded.config, this.env, { ...this.flags, ...input.overrides }, this.home)
        : this.model;
    const provider: ChatProvider | null = resolution.ok
      ? new OpenAICompatibleProvider(resolution.model, this.loaded.config.agent.api_max_retries)
      : null;
    return new AgentSession({
      store: this.store,
      tools: this.tools,
      provider,
      unavailable: resolution.ok ? undefined : resolution.problem,
      modelLabel: resolution.ok ? resolution.model.model : resolution.model,
      providerLabel: resolution.ok ? resolution.model.provider : resolution.provider,
      cwd: input.cwd,
      maxTurns: this.loaded.config.agent.max_turns,
      logger: this.logger,
      emit: input.emit,
      title: input.title,
      source: input.source,
    });
  }

  close(): void {
    this.store.close();
  }
}
