/**
 * What the backend accepts on the wire, beyond the 16 MiB line cap (`MAX_LINE_BYTES`). A frame or a
 * field past one of these is refused before any work is done, with an error naming the limit.
 */

/** A batch (a JSON array of frames) longer than this is refused whole with -32600. */
export const MAX_BATCH_SIZE = 1000;
/** A string id longer than this is refused with -32600 (an id is echoed in every answer). */
export const MAX_ID_LENGTH = 1024;
/**
 * Output waiting for the client past which the backend stops reading its input, until the client has
 * read it down to a quarter: a client that pipelines requests without ever reading the answers finds
 * its further requests waiting in the pipe, not in the backend's memory. Generous, so that a client
 * that writes a large batch of requests before it starts reading is still served.
 */
export const MAX_OUTPUT_BACKLOG_BYTES = 256 * 1024 * 1024;
/** A method name longer than this is refused with -32600 (no method is nearly this long). */
export const MAX_METHOD_LENGTH = 256;

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
} as const;
