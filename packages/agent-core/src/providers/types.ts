/** The one internal message format: OpenAI chat shape. Adapters convert at the provider edge. */
import { ErrorCode } from '../contract/errorCodes.ts';
import { HermesError } from '../contract/errors.ts';
import { redactSecrets } from '../secrets/processSecrets.ts';
export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ToolSchema {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface ChatRequest {
  messages: ChatMessage[];
  tools: ToolSchema[];
  signal: AbortSignal;
  /** `none` forbids tool calls for this one call (the tools stay listed, so the cached prefix holds). Default `auto`. */
  toolChoice?: 'auto' | 'none';
  /** Sampling temperature; absent leaves it to the provider. Side calls that must decide (smart approval's guardian) use 0. */
  temperature?: number;
  /**
   * Give up when nothing (no byte of the response) arrives for this long, counted from the request.
   * The call then fails with a retryable `ProviderError` of kind `stall`; absent, a call may wait forever.
   */
  stallTimeoutMs?: number;
}

export interface CallUsage {
  input: number;
  output: number;
  reasoning: number;
}

/** What a provider reports while a response streams. */
export type StreamEvent =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool_generating'; name: string };

export interface ChatResponse {
  text: string;
  reasoning: string;
  toolCalls: ToolCall[];
  finishReason: string | null;
  usage: CallUsage | null;
}

export interface ChatProvider {
  readonly id: string;
  readonly model: string;
  readonly baseUrl: string;
  /** Streams one model call. Throws `ProviderError` on failure and the signal's reason on abort. */
  stream(request: ChatRequest, onEvent: (event: StreamEvent) => void): Promise<ChatResponse>;
  /** Loads now what the first call would load (its SDK, Node's fetch), for a session waiting for its first prompt; never rejects. */
  warmUp?(): Promise<void>;
}

/** How a provider call failed: the server answered with an error, it could not be reached, it went silent, or the user stopped it. */
export type ProviderErrorKind = 'http' | 'network' | 'stall' | 'aborted';

export interface ProviderErrorDetails {
  kind: ProviderErrorKind;
  /** Whether the same request may succeed if sent again (rate limits, overload, 5xx, network, stalls). */
  retryable: boolean;
  /** The HTTP status, for `http` errors. */
  status?: number;
  /** How long the provider asked us to wait (`retry-after-ms` / `Retry-After`), when it said. */
  retryAfterMs?: number;
  cause?: unknown;
}

/** A provider call that failed, with text a person can act on and the facts a retry loop needs (wire code 5032). */
export class ProviderError extends HermesError {
  readonly kind: ProviderErrorKind;
  readonly retryable: boolean;
  readonly status?: number;
  readonly retryAfterMs?: number;

  constructor(message: string, details: ProviderErrorDetails) {
    // A server's error body may echo the request's Authorization header: it is shown and logged.
    super(ErrorCode.AgentUnavailable, redactSecrets(message), { cause: details.cause });
    this.name = 'ProviderError';
    this.kind = details.kind;
    this.retryable = details.retryable;
    if (details.status !== undefined) this.status = details.status;
    if (details.retryAfterMs !== undefined) this.retryAfterMs = details.retryAfterMs;
  }
}
