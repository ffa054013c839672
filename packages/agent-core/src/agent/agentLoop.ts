import { collectContext, type ExtensionPort } from '../extensions/extensionPort.ts';
import type { Logger } from '../logging/logger.ts';
import type { ChatMessage, ChatProvider, ChatResponse } from '../providers/types.ts';
import type { SessionUsage, TurnStatus } from './events.ts';
import { healMessageSequence } from '../context/messageSequence.ts';
import { compressPrompt, type CompressionDeps } from './compression.ts';
import { callModel, type LlmRequest } from './modelCall.ts';
import { StreamingMessage } from './streamingMessage.ts';
import type { RetryPolicy } from './retry.ts';
import { runToolCalls, type ToolCallDeps } from './toolCalls.ts';

export interface TurnDeps extends ToolCallDeps {
  provider: ChatProvider;
  logger: Logger;
  maxTurns: number;
  usage: SessionUsage;
  extensions: ExtensionPort;
  retry: RetryPolicy;
  stallTimeoutMs: number;
  turnId: string;
  /** Called after each model call with the tokens it used (usage accounting lives with the session). */
  onUsage: (response: ChatResponse) => void;
  compression: Omit<CompressionDeps, 'provider' | 'emit' | 'logger'> | null;
}

export interface TurnResult {
  status: TurnStatus;
  text: string;
  error?: string;
}

/** Told to the model (not shown as the user's words) when the iteration budget is spent. */
export const BUDGET_NOTICE =
  '[hermes] The iteration budget for this turn is used up. Do not call tools. Give your final answer now: ' +
  'summarize what you did, what you found, and what is left to do.';
/** Ends a turn whose grace call still asked for tools (or said nothing): names the budget and what to do. */
export function budgetEndLine(maxTurns: number, droppedCalls: number): string {
  const why = droppedCalls > 0
    ? `the model asked for ${droppedCalls} more tool call${droppedCalls === 1 ? '' : 's'} instead of answering (not run)`
    : 'the model gave no final answer';
  return `[hermes] The turn budget ran out (agent.max_turns: ${maxTurns} model calls) and ${why}. ` +
    'Send a message to let it continue, or raise agent.max_turns in config.yaml.';
}
/** Told to the model after an empty response. */
export const EMPTY_NUDGE = '[hermes] Your last response was empty. Continue the task, or give your final answer.';

/**
 * One user turn: model call → tool calls → model call … until the model answers without tools, the
 * budget runs out (then exactly one last call with tools disabled), the user interrupts, or something
 * fails. `history` ends with the user's message (already stored). Every message is stored before the
 * next side effect. Interrupt is checked at the top of each iteration, during back-off and while tools run.
 */
export async function runTurn(deps: TurnDeps, history: ChatMessage[], signal: AbortSignal): Promise<TurnResult> {
  const { emit, store, sessionId, extensions } = deps;
  const context = {
    session_id: sessionId,
    turn_id: deps.turnId,
    provider: deps.provider.id,
    model: deps.provider.model,
  };
  let turnText = '';
  let reasoning = '';
  const finish = async (status: TurnStatus, error?: string): Promise<TurnResult> => {
    if (status === 'complete') await extensions.invokeHook('post_llm_call', { ...context, response: turnText });
    await extensions.invokeHook('on_session_end', {
      ...context,
      completed: status === 'complete',
      interrupted: status === 'interrupted',
      failed: status === 'error',
    });
    emit({
      type: 'message.complete',
      payload: {
        text: turnText,
        status,
        usage: { ...deps.usage },
        ...(reasoning ? { reasoning } : {}),
        ...(error ? { error } : {}),
      },
    });
    return { status, text: turnText, ...(error ? { error } : {}) };
  };

  // pre_llm_call: context for this turn goes into the user message sent to the model, never the
  // system prompt and never the stored transcript.
  const userMessage = history[history.length - 1]!;
  const injected = collectContext(
    await extensions.invokeHook('pre_llm_call', { ...context, messages: history, tools: deps.toolSchemas }, signal),
  );

  let emptyResponses = 0;
  let graceCall = false;
  for (let iteration = 0; ; iteration += 1) {
    if (signal.aborted) return finish('interrupted');
    healHistory(history, deps.logger, sessionId);
    if (iteration >= deps.maxTurns) {
      if (graceCall) break;
      graceCall = true;
      // In the prompt only: the stored transcript holds what the user wrote.
      history.push({ role: 'user', content: BUDGET_NOTICE });
    }
    if (deps.compression) {
      try {
        await compressPrompt({ ...deps.compression, provider: deps.provider, emit, logger: deps.logger }, history, deps.toolSchemas, signal);
      } catch (error) {
        // compressPrompt answers its own failures; what escapes is an abort, or a bug that fails the turn (logged by the session).
        if (signal.aborted) return finish('interrupted');
        throw error;
      }
    }
    const messages = injected ? withContext(history, turnMessageIndex(history, userMessage), injected) : history;
    const request: LlmRequest = {
      model: deps.provider.model,
      messages,
      tools: deps.toolSchemas,
      toolChoice: graceCall ? 'none' : 'auto',
    };
    const separator = turnText.length > 0 ? '\n\n' : '';
    const textBefore = turnText;
    let callText = '';
    let callReasoning = '';
    const row = new StreamingMessage(store, sessionId);
    let response: ChatResponse;
    try {
      response = await callModel(
        { provider: deps.provider, extensions, emit, logger: deps.logger, retry: deps.retry, stallTimeoutMs: deps.stallTimeoutMs, context },
        request,
        signal,
        (event) => {
          if (event.type === 'text') {
            if (!callText && separator) emit({ type: 'message.delta', payload: { text: separator } });
            callText += event.text;
            turnText = textBefore + separator + callText;
            row.update(callText);
            // The disk refused the reply: stop here, so nothing is shown that cannot be kept.
            if (row.failed) throw row.failed;
            emit({ type: 'message.delta', payload: { text: event.text } });
          } else if (event.type === 'reasoning') {
            callReasoning += event.text;
            reasoning += event.text;
            emit({ type: 'reasoning.delta', payload: { text: event.text } });
          } else emit({ type: 'tool.generating', payload: { name: event.name } });
        },
        (attempt) => {
          // A retried attempt starts over: what the failed one streamed is not part of the answer.
          if (attempt > 0) {
            callText = '';
            turnText = textBefore;
            row.update('');
          }
        },
      );
    } catch (error) {
      const status: TurnStatus = signal.aborted ? 'interrupted' : 'error';
      if (callText) {
        row.finish({ content: callText, reasoning: callReasoning, status });
        history.push({ role: 'assistant', content: callText });
      }
      if (status === 'interrupted') return finish('interrupted');
      const text = row.failureMessage() ?? (error instanceof Error ? error.message : String(error));
      deps.logger.warn('model call failed in session %s: %s', sessionId, text);
      return finish('error', text);
    }

    deps.onUsage(response);
    if (graceCall && (response.toolCalls.length > 0 || !response.text.trim())) {
      // A model that ignores `tool_choice: none` (common with local servers): its calls are dropped and
      // the turn ends on the budget, named, not as an error.
      const line = budgetEndLine(deps.maxTurns, response.toolCalls.length);
      const lead = callText ? '\n\n' : separator;
      emit({ type: 'message.delta', payload: { text: lead + line } });
      turnText += lead + line;
      const content = response.text.trim() ? `${response.text}\n\n${line}` : line;
      row.finish({ content, reasoning: response.reasoning, status: 'complete' });
      history.push({ role: 'assistant', content });
      deps.logger.info('session %s: turn budget (agent.max_turns %d) ran out; %d tool call(s) of the grace call dropped', sessionId, deps.maxTurns, response.toolCalls.length);
      return finish('complete');
    }
    const calls = response.toolCalls;
    if (!response.text.trim() && calls.length === 0) {
      emptyResponses += 1;
      if (emptyResponses > 1) {
        return finish('error', `${deps.provider.id} (model ${deps.provider.model}) returned an empty response twice; the turn ended. Try again, or rephrase.`);
      }
      history.push({ role: 'user', content: EMPTY_NUDGE });
      continue;
    }
    row.finish({ content: response.text, toolCalls: calls, reasoning: response.reasoning, status: 'complete' });
    history.push({ role: 'assistant', content: response.text, ...(calls.length ? { tool_calls: calls } : {}) });
    // Tools do not run for a reply the disk did not take: their results could not be kept either.
    const unsaved = row.failureMessage();
    if (unsaved) return finish('error', unsaved);
    if (calls.length === 0) return finish('complete');

    const interrupted = await runToolCalls(deps, calls, history, signal);
    if (interrupted) return finish('interrupted');
  }
  return finish('complete');
}

/**
 * Makes the working history a valid sequence before a request (in place, so later turns keep it):
 * a tool call left without a result by a crash or a failed turn would make every request a 400.
 */
function healHistory(history: ChatMessage[], logger: Logger, sessionId: string): void {
  const healed = healMessageSequence(history);
  if (healed.added.length === 0 && healed.dropped.length === 0) return;
  logger.warn(
    'session %s: healed the prompt: tool call(s) %s answered as interrupted, stray tool result(s) %s dropped',
    sessionId,
    healed.added.join(', ') || '(none)',
    healed.dropped.join(', ') || '(none)',
  );
  history.splice(0, history.length, ...healed.messages);
}

/** A copy of the history whose turn-opening user message carries the hooks' context. */
/**
 * Where the turn's user message sits in the prompt now. A context engine may have returned copies of
 * the messages it kept, so the same object is looked for first, then a user message with the same text.
 */
function turnMessageIndex(history: ChatMessage[], userMessage: ChatMessage): number {
  const same = history.lastIndexOf(userMessage);
  if (same >= 0) return same;
  return history.findLastIndex((m) => m.role === 'user' && m.content === userMessage.content);
}

function withContext(history: ChatMessage[], index: number, context: string): ChatMessage[] {
  const copy = history.slice();
  const message = copy[index];
  if (message?.role === 'user') copy[index] = { role: 'user', content: `${message.content}\n\n${context}` };
  return copy;
}
