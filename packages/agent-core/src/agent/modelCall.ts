import type { ExtensionPort, RunContext } from '../extensions/extensionPort.ts';
import type { Logger } from '../logging/logger.ts';
import type { ChatMessage, ChatProvider, ChatRequest, ChatResponse, StreamEvent, ToolSchema } from '../providers/types.ts';
import type { AgentEventSink } from './events.ts';
import { isRetryable, retryDelayMs, sleep, type RetryPolicy } from './retry.ts';

/** The provider request as request middleware sees it (a plain, replaceable object). */
export interface LlmRequest {
  model: string;
  messages: ChatMessage[];
  tools: ToolSchema[];
  /** `none` for the budget's grace call: the model must answer in words. */
  toolChoice: 'auto' | 'none';
}

export interface ModelCallDeps {
  provider: ChatProvider;
  extensions: ExtensionPort;
  emit: AgentEventSink;
  logger: Logger;
  retry: RetryPolicy;
  stallTimeoutMs: number;
  context: RunContext;
}

/**
 * One model call, in the documented order: `llm_request` middleware → per attempt `pre_api_request`
 * → `llm_execution` middleware around the provider → `post_api_request` or `api_request_error`.
 * Retryable failures (429, 5xx, network, stalled streams) are retried with back-off; the wait ends at
 * once on interrupt. `onAttempt` tells the caller that a new attempt starts (its partial text is void).
 */
export async function callModel(
  deps: ModelCallDeps,
  original: LlmRequest,
  signal: AbortSignal,
  onEvent: (event: StreamEvent) => void,
  onAttempt: (attempt: number) => void,
): Promise<ChatResponse> {
  const { extensions, context } = deps;
  const { payload: request, trace } = await extensions.applyRequestMiddleware('llm_request', original, context, signal);
  for (let attempt = 0; ; attempt += 1) {
    onAttempt(attempt);
    const attemptContext = { ...context, api_request_id: `${String(context.turn_id ?? 'turn')}-${attempt + 1}` };
    await extensions.invokeHook('pre_api_request', { ...attemptContext, request, middleware_trace: trace }, signal);
    try {
      let streamed = '';
      const response = await extensions.runExecutionMiddleware(
        'llm_execution',
        request,
        { ...attemptContext, original_request: original, middleware_trace: trace },
        (payload) =>
          deps.provider.stream(toChatRequest(payload, signal, deps.stallTimeoutMs), (event) => {
            if (event.type === 'text') streamed += event.text;
            onEvent(event);
          }),
        signal,
      );
      // Middleware that extended the reply (or answered without the provider): stream what was added,
      // so what is shown matches what is stored.
      if (response.text !== streamed && response.text.startsWith(streamed)) onEvent({ type: 'text', text: response.text.slice(streamed.length) });
      await extensions.invokeHook('post_api_request', { ...attemptContext, response, middleware_trace: trace }, signal);
      return response;
    } catch (error) {
      if (signal.aborted) throw signal.reason ?? error;
      const retryable = isRetryable(error);
      const message = error instanceof Error ? error.message : String(error);
      await extensions.invokeHook('api_request_error', {
        ...attemptContext,
        error: message,
        retryable,
        retry_count: attempt,
        max_retries: deps.retry.maxRetries,
        middleware_trace: trace,
      }, signal);
      if (!retryable || attempt >= deps.retry.maxRetries) {
        if (retryable && attempt > 0) throw new Error(`${message} (gave up after ${attempt + 1} attempts; agent.api_max_retries is ${deps.retry.maxRetries})`);
        throw error;
      }
      const delay = retryDelayMs(error, attempt, deps.retry);
      deps.logger.warn('model call failed (attempt %d): %s; retrying in %d ms', attempt + 1, message, delay);
      deps.emit({
        type: 'status.update',
        payload: {
          kind: 'warn',
          text: `${message} — retrying in ${(delay / 1000).toFixed(1)} s (attempt ${attempt + 2} of ${deps.retry.maxRetries + 1})`,
        },
      });
      await sleep(delay, signal);
    }
  }
}

function toChatRequest(request: LlmRequest, signal: AbortSignal, stallTimeoutMs: number): ChatRequest {
  return { messages: request.messages, tools: request.tools, toolChoice: request.toolChoice, signal, stallTimeoutMs };
}
