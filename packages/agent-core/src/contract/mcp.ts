/**
 * MCP server statuses as the wire shows them (`/mcp`, `session.info.mcp_servers`, `hermes mcp list`).
 * Zod-free: the protocol's schemas describe the same shape.
 */

/** `connecting`: starting or retrying; `failed`: down (see `error`), retried with back-off; `disabled`: `enabled: false`. */
export type McpServerState = 'connecting' | 'connected' | 'failed' | 'disabled';

export interface McpServerStatus {
  name: string;
  status: McpServerState;
  /** Tools registered from this server now (0 while it is down). */
  tool_count: number;
  /** Why it is down: the server, its command or URL, and the last lines of its stderr; null when it is not. */
  error: string | null;
  /** `sse`: a URL server that only speaks the older SSE transport. */
  transport: 'stdio' | 'http' | 'sse';
  /** The command line or URL, without env or header values. */
  target: string;
  /** Registered tool names (`mcp_<server>_<tool>`). */
  tools: string[];
  /** What the user should know about a working server: `toolsets` leaves its tools out, tools.include names no tool. */
  note?: string;
}
