/** Limits both sides of the wire hold to; zod-free. */

/**
 * Caps on request fields, in UTF-16 code units (JavaScript string length) or, for `*_items`, list
 * entries. A field over its cap is answered with -32602 naming the field and the cap.
 */
export const ParamLimit = {
  /** Session ids (live or stored), stored titles used as ids, request ids of prompts. */
  id: 256,
  /** `session.search` and `session.list` queries: FTS queries are short; long ones only cost. */
  query: 4096,
  /** Titles and branch names. */
  title: 512,
  /** `prompt.submit` text and `slash.exec` commands: a large paste, far beyond any context window. */
  text: 4 * 1024 * 1024,
  /** `shell.exec` and `approvals.check` commands: Linux refuses a single argument over 128 KiB. */
  command: 128 * 1024,
  /** Paths (`cwd`, `write_path`, `complete.path` word) and `complete.slash` text. */
  path: 4096,
  /** Model and provider names, config keys. */
  name: 256,
  /** `clarify.respond` answers and `session.compress` focus topics. */
  answer: 64 * 1024,
  /** `cli.exec` argv entries. */
  argv_items: 1000,
  /** `limit` of `session.list` and `session.search`. */
  limit: 10_000,
  /** `cols` of `session.create` / `session.resume`. */
  cols: 10_000,
  /** `wait_ms` of `mcp.list`: ten minutes, past any server's connect timeout worth waiting for. */
  wait_ms: 600_000,
} as const;
