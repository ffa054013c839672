import type { CompressionResult, ContextEngine } from '../context/contextEngine.ts';
import { estimatePromptTokens } from '../context/tokens.ts';
import type { Logger } from '../logging/logger.ts';
import type { ChatMessage, ChatProvider, ChatResponse, ToolSchema } from '../providers/types.ts';
import type { AgentEventSink } from './events.ts';

export interface CompressionSettings {
  enabled: boolean;
  /** Share of the context window at which the prompt is compressed. */
  threshold: number;
}

/**
 * Per session: when a compression could not get the prompt under the threshold (a huge first message,
 * many tool schemas), the next one waits until the prompt has grown noticeably, instead of
 * summarizing again before every call.
 */
export interface CompressionState {
  floorTokens?: number;
}

/** How much the prompt must grow past a compression that stayed above the threshold. */
const REGROWTH_SHARE = 0.1;

export interface CompressionDeps {
  engine: ContextEngine;
  state: CompressionState;
  settings: CompressionSettings;
  provider: ChatProvider;
  contextMax: number;
  emit: AgentEventSink;
  logger: Logger;
  /** The summary call's tokens, counted in the session's usage like any model call. */
  onUsage?: (response: ChatResponse) => void;
}

/** The summary call: the session's own model, tools disabled, text only. */
export function summarizeWith(provider: ChatProvider, onUsage?: (response: ChatResponse) => void) {
  return async (prompt: ChatMessage[], signal: AbortSignal): Promise<string> => {
    const response = await provider.stream({ messages: prompt, tools: [], toolChoice: 'none', signal }, () => undefined);
    onUsage?.(response);
    return response.text;
  };
}

/**
 * Compresses `history` in place (the session's working prompt; the stored transcript is untouched)
 * and tells the client. `force` runs even below the threshold (`/compress`), and its failure is thrown
 * (logged) for the caller to report. Otherwise a failed compression is logged and the prompt is sent as
 * it was: a long prompt beats a lost turn.
 */
export async function compressPrompt(
  deps: CompressionDeps,
  history: ChatMessage[],
  tools: ToolSchema[],
  signal: AbortSignal,
  options: { force?: boolean; focusTopic?: string } = {},
): Promise<CompressionResult | null> {
  const { engine, settings } = deps;
  const failed = (error: unknown): null => {
    if (signal.aborted) throw signal.reason ?? error;
    const message = error instanceof Error ? error.message : String(error);
    deps.logger.warn('compression by %s failed: %s', engine.name, error instanceof Error ? (error.stack ?? message) : message);
    // Asked for (`/compress`): the caller answers with the failure; nothing is sent in its place.
    if (options.force) throw error;
    deps.emit({ type: 'status.update', payload: { kind: 'warn', text: `compression failed (${message}); sending the full conversation` } });
    return null;
  };
  if (!options.force) {
    if (!settings.enabled) return null;
    let wanted: boolean;
    try {
      // A plugin's engine decides here too: its failure is a failed compression, not the turn's.
      wanted = engine.shouldCompress({ messages: history, tools, contextMax: deps.contextMax, threshold: settings.threshold });
    } catch (error) {
      return failed(error);
    }
    if (!wanted) return null;
    const floor = deps.state.floorTokens;
    if (floor !== undefined && estimatePromptTokens(history, tools) < floor + REGROWTH_SHARE * deps.contextMax) return null;
  }
  deps.emit({ type: 'status.update', payload: { kind: 'compressing', text: 'compressing the conversation to fit the context window…' } });
  try {
    const result = await engine.compress({
      messages: history,
      tools,
      contextMax: deps.contextMax,
      signal,
      summarize: summarizeWith(deps.provider, deps.onUsage),
      ...(options.focusTopic ? { focusTopic: options.focusTopic } : {}),
    });
    if (result.removed > 0) history.splice(0, history.length, ...result.messages);
    const stillAbove = result.afterTokens >= settings.threshold * deps.contextMax;
    deps.state.floorTokens = stillAbove || result.removed === 0 ? result.afterTokens : undefined;
    deps.emit({
      type: 'status.update',
      payload: {
        kind: 'compacted',
        text:
          result.removed > 0
            ? `compressed: ${result.removed} messages summarized, ~${result.beforeTokens} → ~${result.afterTokens} tokens`
            : 'nothing to compress yet',
      },
    });
    return result;
  } catch (error) {
    return failed(error);
  }
}
