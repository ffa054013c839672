import type OpenAI from 'openai';
import type { ResolvedModel } from '../config/resolveModel.ts';
import { stallError, toProviderError } from './providerErrors.ts';
import type { SdkErrorClasses } from './providerErrors.ts';
import { EventRuns, readBatches } from './eventRuns.ts';
import { openAiChunks, sseBatches } from './sseEvents.ts';
import { StallGuard } from './stallGuard.ts';
import { warmProvider } from './warmUp.ts';
import type { ChatProvider, ChatRequest, ChatResponse, StreamEvent, ToolCall } from './types.ts';

type ChunkDelta = {
  content?: string | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
  tool_calls?: { index: number; id?: string; function?: { name?: string; arguments?: string } }[];
};

type OpenAIModule = typeof import('openai');

/**
 * Any OpenAI-compatible chat-completions endpoint (OpenAI, OpenRouter, Ollama, vLLM, llama.cpp,
 * LM Studio), through the official SDK. The SDK is loaded on first use so startup does not pay for it.
 * The SDK never retries (`maxRetries: 0`): the agent loop owns retries, so they are counted and shown once.
 */
export class OpenAICompatibleProvider implements ChatProvider {
  readonly id: string;
  readonly model: string;
  readonly baseUrl: string;
  private module: Promise<OpenAIModule> | null = null;

  constructor(private readonly settings: ResolvedModel) {
    this.id = settings.provider;
    this.model = settings.model;
    this.baseUrl = settings.baseUrl;
  }

  private sdk(): Promise<OpenAIModule> {
    this.module ??= import('openai');
    return this.module;
  }

  warmUp(): Promise<void> {
    return warmProvider(() => this.sdk());
  }

  async stream(request: ChatRequest, onEvent: (event: StreamEvent) => void): Promise<ChatResponse> {
    const sdk = await this.sdk();
    const guard = new StallGuard(request.signal, request.stallTimeoutMs, () => stallError(this, request.stallTimeoutMs ?? 0));
    // One client per call so its fetch reports to this call's guard; building one is cheap.
    const client = new sdk.default({ apiKey: this.settings.apiKey, baseURL: this.baseUrl, maxRetries: 0, fetch: guard.fetch });
    const calls = new Map<number, ToolCall>();
    const response: ChatResponse = { text: '', reasoning: '', toolCalls: [], finishReason: null, usage: null };
    try {
      const params: OpenAI.Chat.ChatCompletionCreateParamsStreaming = {
        model: this.model,
        messages: request.messages as OpenAI.Chat.ChatCompletionMessageParam[],
        ...(request.tools.length > 0
          ? { tools: request.tools as OpenAI.Chat.ChatCompletionTool[], ...(request.toolChoice ? { tool_choice: request.toolChoice } : {}) }
          : {}),
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        stream: true,
        stream_options: { include_usage: true },
      };
      // The raw response, read by sseBatches rather than the SDK's Stream (see there why); an HTTP
      // error status still throws the SDK's error here.
      const raw = await client.chat.completions.create(params, { signal: guard.signal }).asResponse();
      if (!raw.body) throw new sdk.APIConnectionError({ message: `${this.baseUrl} answered a streamed request with no body` });
      const toError = (error: unknown) => new sdk.APIError(undefined, error as object, undefined, raw.headers);
      const runs = new EventRuns(onEvent);
      await readBatches(sseBatches(raw.body, openAiChunks<OpenAI.Chat.ChatCompletionChunk>(toError), guard.touch), runs, (chunk) => takeChunk(chunk, response, calls, runs.push));
      // A stream that ended early because of an abort must not pass as complete.
      const stopped = guard.stopReason();
      if (stopped) throw stopped;
    } catch (error) {
      throw guard.stopReason() ?? toProviderError(error, this, sdk as unknown as SdkErrorClasses);
    } finally {
      guard.dispose();
    }
    response.toolCalls = [...calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => ({ ...call, id: call.id || `call_${index}` }));
    return response;
  }
}

/** One chunk of a chat-completions stream into `response` (text, reasoning, tool calls, usage), told to `onEvent` as it comes. */
function takeChunk(chunk: OpenAI.Chat.ChatCompletionChunk, response: ChatResponse, calls: Map<number, ToolCall>, onEvent: (event: StreamEvent) => void): void {
  if (chunk.usage) {
    const details = chunk.usage.completion_tokens_details as { reasoning_tokens?: number } | undefined;
    response.usage = {
      input: chunk.usage.prompt_tokens ?? 0,
      output: chunk.usage.completion_tokens ?? 0,
      reasoning: details?.reasoning_tokens ?? 0,
    };
  }
  const choice = chunk.choices?.[0];
  if (!choice) return;
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
