import type Anthropic from '@anthropic-ai/sdk';
import type { ResolvedModel } from '../config/resolveModel.ts';
import { AnthropicStreamAccumulator, defaultMaxTokens, toAnthropicRequest } from './anthropicMessages.ts';
import type { AnthropicStreamEvent } from './anthropicMessages.ts';
import { stallError, toProviderError } from './providerErrors.ts';
import type { SdkErrorClasses } from './providerErrors.ts';
import { LoopTurns } from './loopTurns.ts';
import { StallGuard } from './stallGuard.ts';
import type { ChatProvider, ChatRequest, ChatResponse, StreamEvent } from './types.ts';

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

  async stream(request: ChatRequest, onEvent: (event: StreamEvent) => void): Promise<ChatResponse> {
    const sdk = await this.sdk();
    const guard = new StallGuard(request.signal, request.stallTimeoutMs, () => stallError(this, request.stallTimeoutMs ?? 0));
    // One client per call so its fetch reports to this call's guard; building one is cheap. Passing the
    // key explicitly also keeps the SDK from looking for credentials of its own (profiles, env tokens).
    const client = new sdk.default({ apiKey: this.settings.apiKey, baseURL: this.baseUrl, maxRetries: 0, fetch: guard.fetch });
    const { system, messages, tools } = toAnthropicRequest(request.messages, request.tools);
    const accumulator = new AnthropicStreamAccumulator(onEvent);
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
      const stream = await client.messages.create(params as Anthropic.MessageCreateParamsStreaming, { signal: guard.signal });
      const turns = new LoopTurns();
      for await (const event of stream) {
        const turn = turns.due();
        if (turn) await turn;
        accumulator.add(event as AnthropicStreamEvent);
      }
      // The SDK ends the iteration quietly on abort; the partial response must not pass as complete.
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
