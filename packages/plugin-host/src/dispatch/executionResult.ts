import type { ChatResponse } from '@hermes/agent-core';

/**
 * What an execution middleware may return, as the seed allows "any result": a string is the result
 * (for `llm_execution`, the reply's text), a provider response object is the response, and any other
 * value is serialized to JSON. `note` says what was made of an unusual shape (reported once).
 */
export function executionResult(kind: string, returned: unknown, downstream: unknown): { value: unknown; note?: string } {
  if (kind === 'tool_execution') {
    if (typeof returned === 'string') return { value: returned };
    return { value: serialize(returned), note: `a ${describe(returned)}, not a string; the model gets it as JSON` };
  }
  const base: ChatResponse = isResponse(downstream) ? downstream : { text: '', reasoning: '', toolCalls: [], finishReason: null, usage: null };
  if (isResponse(returned)) return { value: { ...base, ...returned } };
  if (typeof returned === 'string') return { value: { ...base, text: returned } };
  return { value: { ...base, text: serialize(returned) }, note: `a ${describe(returned)}, not a provider response; its JSON is used as the reply text` };
}

function isResponse(value: unknown): value is ChatResponse {
  if (!value || typeof value !== 'object') return false;
  const candidate = value as Partial<ChatResponse>;
  return typeof candidate.text === 'string' && Array.isArray(candidate.toolCalls);
}

function describe(value: unknown): string {
  return Array.isArray(value) ? 'array' : typeof value;
}

function serialize(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
