import { array, boolean, enum as oneOf, nullable, number, optional, record, strictObject, string, type output } from 'zod/mini';
import { ApprovalModeSchema } from './approvals.ts';
import { UsageSchema } from './usage.ts';

/** A mistake in config.yaml or .env, found when the backend started. */
export const ConfigProblemInfoSchema = strictObject({
  /**
   * `syntax`: the file is not valid YAML (or not a mapping) and is ignored as a whole; `value`: one
   * setting is wrong and its default applies; `unknown_key`: nothing reads the key (a typo?); `unreadable`.
   */
  kind: oneOf(['syntax', 'value', 'unknown_key', 'unreadable']),
  /** One line: the file (and line), what is wrong, and the fix. */
  text: string(),
});
export type ConfigProblemInfo = output<typeof ConfigProblemInfoSchema>;

/**
 * One MCP server as `session.info.mcp_servers` shows it (Hermes's gateway shape); `mcp.list` adds its
 * transport, target and tool names (contract/mcp.ts `McpServerStatus`, rpc-server `McpServerStatusSchema`).
 */
export const McpServerSummarySchema = strictObject({
  name: string(),
  /** `connecting`: starting or retrying; `failed`: down (see `error`), retried with back-off; `disabled`: `enabled: false`. */
  status: oneOf(['connecting', 'connected', 'failed', 'disabled']),
  tool_count: number(),
  error: nullable(string()),
});
export type McpServerSummary = output<typeof McpServerSummarySchema>;

/** The `session.info` payload and the `info` field of session results: the session's current truth. */
export const SessionInfoSchema = strictObject({
  model: string(),
  provider: string(),
  /** True when this session talks to the scripted demo model, not a real one. */
  demo: optional(boolean()),
  /** Set when no usable model is configured: what the user must do (config problems included, as they may be why). */
  setup_hint: optional(string()),
  /** Mistakes in config.yaml or .env that hermes runs on despite; absent when there are none. */
  config_problems: optional(array(ConfigProblemInfoSchema)),
  base_url: optional(string()),
  cwd: string(),
  title: nullable(string()),
  stored_session_id: string(),
  toolsets: record(string(), array(string())),
  approval_mode: ApprovalModeSchema,
  yolo: boolean(),
  plugin_count: number(),
  usage: UsageSchema,
  /** Commands the terminal tool started in the background that are still running; absent when there are none. */
  background_tasks: optional(number()),
  /** The MCP servers of config.yaml and how each is doing; a `session.info` follows each change. */
  mcp_servers: optional(array(McpServerSummarySchema)),
  version: string(),
});
export type SessionInfo = output<typeof SessionInfoSchema>;
