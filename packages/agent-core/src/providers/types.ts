/** The one internal message format: OpenAI chat shape. Adapters convert at the provider edge. */
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
}

/** A provider call that failed, with text a person can act on. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
