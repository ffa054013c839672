/** JSON-RPC and hermes error codes (see PROTOCOL.md, "Error codes"). */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  SessionNotFound: 4001,
  UsageError: 4004,
  SessionBusy: 4009,
  NotACommand: 4018,
  AgentUnavailable: 5032,
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The `error` member of a JSON-RPC response. */
export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}
