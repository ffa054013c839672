/**
 * Pure adapters between the internal OpenAI chat shape and Anthropic's Messages API: the request going
 * out, and the stream events coming back. No I/O, so every conversion is unit-tested on plain data.
 * The wire types are declared here, minimal, rather than taken from the SDK, whose types are loaded lazily.
 */
import type { CallUsage, ChatMessage, ChatResponse, StreamEvent, ToolCall, ToolSchema } from './types.ts';

export interface CacheControl {
  type: 'ephemeral';
}

export interface TextBlock {
  type: 'text';
  text: string;
  cache_control?: CacheControl;
}
export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
}
export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
}
export type ContentBlock = TextBlock | ToolUseBlock | ToolResultBlock;

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: ContentBlock[];
}

export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  cache_control?: CacheControl;
}

export interface AnthropicRequestParts {
  system: TextBlock[];
  messages: AnthropicMessage[];
  tools: AnthropicTool[];
}

const EPHEMERAL: CacheControl = { type: 'ephemeral' };

/**
 * A tool call's arguments as the object `tool_use.input` must be. Arguments the model wrote as invalid
 * JSON are kept (wrapped) rather than dropped, so the model can see what it sent when the tool refused it.
 */
export function parseToolInput(args: string): Record<string, unknown> {
  if (args.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(args);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Falls through to the wrapped form below.
  }
  return { invalid_arguments: args };
}

/**
 * Converts the history and tools. System messages before the conversation become `system` blocks; a
 * system message later in the history (Anthropic has no such role) is sent as user text in its place, so
 * the order is kept and the cached prefix does not change. Tool results become `tool_result` blocks in a
 * user message, and consecutive same-role messages are merged because the API wants roles to alternate.
 * The last system block and the last tool carry `cache_control`: the stable prefix is cached.
 */
export function toAnthropicRequest(history: ChatMessage[], tools: ToolSchema[]): AnthropicRequestParts {
  const system: TextBlock[] = [];
  const messages: AnthropicMessage[] = [];
  const push = (role: AnthropicMessage['role'], blocks: ContentBlock[]) => {
    if (blocks.length === 0) return;
    const last = messages.at(-1);
    if (last?.role !== role) return void messages.push({ role, content: blocks });
    last.content.push(...blocks);
    // The API wants a user message's tool results before its text, whatever order they were merged in.
    if (role === 'user') last.content.sort((a, b) => Number(b.type === 'tool_result') - Number(a.type === 'tool_result'));
  };

  for (const message of history) {
    switch (message.role) {
      case 'system':
        if (messages.length === 0) {
          if (message.content !== '') system.push({ type: 'text', text: message.content });
        } else if (message.content !== '') {
          push('user', [{ type: 'text', text: message.content }]);
        }
        break;
      case 'user':
        // The API rejects empty text blocks.
        push('user', message.content === '' ? [] : [{ type: 'text', text: message.content }]);
        break;
      case 'assistant': {
        const blocks: ContentBlock[] = message.content ? [{ type: 'text', text: message.content }] : [];
        for (const call of message.tool_calls ?? []) {
          blocks.push({ type: 'tool_use', id: call.id, name: call.function.name, input: parseToolInput(call.function.arguments) });
        }
        push('assistant', blocks);
        break;
      }
      case 'tool':
        push('user', [{ type: 'tool_result', tool_use_id: message.tool_call_id, content: message.content }]);
        break;
    }
  }
  const lastSystem = system.at(-1);
  if (lastSystem) lastSystem.cache_control = EPHEMERAL;

  const anthropicTools: AnthropicTool[] = tools.map((tool) => ({
    name: tool.function.name,
    description: tool.function.description,
    input_schema: tool.function.parameters,
  }));
  const lastTool = anthropicTools.at(-1);
  if (lastTool) lastTool.cache_control = EPHEMERAL;
  return { system, messages, tools: anthropicTools };
}

/**
 * Output budget when none is configured: generous enough for a whole file written by a tool call, within
 * what each model line allows (Claude 3 models stop at 4096, 3.5 at 8192; later ones allow far more).
 */
export function defaultMaxTokens(model: string): number {
  if (/claude-3-(opus|sonnet|haiku)/.test(model)) return 4096;
  if (/claude-3-5/.test(model)) return 8192;
  return 16384;
}

/** Anthropic's `stop_reason` in the internal (OpenAI) vocabulary; unknown reasons pass through. */
export function finishReasonOf(stopReason: string | null | undefined): string | null {
  switch (stopReason) {
    case undefined:
    case null:
      return null;
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default:
      return stopReason;
  }
}

interface WireUsage {
  input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  output_tokens?: number | null;
  output_tokens_details?: { thinking_tokens?: number } | null;
}

/** The stream events this adapter reads; anything else (server tools, citations) is ignored. */
export type AnthropicStreamEvent =
  | { type: 'message_start'; message: { usage?: WireUsage } }
  | { type: 'content_block_start'; index: number; content_block: { type: string; id?: string; name?: string; text?: string; thinking?: string } }
  | { type: 'content_block_delta'; index: number; delta: { type: string; text?: string; thinking?: string; partial_json?: string } }
  | { type: 'content_block_stop'; index: number }
  | { type: 'message_delta'; delta: { stop_reason?: string | null }; usage?: WireUsage }
  | { type: 'message_stop' };

/**
 * Folds stream events into a `ChatResponse`, reporting text, reasoning and starting tool calls as they
 * come. Usage is cumulative on the wire: `message_delta` repeats and updates what `message_start` said.
 */
export class AnthropicStreamAccumulator {
  readonly response: ChatResponse = { text: '', reasoning: '', toolCalls: [], finishReason: null, usage: null };
  private readonly calls = new Map<number, ToolCall>();

  constructor(private readonly onEvent: (event: StreamEvent) => void) {}

  add(event: AnthropicStreamEvent): void {
    switch (event.type) {
      case 'message_start':
        this.addUsage(event.message.usage);
        break;
      case 'content_block_start': {
        const block = event.content_block;
        if (block.type === 'tool_use') {
          const name = block.name ?? '';
          this.calls.set(event.index, { id: block.id ?? '', type: 'function', function: { name, arguments: '' } });
          this.onEvent({ type: 'tool_generating', name });
        } else if (block.type === 'text' && block.text) {
          this.text(block.text);
        } else if (block.type === 'thinking' && block.thinking) {
          this.reasoning(block.thinking);
        }
        break;
      }
      case 'content_block_delta': {
        const { delta } = event;
        if (delta.type === 'text_delta' && delta.text) this.text(delta.text);
        else if (delta.type === 'thinking_delta' && delta.thinking) this.reasoning(delta.thinking);
        else if (delta.type === 'input_json_delta' && delta.partial_json) {
          const call = this.calls.get(event.index);
          if (call) call.function.arguments += delta.partial_json;
        }
        break;
      }
      case 'message_delta':
        if (event.delta.stop_reason !== undefined) this.response.finishReason = finishReasonOf(event.delta.stop_reason);
        this.addUsage(event.usage);
        break;
      default:
        break;
    }
  }

  /** The response once the stream has ended, with tool calls in block order. */
  finish(): ChatResponse {
    this.response.toolCalls = [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => ({
        ...call,
        id: call.id || `toolu_${index}`,
        // A tool that takes no input streams no JSON at all.
        function: { ...call.function, arguments: call.function.arguments || '{}' },
      }));
    return this.response;
  }

  private text(text: string): void {
    this.response.text += text;
    this.onEvent({ type: 'text', text });
  }

  private reasoning(text: string): void {
    this.response.reasoning += text;
    this.onEvent({ type: 'reasoning', text });
  }

  private addUsage(usage: WireUsage | undefined): void {
    if (!usage) return;
    const previous: CallUsage = this.response.usage ?? { input: 0, output: 0, reasoning: 0 };
    // Cached tokens are input too: reads and writes are billed, and they fill the context window.
    const hasInput = [usage.input_tokens, usage.cache_creation_input_tokens, usage.cache_read_input_tokens].some((n) => typeof n === 'number');
    const input = hasInput
      ? (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0)
      : previous.input;
    this.response.usage = {
      input: Math.max(input, previous.input),
      output: usage.output_tokens ?? previous.output,
      reasoning: usage.output_tokens_details?.thinking_tokens ?? previous.reasoning,
    };
  }
}
