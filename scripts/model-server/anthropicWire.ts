/**
 * Anthropic's Messages wire shapes, built from a scripted turn as plain data (no I/O), beside `wire.ts`
 * for OpenAI. A turn maps to blocks in the order a real model sends them: thinking (`reasoning`, with a
 * signature), text, then one `tool_use` block per tool call with its input streamed as JSON pieces.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { DEFAULT_CHUNK_SIZE, DEFAULT_TOOL_CALL_PIECES } from './script.ts';
import type { FinishReason, Turn } from './script.ts';
import { argumentsText, estimateUsage, finishReasonOf, splitBySize, splitIntoPieces } from './wire.ts';

export interface AnthropicContext {
  id: string;
  model: string;
  /** One per scripted tool call, in order. */
  toolCallIds: string[];
  usage: AnthropicUsage;
}

export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export interface SseEvent {
  event: string;
  data: object;
}

export interface AnthropicErrorBody {
  type: 'error';
  error: { type: string; message: string };
}

const STOP_REASONS: Record<FinishReason, string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  content_filter: 'refusal',
};

export function stopReasonOf(turn: Turn): string {
  return STOP_REASONS[finishReasonOf(turn)];
}

/** The same estimate as the OpenAI route, with the script's cache figures when it gives them. */
export function anthropicUsage(turn: Turn, requestBody: unknown): AnthropicUsage {
  const estimate = estimateUsage(turn, requestBody);
  return {
    input_tokens: estimate.prompt_tokens,
    output_tokens: estimate.completion_tokens,
    cache_creation_input_tokens: turn.usage?.cache_creation_input_tokens ?? 0,
    cache_read_input_tokens: turn.usage?.cache_read_input_tokens ?? 0,
  };
}

/** A signature shaped like the real (opaque, base64) ones; clients must echo it back, never read it. */
function signatureOf(ctx: AnthropicContext): string {
  return Buffer.from(`scripted-signature:${ctx.id}`).toString('base64');
}

/** Objects are sent as is; a string is parsed if it can be (a non-streamed `input` must be an object). */
function inputObject(args: Record<string, unknown> | string): Record<string, unknown> {
  if (typeof args !== 'string') return args;
  try {
    const value: unknown = JSON.parse(args);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Every SSE event of a streamed answer, in order, as the API sends them (including its early `ping`). */
export function anthropicEvents(turn: Turn, ctx: AnthropicContext): SseEvent[] {
  const size = turn.chunk_size ?? DEFAULT_CHUNK_SIZE;
  const out: SseEvent[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          id: ctx.id,
          type: 'message',
          role: 'assistant',
          model: ctx.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          // Like the API: input is known up front, output starts at a token or so and grows.
          usage: { ...ctx.usage, output_tokens: Math.min(1, ctx.usage.output_tokens) },
        },
      },
    },
    { event: 'ping', data: { type: 'ping' } },
  ];
  let index = 0;
  const block = (contentBlock: object, deltas: object[]) => {
    out.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: contentBlock } });
    for (const delta of deltas) out.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta } });
    out.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
    index++;
  };

  if (turn.reasoning) {
    block({ type: 'thinking', thinking: '', signature: '' }, [
      ...splitBySize(turn.reasoning, size).map((thinking) => ({ type: 'thinking_delta', thinking })),
      { type: 'signature_delta', signature: signatureOf(ctx) },
    ]);
  }
  const text = turn.chunks ?? splitBySize(turn.text ?? '', size);
  if (text.length > 0) block({ type: 'text', text: '' }, text.map((piece) => ({ type: 'text_delta', text: piece })));

  (turn.tool_calls ?? []).forEach((call, i) => {
    const pieces = splitIntoPieces(argumentsText(call.arguments), call.pieces ?? DEFAULT_TOOL_CALL_PIECES);
    // The API opens every tool input with an empty piece before the real ones.
    block({ type: 'tool_use', id: ctx.toolCallIds[i], name: call.name, input: {} }, [
      { type: 'input_json_delta', partial_json: '' },
      ...pieces.map((partial_json) => ({ type: 'input_json_delta', partial_json })),
    ]);
  });

  out.push({
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: stopReasonOf(turn), stop_sequence: null },
      usage: { output_tokens: ctx.usage.output_tokens },
    },
  });
  out.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return out;
}

/** SSE framing: the event name line, then the JSON data line. */
export function sseFrame({ event, data }: SseEvent): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The single `message` object of a non-streamed answer. */
export function anthropicMessageBody(turn: Turn, ctx: AnthropicContext): object {
  const content: object[] = [];
  if (turn.reasoning) content.push({ type: 'thinking', thinking: turn.reasoning, signature: signatureOf(ctx) });
  const text = turn.text ?? turn.chunks?.join('');
  if (text) content.push({ type: 'text', text });
  (turn.tool_calls ?? []).forEach((call, i) => {
    content.push({ type: 'tool_use', id: ctx.toolCallIds[i], name: call.name, input: inputObject(call.arguments) });
  });
  return {
    id: ctx.id,
    type: 'message',
    role: 'assistant',
    model: ctx.model,
    content,
    stop_reason: stopReasonOf(turn),
    stop_sequence: null,
    usage: ctx.usage,
  };
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

/** An Anthropic-shaped error body; the type defaults from the status as the API's would. */
export function anthropicErrorBody(status: number, message: string, type?: string): AnthropicErrorBody {
  return {
    type: 'error',
    error: { type: type ?? ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error'), message },
  };
}

/** What the API would refuse before generating anything: a missing key, or a body without its required fields. */
export function checkAnthropicRequest(
  body: Record<string, unknown>,
  headers: IncomingHttpHeaders,
): { status: number; message: string } | undefined {
  // The API takes `x-api-key`; the SDK pinned here sends `Authorization: Bearer`, so both count.
  if (!headers['x-api-key'] && !/^Bearer \S/.test(headers.authorization ?? '')) {
    return { status: 401, message: 'x-api-key header is required' };
  }
  if (typeof body.model !== 'string' || body.model === '') return { status: 400, message: 'model: Field required' };
  if (!Number.isInteger(body.max_tokens) || (body.max_tokens as number) < 1) {
    return { status: 400, message: 'max_tokens: Field required (a positive integer)' };
  }
  if (!Array.isArray(body.messages)) return { status: 400, message: 'messages: Field required' };
  return undefined;
}

type Block = { type?: unknown; id?: unknown; tool_use_id?: unknown };

function blocksOf(message: unknown): Block[] {
  const content = (message as { content?: unknown } | undefined)?.content;
  return Array.isArray(content) ? (content as Block[]) : [];
}

/**
 * The pairing the Messages API enforces (HTTP 400): every `tool_use` block of an assistant message is
 * answered by a `tool_result` block in the very next message, and every `tool_result` answers a
 * `tool_use` of the message just before. The messages are the API's own texts.
 */
export function checkAnthropicSequence(messages: unknown[]): { status: number; message: string } | undefined {
  let asked = new Set<string>();
  for (let i = 0; i <= messages.length; i++) {
    const blocks = i < messages.length ? blocksOf(messages[i]) : [];
    const answered = new Set<string>();
    for (const [j, block] of blocks.entries()) {
      if (block?.type !== 'tool_result') continue;
      const id = String(block.tool_use_id);
      if (!asked.has(id)) {
        return {
          status: 400,
          message: `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. ` +
            'Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
        };
      }
      answered.add(id);
    }
    const missing = [...asked].filter((id) => !answered.has(id));
    if (missing.length > 0) {
      return {
        status: 400,
        message: `messages.${i - 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. ` +
          'Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
      };
    }
    const role = (messages[i] as { role?: unknown } | undefined)?.role;
    asked = new Set(role === 'assistant' ? blocks.filter((b) => b?.type === 'tool_use').map((b) => String(b.id)) : []);
  }
  return undefined;
}
