import type { ChatMessage } from '../providers/types.ts';

/**
 * Where a prompt may be cut. OpenAI (and every adapter built on its shape) requires the results of an
 * assistant's tool calls to follow that assistant message directly, so a cut may land before any
 * message except a `tool` result: cutting there would orphan the result or leave a call unanswered.
 */
export function isCutPoint(messages: readonly ChatMessage[], index: number): boolean {
  return index >= messages.length || messages[index].role !== 'tool';
}

/**
 * What is wrong with `messages` as an OpenAI chat prompt, as readable lines; empty when valid.
 * Checked: an optional system message comes first and only first; every assistant tool call is
 * answered by exactly one `tool` message in the block directly after it; no `tool` message appears
 * anywhere else.
 */
export function validateMessageSequence(messages: readonly ChatMessage[]): string[] {
  const problems: string[] = [];
  let pending: Set<string> | null = null;
  const closeBlock = (at: number) => {
    if (pending && pending.size > 0) problems.push(`message ${at}: tool calls without results: ${[...pending].join(', ')}`);
    pending = null;
  };
  messages.forEach((message, i) => {
    if (message.role === 'tool') {
      if (!pending || !pending.has(message.tool_call_id)) {
        problems.push(`message ${i}: tool result ${message.tool_call_id} has no matching call just before it`);
      } else {
        pending.delete(message.tool_call_id);
      }
      return;
    }
    closeBlock(i);
    if (message.role === 'system' && i !== 0) problems.push(`message ${i}: system message after the start`);
    if (message.role === 'assistant' && message.tool_calls && message.tool_calls.length > 0) {
      pending = new Set(message.tool_calls.map((call) => call.id));
      if (pending.size !== message.tool_calls.length) problems.push(`message ${i}: duplicate tool call ids`);
    }
  });
  closeBlock(messages.length);
  return problems;
}
