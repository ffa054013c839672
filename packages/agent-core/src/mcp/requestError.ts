/** How MCP failures are worded (SDK-free). A request that failed, by kind: the tool wrappers word each kind for the model. */
import { ErrorCode } from '../contract/errorCodes.ts';
import { HermesError } from '../contract/errors.ts';

export type RequestFailure = 'timeout' | 'closed' | 'aborted' | 'other';

/** A request to a connected server failed; the server is outside hermes, so it answers like a failed model call. */
export class McpRequestError extends HermesError {
  override name = 'McpRequestError';
  constructor(
    readonly kind: RequestFailure,
    message: string,
  ) {
    super(ErrorCode.AgentUnavailable, message);
  }
}

const STDERR_NOTE = '; its stderr ended with:\n';

/** A failure with the last lines a stdio server wrote to stderr. */
export function withStderr(text: string, stderr: string[]): string {
  return stderr.length > 0 ? `${text}${STDERR_NOTE}${stderr.join('\n')}` : text;
}

/** The failure without its stderr lines: what stays the same when a server fails the same way again. */
export function withoutStderr(text: string): string {
  const at = text.indexOf(STDERR_NOTE);
  return at < 0 ? text : text.slice(0, at);
}
