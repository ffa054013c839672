import type { ChatResponse, ToolCall } from '@hermes/agent-core';

/**
 * What an execution middleware may return, as the seed allows "any result": a string is the result
 * (for `llm_execution`, the reply's text), an object with provider-response fields is laid over the
 * downstream response (a field of the wrong shape is ignored: a bad `toolCalls` or `usage` must not
 * fail the turn), and any other value is serialized to JSON. `note` says what was made of an unusual
 * shape (reported once).
 */
export function executionResult(kind: string, returned: unknown, downstream: unknown): { value: unknown; note?: string } {
  if (kind === 'tool_execution') {
    if (typeof returned === 'string') return { value: returned };
    return { value: serialize(returned), note: `a ${describe(returned)}, not a string; the model gets it as JSON` };
  }
  const base: ChatResponse = isResponse(downstream) ? downstream : { text: '', reasoning: '', toolCalls: [], finishReason: null, usage: null };
  if (typeof returned === 'string') return { value: { ...base, text: returned } };
  if (isPlainObject(returned) && RESPONSE_FIELDS.some((field) => Object.hasOwn(returned, field))) {
    const value: ChatResponse = { ...base };
    const ignored: ResponseField[] = [];
    for (const field of RESPONSE_FIELDS) {
      if (!Object.hasOwn(returned, field)) continue;
      const candidate = returned[field];
      if (FIELD_CHECKS[field](candidate)) Object.assign(value, { [field]: normalize(field, candidate) });
      else ignored.push(field);
    }
    if (ignored.length === 0) return { value };
    return { value, note: `a response whose ${ignored.map((f) => `\`${f}\``).join(', ')} ${ignored.length > 1 ? 'have' : 'has'} the wrong shape (${ignored.map((f) => `${f}: ${FIELD_SHAPES[f]}`).join('; ')}); the downstream value is kept` };
  }
  return { value: { ...base, text: serialize(returned) }, note: `a ${describe(returned)}, not a provider response; its JSON is used as the reply text` };
}

/**
 * Why a payload a middleware hands on (a request middleware's replacement, or what an execution
 * middleware passes to `next_call`) cannot be used, or null when it can: tool args must be an object,
 * a provider request must still be one the provider can be sent.
 */
export function replacementProblem(kind: string, replacement: unknown): string | null {
  const llm = kind.startsWith('llm_');
  if (!isPlainObject(replacement)) return llm ? 'the request must be an object' : 'the tool arguments must be an object';
  if (!llm) return null;
  const { messages, tools } = replacement;
  if (!Array.isArray(messages) || !messages.every((m) => isPlainObject(m) && typeof m.role === 'string')) {
    return '`request.messages` must be a list of {role, content} messages';
  }
  if (tools !== undefined && !Array.isArray(tools)) return '`request.tools` must be a list of tool schemas';
  return null;
}

type ResponseField = keyof ChatResponse;
const RESPONSE_FIELDS: readonly ResponseField[] = ['text', 'reasoning', 'toolCalls', 'finishReason', 'usage'];

const isCount = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;

const FIELD_CHECKS: Record<ResponseField, (v: unknown) => boolean> = {
  text: (v) => typeof v === 'string',
  reasoning: (v) => typeof v === 'string',
  toolCalls: (v) => Array.isArray(v) && v.every(isToolCall),
  finishReason: (v) => v === null || typeof v === 'string',
  usage: (v) => v === null || (isPlainObject(v) && isCount(v.input) && isCount(v.output) && (v.reasoning === undefined || isCount(v.reasoning))),
};

const FIELD_SHAPES: Record<ResponseField, string> = {
  text: 'a string',
  reasoning: 'a string',
  toolCalls: 'a list of {id, function: {name, arguments}} with strings',
  finishReason: 'a string or null',
  usage: 'null or {input, output, reasoning} counts',
};

function isToolCall(v: unknown): boolean {
  if (!isPlainObject(v) || typeof v.id !== 'string' || !v.id) return false;
  const fn = v.function;
  return isPlainObject(fn) && typeof fn.name === 'string' && fn.name !== '' && typeof fn.arguments === 'string';
}

/** A checked field, rebuilt with only the fields hermes reads (and `type`/`reasoning` filled in). */
function normalize(field: ResponseField, v: unknown): unknown {
  if (field === 'toolCalls') {
    return (v as ToolCall[]).map((c) => ({ id: c.id, type: 'function', function: { name: c.function.name, arguments: c.function.arguments } }));
  }
  if (field === 'usage' && v) {
    const u = v as { input: number; output: number; reasoning?: number };
    return { input: u.input, output: u.output, reasoning: u.reasoning ?? 0 };
  }
  return v;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
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
