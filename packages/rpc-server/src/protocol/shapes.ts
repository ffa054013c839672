/**
 * Shapes that method results share, as zod/mini schemas with their types derived. Results are strict:
 * a field the schema does not name is a disagreement (see the result check in docs/wire.md). Those
 * agent-core shares (SessionInfo, Usage, approvals, commands, completions, toolsets) are in its contract.
 */
import { McpServerSummarySchema, RoleSchema } from '@hermes/agent-core/contract';
import { array, boolean, enum as oneOf, extend, nullable, number, optional, strictObject, string, type output } from 'zod/mini';

// A transcript message is agent-core's too (the session service exports it): it lives in the contract.
export { RoleSchema, ToolCallRecordSchema, TranscriptMessageSchema, type Role, type ToolCallRecord, type TranscriptMessage } from '@hermes/agent-core/contract';

export const SessionSummarySchema = strictObject({
  id: string(),
  title: nullable(string()),
  preview: string(),
  started_at: number(),
  /** When the session last had a message (epoch seconds). */
  last_active: optional(number()),
  message_count: number(),
  source: string(),
});
export type SessionSummary = output<typeof SessionSummarySchema>;

export const SearchHitSchema = strictObject({
  session_id: string(),
  title: nullable(string()),
  role: RoleSchema,
  snippet: string(),
  timestamp: number(),
});
export type SearchHit = output<typeof SearchHitSchema>;

export const PluginDescriptorSchema = strictObject({
  name: string(),
  key: string(),
  version: string(),
  source: oneOf(['user', 'project', 'npm']),
  enabled: boolean(),
  tools: number(),
  hooks: number(),
  middleware: number(),
  commands: number(),
  error: nullable(string()),
  /** It should have loaded and did not (bad manifest, import or register() error, time-out): not a config refusal nor a Python plugin. */
  failed: optional(boolean()),
  /** Its manifest's `requires_env` entries set neither in the environment nor in `$HERMES_HOME/.env` (it loads anyway). */
  missing_env: optional(array(strictObject({ name: string(), description: optional(string()) }))),
  /**
   * Only from a backend started with `--discover-plugins-only` (which imports no plugin): the counts
   * are those of the last start that loaded the plugin (`last_start`), or not known (`unknown`, all 0).
   */
  counts_from: optional(oneOf(['last_start', 'unknown'])),
});
export type PluginDescriptor = output<typeof PluginDescriptorSchema>;

/**
 * One line of `hermes doctor`: `fail` makes it exit 1 and always has a `fix`; `warn` (works, but should
 * be looked at) usually has one; `info` is for the record (a Hermes key hermes does not implement).
 */
export const DoctorCheckSchema = strictObject({
  name: string(),
  status: oneOf(['ok', 'warn', 'fail', 'info']),
  detail: string(),
  fix: optional(string()),
});
export type DoctorCheck = output<typeof DoctorCheckSchema>;

/** A stored session as `session.history` describes one it read without opening. */
export const StoredSessionInfoSchema = strictObject({
  id: string(),
  title: nullable(string()),
  model: nullable(string()),
  provider: nullable(string()),
  cwd: nullable(string()),
  started_at: number(),
  source: string(),
});
export type StoredSessionInfo = output<typeof StoredSessionInfoSchema>;

/** An MCP server as `mcp.list` reports it: the `session.info` summary plus how it is reached and its tools. */
export const McpServerStatusSchema = extend(McpServerSummarySchema, {
  /** `sse`: a URL server that only speaks the older SSE transport. */
  transport: oneOf(['stdio', 'http', 'sse']),
  /** The command line or URL, without env or header values. */
  target: string(),
  /** Registered tool names (`mcp_<server>_<tool>`). */
  tools: array(string()),
  /** What the user should know about a working server: `toolsets` leaves its tools out, tools.include names no tool. */
  note: optional(string()),
});

/** `mcp.test`: one connection to one configured server, its tools listed, then closed. */
export const McpTestResultSchema = strictObject({
  ok: boolean(),
  /** The server's tools by their own names (before include/exclude). */
  tools: array(string()),
  /** From the start of the connection to the tool list. */
  latency_ms: number(),
  error: optional(string()),
});
