import type Anthropic from '@anthropic-ai/sdk';
import type { ResolvedModel } from '../config/resolveModel.ts';
import { AnthropicStreamAccumulator, defaultMaxTokens, toAnthropicRequest } from './anthropicMessages.ts';
import type { AnthropicStreamEvent } from './anthropicMessages.ts';
import { stallError, toProviderError } from './providerErrors.ts';
import type { SdkErrorClasses } from './providerErrors.ts';
import { EventRuns, readBatches } from './eventRuns.ts';
import { eventJson, sseBatches } from './sseEvents.ts';
import { StallGuard } from './stallGuard.ts';
import { warmProvider } from './warmUp.ts';
import type { ChatProvider, ChatRequest, ChatResponse, StreamEvent } from './types.ts';
import type { EventSourceMessage } from 'eventsource-parser';

type AnthropicModule = typeof import('@anthropic-ai/sdk');

export interface AnthropicProviderOptions {
  /** The output budget per call; default from the model line (`defaultMaxTokens`). */
  maxTokens?: number;
}

/**
 * Anthropic's Messages API through the official SDK, loaded on first use. The history stays in the
 * internal OpenAI shape and is converted at this edge (`anthropicMessages.ts`). The SDK never retries
 * (`maxRetries: 0`): the agent loop owns retries.
 */
export class AnthropicProvider implements ChatProvider {
  readonly id: string;
  readonly model: string;
  readonly baseUrl: string;
  private module: Promise<AnthropicModule> | null = null;

  constructor(
    private readonly settings: ResolvedModel,
    private readonly options: AnthropicProviderOptions = {},
  ) {
    this.id = settings.provider;
    this.model = settings.model;
    this.baseUrl = settings.baseUrl;
  }

  private sdk(): Promise<AnthropicModule> {
    this.module ??= import('@anthropic-ai/sdk');
    return this.module;
  }

  warmUp(): Promise<void> {
    return warmProvider(() => this.sdk());
  }

  async stream(request: ChatRequest, onEvent: (event: StreamEvent) => void): Promise<ChatResponse> {
    const sdk = await this.sdk();
    const guard = new StallGuard(request.signal, request.stallTimeoutMs, () => stallError(this, request.stallTimeoutMs ?? 0));
    // One client per call so its fetch reports to this call's guard; building one is cheap. Passing the
    // key explicitly also keeps the SDK from looking for credentials of its own (profiles, env tokens).
    const client = new sdk.default({ apiKey: this.settings.apiKey, baseURL: this.baseUrl, maxRetries: 0, fetch: guard.fetch });
    const { system, messages, tools } = toAnthropicRequest(request.messages, request.tools);
    const runs = new EventRuns(onEvent);
    const accumulator = new AnthropicStreamAccumulator(runs.push);
    try {
      const params = {
        model: this.model,
        max_tokens: this.options.maxTokens ?? defaultMaxTokens(this.model),
        messages,
        ...(system.length > 0 ? { system } : {}),
        ...(tools.length > 0 ? { tools, ...(request.toolChoice ? { tool_choice: { type: request.toolChoice } } : {}) } : {}),
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        stream: true as const,
      };
      // The raw response, read by sseBatches rather than the SDK's Stream (see there why); an HTTP
      // error status still throws the SDK's error here.
      const raw = await client.messages.create(params as Anthropic.MessageCreateParamsStreaming, { signal: guard.signal }).asResponse();
      if (!raw.body) throw new sdk.APIConnectionError({ message: `${this.baseUrl} answered a streamed request with no body` });
      const toError = (body: unknown, type: Anthropic.ErrorType | null) => new sdk.APIError(undefined, body as object, undefined, raw.headers, type);
      await readBatches(sseBatches(raw.body, anthropicEvents(toError), guard.touch), runs, (event) => accumulator.add(event));
      // A stream that ended early because of an abort must not pass as complete.
      const stopped = guard.stopReason();
      if (stopped) throw stopped;
    } catch (error) {
      throw guard.stopReason() ?? toProviderError(error, this, sdk as unknown as SdkErrorClasses);
    } finally {
      guard.dispose();
    }
    return accumulator.finish();
  }
}

/**
 * Anthropic's Messages events, by the SDK's rules: `ping` and unnamed events are skipped, as is an
 * event with no data; an `error` event is thrown as `toError(body, its type)` (the SDK's APIError,
 * classified as before: `overloaded_error` is retryable).
 */
function anthropicEvents(toError: (body: unknown, type: Anthropic.ErrorType | null) => Error): (event: EventSourceMessage) => AnthropicStreamEvent | undefined {
  return (event) => {
    if (event.event === 'ping' || event.event === undefined) return undefined;
    if (event.event === 'error') {
      let body: unknown = event.data;
      try {
        body = JSON.parse(event.data) as unknown;
      } catch {
        // Not JSON: the SDK reports the text as it came.
      }
      const type = (body as { error?: { type?: unknown } } | null)?.error?.type;
      throw toError(body, typeof type === 'string' ? (type as Anthropic.ErrorType) : null);
    }
    if (!event.data) return undefined;
    return eventJson(event) as AnthropicStreamEvent;
  };
}
