/** What an agent session is built from: its store and tools, how it asks its human, and its model. */
import type { Logger } from '../logging/logger.ts';
import type { ApprovalGate } from '../approvals/approvalGate.ts';
import type { AskApproval } from '../approvals/types.ts';
import type { ProcessRegistry } from '../processes/processRegistry.ts';
import type { SkillCatalog } from '../skills/skillCatalog.ts';
import type { ExtensionPort } from '../extensions/extensionPort.ts';
import type { ChatProvider, ToolSchema } from '../providers/types.ts';
import type { ContextEngine } from '../context/contextEngine.ts';
import type { CompressionSettings } from './compression.ts';
import type { RetryPolicy } from './retry.ts';
import type { ToolSettings } from '../tools/types.ts';
import type { SessionStore, StoredSession } from '../sessions/sessionStore.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import type { AgentEventSink } from './events.ts';

/** How a session asks its human; the front end (rpc-server) supplies these. */
export interface SessionPrompts {
  approval: AskApproval;
  /** Resolves the answer, or null when nobody can answer. */
  clarify: (question: string, choices: string[] | undefined, signal: AbortSignal) => Promise<string | null>;
}

/** Asks nobody: approvals are denied and questions go unanswered (headless use, tests). */
export const NO_PROMPTS: SessionPrompts = {
  approval: async () => 'deny',
  clarify: async () => null,
};

/** Which model a session talks to, or why it cannot talk to any. */
export interface SessionModel {
  /** Null when no model is configured; `unavailable` then says how to configure one. */
  provider: ChatProvider | null;
  unavailable?: string;
  modelLabel: string;
  providerLabel: string;
  /** The model's context window (tokens), for usage percentages and compression. */
  contextMax: number;
}

export interface AgentSessionOptions {
  store: SessionStore;
  tools: ToolRegistry;
  /** The session's toolset selection; undefined means all. */
  toolsets: string[] | undefined;
  /**
   * The tool schemas offered to the model, read at the start of every turn (and by `/compress`): a
   * plugin reload changes them for sessions already open.
   */
  toolSchemas: () => ToolSchema[];
  gate: ApprovalGate | null;
  prompts: SessionPrompts;
  home: string;
  settings: ToolSettings;
  processes: ProcessRegistry;
  skills: SkillCatalog;
  extensions: ExtensionPort;
  retry: RetryPolicy;
  stallTimeoutMs: number;
  /**
   * Resolves when tools still being discovered (MCP servers connecting) are in, or when waiting longer
   * is not worth it (mcp_discovery_timeout): the first model call of each turn waits for it.
   */
  toolsReady?: () => Promise<void>;
  /** The context engine, read like `toolSchemas`: a reload may replace a plugin's engine or restore the built-in. */
  contextEngine: () => ContextEngine;
  compression: CompressionSettings;
  /** USD per million tokens, when configured. */
  pricing?: { input: number; output: number };
  /** The model at the start; `switchModel` changes it for later turns. */
  model: SessionModel;
  cwd: string;
  maxTurns: number;
  logger: Logger;
  emit: AgentEventSink;
  source?: string;
  title?: string | null;
  /** Continue this stored session instead of creating one. */
  resume?: StoredSession;
  /** For a branch: the session it was copied from. */
  parentId?: string | null;
  /** Smart approval's guardian: its own model (`auxiliary.approval`; absent: the session's model) and timeout. */
  guardian?: { model?: ChatProvider | { unavailable: string }; timeoutMs: number };
}
