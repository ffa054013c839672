/**
 * JSON-RPC and hermes error codes (see PROTOCOL.md, "Error codes", and docs/wire.md for which frame
 * gets which). An answer to a frame whose id cannot be read carries `id: null`.
 */
export const ErrorCode = {
  /** The line is not JSON, or is longer than MAX_LINE_BYTES. */
  ParseError: -32700,
  /**
   * Not a JSON-RPC 2.0 frame: an id that is not a string, number or null (answered with id null),
   * `jsonrpc` other than "2.0", a bad shape, an id still in use by a request in progress, an empty
   * or oversized batch.
   */
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  /** A param missing, of the wrong type, or over its ParamLimit; `data.field` names it. */
  InvalidParams: -32602,
  /** A bug or an unforeseen failure: the backend log has the stack. */
  InternalError: -32603,
  SessionNotFound: 4001,
  /** The caller's mistake: an empty prompt or command, a title another session has, a bad config value. */
  UsageError: 4004,
  SessionBusy: 4009,
  NotACommand: 4018,
  /** The session store (state.db), config.yaml or the disk under them failed; the message names the file and the fix. */
  StorageError: 5007,
  /** No model can be used, or the model call a method needed failed: the message says what to configure or check. */
  AgentUnavailable: 5032,
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
