import type { ChatMessage, ToolSchema } from '../providers/types.ts';

/**
 * Cheap token estimates, no tokenizer: every model family tokenizes differently, a real BPE would be
 * a dependency plus a table per family, and the compressor only needs to know roughly when a prompt
 * nears its window. The estimate errs high rather than low on purpose: an underestimate lets a prompt
 * overflow the window (a hard provider error mid-turn), an overestimate only compresses a little early.
 *
 * - ASCII text: ~4 characters per token, OpenAI's published rule of thumb for English; code is close.
 * - Any other character: 1 token. CJK text runs near one token per character; accented Latin text is
 *   overcounted, which is the safe side.
 * - Each message: 4 tokens of framing (role and separators; OpenAI's cookbook counts 3 to 4).
 * - Each tool call: 8 tokens of framing (id, type, name wrapper) plus its name and JSON arguments.
 * - Each tool schema: 10 tokens of framing plus its JSON; providers render schemas differently, JSON
 *   length is a fair middle.
 * - Each prompt: 3 tokens that prime the reply.
 *
 * All functions are monotonic: appending text, a message or a schema never lowers the estimate.
 */
export const CHARS_PER_TOKEN = 4;
export const MESSAGE_OVERHEAD_TOKENS = 4;
export const TOOL_CALL_OVERHEAD_TOKENS = 8;
export const TOOL_SCHEMA_OVERHEAD_TOKENS = 10;
export const REPLY_PRIMING_TOKENS = 3;

export function estimateTextTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x80) ascii += 1;
    // A low surrogate is the second half of one astral character (emoji), already counted.
    else if (code < 0xdc00 || code > 0xdfff) other += 1;
  }
  return Math.ceil(ascii / CHARS_PER_TOKEN) + other;
}

export function estimateMessageTokens(message: ChatMessage): number {
  let tokens = MESSAGE_OVERHEAD_TOKENS + estimateTextTokens(message.content ?? '');
  if (message.role === 'assistant' && message.tool_calls) {
    for (const call of message.tool_calls) {
      tokens +=
        TOOL_CALL_OVERHEAD_TOKENS +
        estimateTextTokens(call.id) +
        estimateTextTokens(call.function.name) +
        estimateTextTokens(call.function.arguments);
    }
  } else if (message.role === 'tool') {
    tokens += estimateTextTokens(message.tool_call_id);
  }
  return tokens;
}

export function estimateMessagesTokens(messages: readonly ChatMessage[]): number {
  let tokens = REPLY_PRIMING_TOKENS;
  for (const message of messages) tokens += estimateMessageTokens(message);
  return tokens;
}

export function estimateToolsTokens(tools: readonly ToolSchema[]): number {
  let tokens = 0;
  for (const tool of tools) tokens += TOOL_SCHEMA_OVERHEAD_TOKENS + estimateTextTokens(JSON.stringify(tool.function));
  return tokens;
}

/** The whole request as the window sees it: messages plus tool schemas. */
export function estimatePromptTokens(messages: readonly ChatMessage[], tools: readonly ToolSchema[] = []): number {
  return estimateMessagesTokens(messages) + estimateToolsTokens(tools);
}
