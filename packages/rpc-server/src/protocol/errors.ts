/** The numeric error codes are shared with agent-core: the contract defines them (PROTOCOL.md, "Error codes"). */
export { ErrorCode } from '@hermes/agent-core/contract/values';

/** The `error` member of a JSON-RPC response. */
export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}
