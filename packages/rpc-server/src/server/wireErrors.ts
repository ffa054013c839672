/**
 * The one mapping from a thrown error to the JSON-RPC error a client gets. Each hermes error class
 * carries its own wire code (HermesError, in agent-core's contract leaf), so handlers throw and never
 * translate; this function only redacts, logs what the operator must see, and wraps.
 */
import { HermesError, isSqliteFailure, redactSecrets, redactSecretsDeep, type Logger, type StoreError } from '@hermes/agent-core';
import { ResponseError } from 'vscode-jsonrpc/node';
import { ErrorCode } from '../protocol/index.ts';

export interface WireErrorOptions {
  logger: Logger;
  /** Turns a raw SQLite failure into the StoreError that names state.db and the fix (absent: no store). */
  explainStoreFailure?: (error: unknown) => StoreError;
}

/**
 * `ResponseError` passes through (redacted); a HermesError answers with its code and message
 * (redacted); anything else is a bug or an unforeseen failure: -32603, logged with its stack.
 */
export function toWireError(method: string, thrown: unknown, { logger, explainStoreFailure }: WireErrorOptions): ResponseError<unknown> {
  if (thrown instanceof ResponseError) return new ResponseError(thrown.code, redactSecrets(thrown.message), redactSecretsDeep(thrown.data));
  const error = explainStoreFailure && isSqliteFailure(thrown) ? explainStoreFailure(thrown) : thrown;
  const message = redactSecrets(error instanceof Error ? error.message : String(error));
  if (error instanceof HermesError && error.code !== ErrorCode.InternalError) {
    // 4xxx are the caller's to fix and are answered in full; 5xxx (storage, model) the operator may need to see too.
    if (error.code >= 5000) logger.warn('%s failed (%s, code %d): %s', method, error.name, error.code, message);
    return new ResponseError(error.code, message, redactSecretsDeep(error.data));
  }
  logger.error('%s failed: %s', method, redactSecrets(error instanceof Error ? (error.stack ?? message) : message));
  return new ResponseError(ErrorCode.InternalError, `${method} failed: ${message}`, error instanceof HermesError ? redactSecretsDeep(error.data) : undefined);
}
