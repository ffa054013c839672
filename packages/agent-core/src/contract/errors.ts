/**
 * The base class every hermes error extends, with its wire code (./errorCodes.ts). Zod-free, so the
 * TUI reaches it through `@hermes/rpc-server/protocol` (via ./values.ts). See docs/wire.md, "Error
 * codes", for which method answers which code.
 */
import { ErrorCode } from './errorCodes.ts';

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
