/**
 * Error codes on the wire and the base class every hermes error extends. Part of the contract leaf:
 * imports nothing, so the TUI reaches it through `@hermes/rpc-server/protocol` without pulling in
 * agent-core. See docs/wire.md, "Error codes", for which method answers which code.
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
  /** No model can be used, or the model call failed: the message says what to configure or check. */
  AgentUnavailable: 5032,
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export interface HermesErrorOptions {
  /** Sent as the JSON-RPC error's `data` (redacted like everything else). */
  data?: unknown;
  cause?: unknown;
}

/**
 * A failure with its wire code and a message meant for the user (what went wrong and what to do).
 * The backend answers it with exactly that code and message; every other error is an internal one.
 */
export class HermesError extends Error {
  override name = 'HermesError';
  readonly code: ErrorCode;
  readonly data?: unknown;

  constructor(code: ErrorCode, message: string, options: HermesErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    if (options.data !== undefined) this.data = options.data;
  }
}

/** The caller asked for something that cannot be done as asked; the message says what to change. */
export class UsageError extends HermesError {
  override name = 'UsageError';
  constructor(message: string, options?: HermesErrorOptions) {
    super(ErrorCode.UsageError, message, options);
  }
}

/** No open (or stored) session has the id the caller named. */
export class SessionNotFoundError extends HermesError {
  override name = 'SessionNotFoundError';
  constructor(message: string, options?: HermesErrorOptions) {
    super(ErrorCode.SessionNotFound, message, options);
  }
}
