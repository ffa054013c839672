import type { Logger } from '../logging/logger.ts';
import type { ChatMessage, ChatProvider } from '../providers/types.ts';
import type { SessionUsage, TurnStatus } from './events.ts';
import { runToolCalls, type ToolCallDeps } from './toolCalls.ts';

export interface TurnDeps extends ToolCallDeps {
  provider: ChatProvider;
  logger: Logger;
  maxTurns: number;
  usage: SessionUsage;
}

export interface TurnResult {
  status: TurnStatus;
  text: string;
  error?: string;
}

/**
 * One user turn: model call → tool calls → model call … until the model answers without tools,
 * the budget runs out, the user interrupts, or something fails. `history` already ends with the
 * user's message (persisted by the caller). Every message is stored before the next side effect.
 */
export async function runTurn(deps: TurnDeps, history: ChatMessage[], signal: AbortSignal): Promise<TurnResult> {
  const { emit, store, sessionId } = deps;
  let turnText = '';
  let reasoning = '';
  const addText = (text: string) => {
    turnText += text;
    emit({ type: 'text.delta', text });
  };
  const finish = (status: TurnStatus, error?: string): TurnResult => {
    emit({
      type: 'turn.complete',
      text: turnText,
      status,
      usage: { ...deps.usage },
      ...(reasoning ? { reasoning } : {}),
      ...(error ? { error } : {}),
    });
    return { status, text: turnText, ...(error ? { error } : {}) };
  };

  for (let iteration = 0; iteration < deps.maxTurns; iteration += 1) {
    if (signal.aborted) return finish('interrupted');
    let callText = '';
    let callReasoning = '';
    // Separate the text of successive model calls so the streamed reply reads as paragraphs.
    let needsBreak = turnText.length > 0;
    let response;
    try {
      response = await deps.provider.stream({ messages: history, tools: deps.toolSchemas, signal }, (event) => {
        if (event.type === 'text') {
          if (needsBreak) {
            addText('\n\n');
            needsBreak = false;
          }
          callText += event.text;
          addText(event.text);
        } else if (event.type === 'reasoning') {
          callReasoning += event.text;
          reasoning += event.text;
          emit({ type: 'reasoning.delta', text: event.text });
        } else emit({ type: 'tool.generating', name: event.name });
      });
    } catch (error) {
      const status: TurnStatus = signal.aborted ? 'interrupted' : 'error';
      if (callText) {
        const message = { role: 'assistant' as const, content: callText, reasoning: callReasoning, status };
        store.appendMessage(sessionId, message);
        history.push({ role: 'assistant', content: callText });
      }
      if (status === 'interrupted') return finish('interrupted');
      const text = error instanceof Error ? error.message : String(error);
      deps.logger.warn('model call failed in session %s: %s', sessionId, text);
      return finish('error', text);
    }

    if (response.usage) {
      deps.usage.input += response.usage.input;
      deps.usage.output += response.usage.output;
      deps.usage.reasoning += response.usage.reasoning;
      deps.usage.total = deps.usage.input + deps.usage.output;
      store.addUsage(sessionId, response.usage);
    }
    deps.usage.calls += 1;
    emit({ type: 'usage', usage: { ...deps.usage } });

    const calls = response.toolCalls;
    store.appendMessage(sessionId, {
      role: 'assistant',
      content: response.text,
      toolCalls: calls,
      reasoning: response.reasoning,
      status: 'complete',
    });
    history.push({ role: 'assistant', content: response.text, ...(calls.length ? { tool_calls: calls } : {}) });
    if (calls.length === 0) return finish('complete');

    const interrupted = await runToolCalls(deps, calls, history, signal);
    if (interrupted) return finish('interrupted');
  }
  return finish(
    'error',
    `Stopped after ${deps.maxTurns} model calls in one turn (agent.max_turns in config.yaml). Send a message to continue.`,
  );
}
