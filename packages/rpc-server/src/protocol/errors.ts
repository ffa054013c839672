/**
 * Error codes (see PROTOCOL.md, "Error codes", and docs/wire.md for which frame gets which) and the
 * base error with a code live in the agent-core contract leaf; the wire re-exports them. An answer
 * to a frame whose id cannot be read carries `id: null`.
 */
export { ErrorCode, HermesError, SessionNotFoundError, UsageError, type HermesErrorOptions } from '@hermes/agent-core/contract';

/** The `error` member of a JSON-RPC response. */
export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}
