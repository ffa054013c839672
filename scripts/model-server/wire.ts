/**
 * The OpenAI chat-completions wire shapes, built from a scripted turn as plain data (no I/O), so the
 * server only decides *when* to write and this file decides *what* is written.
 */
import { DEFAULT_CHUNK_SIZE, DEFAULT_TOOL_CALL_PIECES } from './script.ts';
import type { FinishReason, Turn } from './script.ts';

/** Per-response values the server assigns: ids, timestamps, the model echoed back. */
export interface ResponseContext {
  id: string;
  created: number;
  model: string;
  /** One per scripted tool call, in order. */
  toolCallIds: string[];
  usage: WireUsage;
  /** `stream_options.include_usage`: every chunk carries `usage: null`, and a final usage chunk is sent. */
  includeUsage: boolean;
}

export interface WireUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  completion_tokens_details?: { reasoning_tokens: number };
}

export interface ErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

const SYSTEM_FINGERPRINT = 'fp_scripted';

/** Splits by code points so a chunk boundary never cuts a surrogate pair in half. */
export function splitBySize(text: string, size: number): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

/** Splits into at most `pieces` near-equal non-empty parts (one empty part for an empty string). */
export function splitIntoPieces(text: string, pieces: number): string[] {
  const chars = Array.from(text);
  if (chars.length === 0) return [''];
  return splitBySize(text, Math.ceil(chars.length / Math.min(pieces, chars.length)));
}

export function argumentsText(args: Record<string, unknown> | string): string {
  return typeof args === 'string' ? args : JSON.stringify(args);
}

export function finishReasonOf(turn: Turn): FinishReason {
  return turn.finish_reason ?? (turn.tool_calls?.length ? 'tool_calls' : 'stop');
}

function contentOf(turn: Turn): string | undefined {
  return turn.text ?? turn.chunks?.join('');
}

/** Roughly four characters per token, which is what the usage figures are for: plausible, not exact. */
export function estimateUsage(turn: Turn, requestBody: unknown): WireUsage {
  const tokens = (s: string) => Math.ceil(s.length / 4);
  const messages = (requestBody as { messages?: unknown } | undefined)?.messages;
  const reasoning = turn.reasoning ? tokens(turn.reasoning) : 0;
  const completion =
    reasoning +
    tokens(contentOf(turn) ?? '') +
    (turn.tool_calls ?? []).reduce((n, c) => n + tokens(c.name + argumentsText(c.arguments)), 0);
  const prompt = turn.usage?.prompt_tokens ?? tokens(JSON.stringify(messages ?? []));
  const completionTokens = turn.usage?.completion_tokens ?? completion;
  return {
    prompt_tokens: prompt,
    completion_tokens: completionTokens,
    total_tokens: prompt + completionTokens,
    ...(turn.reasoning ? { completion_tokens_details: { reasoning_tokens: Math.min(reasoning, completionTokens) } } : {}),
  };
}

type Delta = Record<string, unknown>;

/** Every `chat.completion.chunk` of a streamed answer, in order (the `[DONE]` sentinel is the server's). */
export function streamChunks(turn: Turn, ctx: ResponseContext): object[] {
  const chunk = (delta: Delta, finishReason: FinishReason | null = null) => ({
    id: ctx.id,
    object: 'chat.completion.chunk',
    created: ctx.created,
    model: ctx.model,
    system_fingerprint: SYSTEM_FINGERPRINT,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(ctx.includeUsage ? { usage: null } : {}),
  });
  const size = turn.chunk_size ?? DEFAULT_CHUNK_SIZE;
  const out: object[] = [chunk({ role: 'assistant', content: '', refusal: null })];

  if (turn.reasoning) {
    for (const piece of splitBySize(turn.reasoning, size)) out.push(chunk({ reasoning_content: piece }));
  }
  const content = turn.chunks ?? splitBySize(turn.text ?? '', size);
  for (const piece of content) out.push(chunk({ content: piece }));

  (turn.tool_calls ?? []).forEach((call, index) => {
    // Like OpenAI: a header delta with id, type and name, then the arguments in fragments.
    out.push(chunk({
      tool_calls: [{ index, id: ctx.toolCallIds[index], type: 'function', function: { name: call.name, arguments: '' } }],
    }));
    for (const piece of splitIntoPieces(argumentsText(call.arguments), call.pieces ?? DEFAULT_TOOL_CALL_PIECES)) {
      out.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });

  out.push(chunk({}, finishReasonOf(turn)));
  if (ctx.includeUsage) {
    out.push({
      id: ctx.id,
      object: 'chat.completion.chunk',
      created: ctx.created,
      model: ctx.model,
      system_fingerprint: SYSTEM_FINGERPRINT,
      choices: [],
      usage: ctx.usage,
    });
  }
  return out;
}

/** The single `chat.completion` object of a non-streamed answer. */
export function completionBody(turn: Turn, ctx: ResponseContext): object {
  const toolCalls = (turn.tool_calls ?? []).map((call, i) => ({
    id: ctx.toolCallIds[i],
    type: 'function',
    function: { name: call.name, arguments: argumentsText(call.arguments) },
  }));
  const content = contentOf(turn);
  return {
    id: ctx.id,
    object: 'chat.completion',
    created: ctx.created,
    model: ctx.model,
    system_fingerprint: SYSTEM_FINGERPRINT,
    choices: [{
      index: 0,
      message: {
        role: 'assistant',
        // OpenAI sends null content alongside tool calls when the model wrote no text.
        content: content ?? (toolCalls.length ? null : ''),
        refusal: null,
        ...(turn.reasoning ? { reasoning_content: turn.reasoning } : {}),
        ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
      },
      logprobs: null,
      finish_reason: finishReasonOf(turn),
    }],
    usage: ctx.usage,
  };
}

const ERROR_TYPES: Record<number, { type: string; code: string | null }> = {
  400: { type: 'invalid_request_error', code: null },
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  404: { type: 'invalid_request_error', code: 'model_not_found' },
  429: { type: 'rate_limit_exceeded', code: 'rate_limit_exceeded' },
  500: { type: 'server_error', code: null },
  503: { type: 'server_error', code: 'overloaded' },
};

/** An OpenAI-shaped error body; type and code default from the status as OpenAI's would. */
export function errorBody(status: number, message: string, type?: string, code?: string | null, param?: string): ErrorBody {
  const fallback = ERROR_TYPES[status] ?? { type: status >= 500 ? 'server_error' : 'invalid_request_error', code: null };
  return {
    error: { message, type: type ?? fallback.type, param: param ?? null, code: code === undefined ? fallback.code : code },
  };
}

/** Why OpenAI would refuse this message list (HTTP 400), with the field it names; undefined when it is fine. */
export interface SequenceProblem {
  message: string;
  param: string;
}

/**
 * The tool-call pairing OpenAI enforces: an assistant message with `tool_calls` must be followed,
 * before any other message, by one `tool` message per call id; a `tool` message must answer a call
 * of the assistant message just before its block. The messages are OpenAI's own error texts.
 */
export function checkChatSequence(messages: unknown[]): SequenceProblem | undefined {
  let open: Set<string> | null = null;
  let openedAt = -1;
  for (let i = 0; i <= messages.length; i++) {
    const message = (i < messages.length ? messages[i] : undefined) as { role?: unknown; tool_call_id?: unknown; tool_calls?: unknown } | undefined;
    const param = `messages.[${i}].role`;
    if (message?.role === 'tool') {
      if (!open) {
        return { message: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", param };
      }
      const id = String(message.tool_call_id);
      if (!open.delete(id)) return { message: `Invalid parameter: 'tool_call_id' of '${id}' not found in 'tool_calls' of previous message.`, param };
      continue;
    }
    if (open && open.size > 0) {
      return {
        message: "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. " +
          `The following tool_call_ids did not have response messages: ${[...open].join(', ')}`,
        param: `messages.[${openedAt}].role`,
      };
    }
    open = null;
    const calls = message?.role === 'assistant' && Array.isArray(message.tool_calls) ? (message.tool_calls as { id?: unknown }[]) : [];
    if (calls.length > 0) {
      open = new Set(calls.map((call) => String(call?.id)));
      openedAt = i;
    }
  }
  return undefined;
}
