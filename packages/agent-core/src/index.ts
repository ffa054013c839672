/** hermes agent core: the loop, providers, tools, sessions and config. Knows nothing of JSON-RPC or plugins. */
export { HermesRuntime, type RuntimeOptions } from './runtime.ts';
export { ErrorCode } from './contract/errorCodes.ts';
export { HermesError, SessionNotFoundError, UsageError, type HermesErrorOptions } from './contract/errors.ts';
export { AgentSession } from './agent/agentSession.ts';
export { SessionBusyError, ModelUnavailableError } from './agent/agentErrors.ts';
export { NO_PROMPTS, type SessionPrompts } from './agent/sessionOptions.ts';
export { newStoredSessionId, withFreshSessionId } from './sessions/sessionIds.ts';
export type { AgentEvent, AgentEventSink, SessionUsage, TurnStatus } from './agent/events.ts';
export { runTurn, budgetEndLine, BUDGET_NOTICE, EMPTY_NUDGE, type TurnResult } from './agent/agentLoop.ts';
export {
  NO_EXTENSIONS,
  firstBlock,
  collectContext,
  firstString,
  HOOK_NAMES,
  MIDDLEWARE_KINDS,
  OBSERVER_SCHEMA_VERSION,
  MIDDLEWARE_SCHEMA_VERSION,
  type ExtensionPort,
  type HookName,
  type MiddlewareKind,
  type RunContext,
  type TraceEntry,
} from './extensions/extensionPort.ts';
export { describeWriteFailure, hermesHome, judgeHomes, makeDirs, shellPath } from './config/hermesHome.ts';
export { loadConfig, formatProblem, type HermesConfig, type LoadedConfig, type ConfigProblem, type ConfigProblemKind } from './config/loadConfig.ts';
export { namesEmptyModel, resolveModel, setupInstructions, type ModelFlags, type ResolvedModel } from './config/resolveModel.ts';
export { createFileLogger, createStderrLogger, silentLogger, type Logger } from './logging/logger.ts';
export { PROVIDER_PRESETS, findPreset } from './providers/presets.ts';
export { OpenAICompatibleProvider } from './providers/openaiProvider.ts';
export type { ChatMessage, ChatProvider, ChatResponse, ToolCall, ToolSchema } from './providers/types.ts';
export { ProviderError } from './providers/types.ts';
export {
  SessionStore,
  StoreError,
  explainStoreFailure,
  isDiskWriteFailure,
  type StoreProblem,
  toChatMessages,
  sanitizeFtsQuery,
  type StoredMessage,
  type StoredSession,
  type SessionSummary,
  type SearchHit,
  type SearchResult,
} from './sessions/sessionStore.ts';
export { isSqliteFailure } from './sessions/storeError.ts';
export { OWN_DB, STATE_DB, sessionStoreLocation, stateDbKind, type StateDbKind, type StoreLocation } from './sessions/storeLocation.ts';
export { inspectSessionStore, type StoreInspection } from './sessions/storeInspection.ts';
export { ToolRegistry, TOOL_ERROR_PREFIX } from './tools/registry.ts';
export type { ToolContext, ToolDefinition, ToolOutcome, ToolSettings } from './tools/types.ts';
export { registerBuiltinTools, BUILTIN_TOOLS } from './tools/builtins.ts';
export { TodoList } from './tools/todoList.ts';
export { ProcessRegistry, type ProcessInfo } from './processes/processRegistry.ts';
export { ApprovalGate } from './approvals/approvalGate.ts';
export { judgeCommand, judgeWrite } from './approvals/judgeOnDemand.ts';
export { useGrammarDir } from './approvals/bashParser.ts';
export {
  APPROVAL_CHOICES,
  type ApprovalChoice,
  type ApprovalQuestion,
  type ApprovalSubject,
  type AskApproval,
  type Finding,
  type JudgeContext,
  type Level,
  type Verdict,
} from './approvals/types.ts';
export { appendToConfigList, setConfigValue, ConfigWriteError } from './config/configWriter.ts';
export * from './context/index.ts';
export { createProvider } from './providers/createProvider.ts';
export type { SessionModel } from './agent/sessionOptions.ts';
export * from './commands/index.ts';
export * from './skills/index.ts';
export { knownSecrets, redactSecrets, redactSecretsDeep, rememberSecrets } from './secrets/processSecrets.ts';
export { Redactor, REDACTED } from './secrets/redactor.ts';
export * from './liveSession/index.ts';
export { configValue } from './config/configLookup.ts';
export * from './mcp/index.ts';
export type { McpServerState, McpServerStatus } from './contract/mcp.ts';
