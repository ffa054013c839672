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

/** The result given to a tool call whose run never finished (a crash, a kill, a failed turn). */
export const INTERRUPTED_CALL_RESULT = 'interrupted: hermes stopped before this tool finished';

export interface HealedSequence {
  messages: ChatMessage[];
  /** Ids of the calls that got a synthetic result. */
  added: string[];
  /** Ids of the tool results dropped because no call just before them asked for them. */
  dropped: string[];
}

/**
 * `messages` made valid for a provider (see validateMessageSequence): every assistant tool call left
 * without a result gets `INTERRUPTED_CALL_RESULT` at the end of its block, and a tool result with no
 * call just before it (or a second result for the same call) is dropped. Everything else is kept as
 * the same objects, in order. Pure: `messages` is not changed.
 */
export function healMessageSequence(messages: readonly ChatMessage[]): HealedSequence {
  const out: ChatMessage[] = [];
  const added: string[] = [];
  const dropped: string[] = [];
  /** The calls of the block being read, in call order, and those already answered. */
  let calls: string[] = [];
  const answered = new Set<string>();
  const closeBlock = () => {
    for (const id of calls) {
      if (answered.has(id)) continue;
      answered.add(id);
      added.push(id);
      out.push({ role: 'tool', tool_call_id: id, content: INTERRUPTED_CALL_RESULT });
    }
    calls = [];
    answered.clear();
  };
  for (const message of messages) {
    if (message.role === 'tool') {
      if (calls.includes(message.tool_call_id) && !answered.has(message.tool_call_id)) {
        answered.add(message.tool_call_id);
        out.push(message);
      } else {
        dropped.push(message.tool_call_id);
      }
      continue;
    }
    closeBlock();
    out.push(message);
    if (message.role === 'assistant' && message.tool_calls?.length) calls = [...new Set(message.tool_calls.map((call) => call.id))];
  }
  closeBlock();
  return { messages: out, added, dropped };
}
