import { describe, expect, it } from 'vitest';
import { AnthropicStreamAccumulator, defaultMaxTokens, finishReasonOf, parseToolInput, toAnthropicRequest } from './anthropicMessages.ts';
import type { AnthropicStreamEvent } from './anthropicMessages.ts';
import type { ChatMessage, StreamEvent, ToolSchema } from './types.ts';

const call = (id: string, name: string, args: string) => ({ id, type: 'function' as const, function: { name, arguments: args } });
const tool = (name: string): ToolSchema => ({
  type: 'function',
  function: { name, description: `${name} things`, parameters: { type: 'object', properties: { path: { type: 'string' } } } },
});

describe('toAnthropicRequest', () => {
  it('moves leading system messages into system blocks, caching the last one', () => {
    const { system, messages } = toAnthropicRequest(
      [
        { role: 'system', content: 'You are hermes.' },
        { role: 'system', content: 'Project notes.' },
        { role: 'user', content: 'hi' },
      ],
      [],
    );
    expect(system).toEqual([
      { type: 'text', text: 'You are hermes.' },
      { type: 'text', text: 'Project notes.', cache_control: { type: 'ephemeral' } },
    ]);
    expect(messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
  });

  it('turns tool calls into tool_use blocks and merges consecutive tool results into one user message', () => {
    const history: ChatMessage[] = [
      { role: 'user', content: 'look around' },
      { role: 'assistant', content: 'Checking.', tool_calls: [call('toolu_1', 'ls', '{"dir":"."}'), call('toolu_2', 'read_file', '{"path":"a.md"}')] },
      { role: 'tool', tool_call_id: 'toolu_1', content: 'a.md' },
      { role: 'tool', tool_call_id: 'toolu_2', content: '# A' },
      { role: 'assistant', content: 'Done.' },
    ];
    expect(toAnthropicRequest(history, []).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'look around' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_1', name: 'ls', input: { dir: '.' } },
          { type: 'tool_use', id: 'toolu_2', name: 'read_file', input: { path: 'a.md' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'a.md' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: '# A' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
    ]);
  });

  it('keeps a later system message in place as user text, after the tool results it follows', () => {
    const history: ChatMessage[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [call('t1', 'ls', '{}')] },
      { role: 'system', content: 'Context was trimmed.' },
      { role: 'tool', tool_call_id: 't1', content: 'x' },
    ];
    const { system, messages } = toAnthropicRequest(history, []);
    expect(system.map((b) => b.text)).toEqual(['sys']);
    // The assistant message had no text: only its tool_use block is sent (empty text blocks are rejected).
    expect(messages[1]).toEqual({ role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'ls', input: {} }] });
    expect(messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 't1', content: 'x' },
        { type: 'text', text: 'Context was trimmed.' },
      ],
    });
  });

  it('sends tools with input_schema and caches the last definition', () => {
    const { tools } = toAnthropicRequest([{ role: 'user', content: 'x' }], [tool('ls'), tool('read_file')]);
    expect(tools).toEqual([
      { name: 'ls', description: 'ls things', input_schema: tool('ls').function.parameters },
      { name: 'read_file', description: 'read_file things', input_schema: tool('read_file').function.parameters, cache_control: { type: 'ephemeral' } },
    ]);
  });

  it('keeps invalid tool arguments visible instead of dropping them', () => {
    expect(parseToolInput('{"a":1}')).toEqual({ a: 1 });
    expect(parseToolInput('')).toEqual({});
    expect(parseToolInput('{"a":')).toEqual({ invalid_arguments: '{"a":' });
    expect(parseToolInput('[1]')).toEqual({ invalid_arguments: '[1]' });
  });
});

describe('defaults and vocabulary', () => {
  it('picks an output budget the model line allows', () => {
    expect(defaultMaxTokens('claude-3-haiku-20240307')).toBe(4096);
    expect(defaultMaxTokens('claude-3-5-sonnet-latest')).toBe(8192);
    expect(defaultMaxTokens('claude-sonnet-4-5')).toBe(16384);
  });

  it('maps stop reasons to the internal finish reasons', () => {
    expect(['end_turn', 'max_tokens', 'tool_use', 'refusal', 'pause_turn', null].map(finishReasonOf)).toEqual([
      'stop', 'length', 'tool_calls', 'content_filter', 'pause_turn', null,
    ]);
  });
});

describe('AnthropicStreamAccumulator', () => {
  it('reports text, reasoning and tool starts, and assembles tool input from pieces', () => {
    const events: StreamEvent[] = [];
    const acc = new AnthropicStreamAccumulator((e) => events.push(e));
    const wire: AnthropicStreamEvent[] = [
      { type: 'message_start', message: { usage: { input_tokens: 10, cache_read_input_tokens: 100, cache_creation_input_tokens: 5, output_tokens: 1 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Hmm.' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta' } },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hi' } },
      { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_9', name: 'ls' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"dir"' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: ':"."}' } },
      { type: 'content_block_start', index: 3, content_block: { type: 'tool_use', id: 'toolu_10', name: 'pwd' } },
      { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 42 } },
      { type: 'message_stop' },
    ];
    wire.forEach((e) => acc.add(e));
    const response = acc.finish();
    expect(events).toEqual([
      { type: 'reasoning', text: 'Hmm.' },
      { type: 'text', text: 'Hi' },
      { type: 'tool_generating', name: 'ls' },
      { type: 'tool_generating', name: 'pwd' },
    ]);
    expect(response).toMatchObject({ text: 'Hi', reasoning: 'Hmm.', finishReason: 'tool_calls', usage: { input: 115, output: 42, reasoning: 0 } });
    expect(response.toolCalls).toEqual([call('toolu_9', 'ls', '{"dir":"."}'), call('toolu_10', 'pwd', '{}')]);
  });
});
