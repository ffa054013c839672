import type OpenAI from 'openai';
import type { ResolvedModel } from '../config/resolveModel.ts';
import { ProviderError, type ChatProvider, type ChatRequest, type ChatResponse, type StreamEvent, type ToolCall } from './types.ts';

type ChunkDelta = {
  content?: string | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
  tool_calls?: { index: number; id?: string; function?: { name?: string; arguments?: string } }[];
};

/**
 * Any OpenAI-compatible chat-completions endpoint (OpenAI, OpenRouter, Ollama, vLLM, llama.cpp,
 * LM Studio), through the official SDK. The SDK is loaded on first use so startup does not pay for it.
 */
export class OpenAICompatibleProvider implements ChatProvider {
  readonly id: string;
  readonly model: string;
  readonly baseUrl: string;
  private client: Promise<OpenAI> | null = null;

  constructor(
    private readonly settings: ResolvedModel,
    private readonly maxRetries: number,
  ) {
    this.id = settings.provider;
    this.model = settings.model;
    this.baseUrl = settings.baseUrl;
  }

  private sdk(): Promise<OpenAI> {
    this.client ??= import('openai').then(
      ({ default: OpenAISdk }) =>
        new OpenAISdk({ apiKey: this.settings.apiKey, baseURL: this.settings.baseUrl, maxRetries: this.maxRetries }),
    );
    return this.client;
  }

  async stream(request: ChatRequest, onEvent: (event: StreamEvent) => void): Promise<ChatResponse> {
    const client = await this.sdk();
    const calls = new Map<number, ToolCall>();
    const response: ChatResponse = { text: '', reasoning: '', toolCalls: [], finishReason: null, usage: null };
    try {
      const stream = await client.chat.completions.create(
        {
          model: this.model,
          messages: request.messages as OpenAI.Chat.ChatCompletionMessageParam[],
          ...(request.tools.length > 0 ? { tools: request.tools as OpenAI.Chat.ChatCompletionTool[] } : {}),
          stream: true,
          stream_options: { include_usage: true },
        },
        { signal: request.signal },
      );
      for await (const chunk of stream) {
        if (chunk.usage) {
          const details = chunk.usage.completion_tokens_details as { reasoning_tokens?: number } | undefined;
          response.usage = {
            input: chunk.usage.prompt_tokens ?? 0,
            output: chunk.usage.completion_tokens ?? 0,
            reasoning: details?.reasoning_tokens ?? 0,
          };
        }
        const choice = chunk.choices?.[0];
        if (!choice) continue;
        const delta = (choice.delta ?? {}) as ChunkDelta;
        const reasoning = delta.reasoning_content ?? delta.reasoning;
        if (reasoning) {
          response.reasoning += reasoning;
          onEvent({ type: 'reasoning', text: reasoning });
        }
        if (delta.content) {
          response.text += delta.content;
          onEvent({ type: 'text', text: delta.content });
        }
        for (const part of delta.tool_calls ?? []) {
          let call = calls.get(part.index);
          if (!call) {
            call = { id: part.id ?? '', type: 'function', function: { name: '', arguments: '' } };
            calls.set(part.index, call);
          }
          if (part.id) call.id = part.id;
          if (part.function?.name) {
            const first = call.function.name === '';
            call.function.name += part.function.name;
            if (first) onEvent({ type: 'tool_generating', name: call.function.name });
          }
          if (part.function?.arguments) call.function.arguments += part.function.arguments;
        }
        if (choice.finish_reason) response.finishReason = choice.finish_reason;
      }
      // The SDK ends the iteration quietly on abort; the partial response must not pass as complete.
      request.signal.throwIfAborted();
    } catch (error) {
      if (request.signal.aborted) throw request.signal.reason ?? error;
      throw this.describe(error);
    }
    response.toolCalls = [...calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => ({ ...call, id: call.id || `call_${index}` }));
    return response;
  }

  private describe(error: unknown): ProviderError {
    const where = `${this.id} (model ${this.model} at ${this.baseUrl})`;
    const err = error as { status?: number; message?: string; name?: string };
    if (typeof err.status === 'number') {
      const hint =
        err.status === 401 || err.status === 403
          ? ' Check the API key for this provider.'
          : err.status === 404
            ? ' Check the model name and the base URL.'
            : err.status === 429
              ? ' The provider is rate limiting; wait and try again.'
              : '';
      return new ProviderError(`${where} answered HTTP ${err.status}: ${err.message ?? 'no message'}.${hint}`, err.status);
    }
    return new ProviderError(
      `Could not reach ${where}: ${err.message ?? String(error)}. Is the server running and the URL right?`,
    );
  }
}
