/** A request to an MCP server that failed, by kind: the tool wrappers word each kind for the model. SDK-free. */
export type RequestFailure = 'timeout' | 'closed' | 'aborted' | 'other';

export class McpRequestError extends Error {
  override name = 'McpRequestError';
  constructor(
    readonly kind: RequestFailure,
    message: string,
  ) {
    super(message);
  }
}
