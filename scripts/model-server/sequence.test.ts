/**
 * The scripted server refuses histories whose tool calls and results do not pair up, as OpenAI and
 * Anthropic do (HTTP 400 with their error shape), so a client bug that bricks sessions on real
 * providers fails tests here too.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI, { APIError } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { checkAnthropicSequence } from './anthropicWire.ts';
import { startModelServer, type ModelServer, type ModelServerOptions } from './server.ts';
import { checkChatSequence } from './wire.ts';

const servers: ModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(options?: ModelServerOptions) {
  const server = await startModelServer({ loop: true, turns: [{ text: 'fine' }] }, options);
  servers.push(server);
  return server;
}

const call = (id: string) => ({ id, type: 'function', function: { name: 'terminal', arguments: '{}' } });
const asks = (...ids: string[]) => ({ role: 'assistant', content: null, tool_calls: ids.map(call) });
const answer = (id: string) => ({ role: 'tool', tool_call_id: id, content: 'ok' });
const user = { role: 'user', content: 'hi' };

describe('checkChatSequence (OpenAI)', () => {
  it('accepts calls answered in any order before the next message', () => {
    expect(checkChatSequence([user, asks('a', 'b'), answer('b'), answer('a'), { role: 'assistant', content: 'done' }, user])).toBeUndefined();
  });

  it('names the call left without a result, at the assistant message, also at the end of the list', () => {
    expect(checkChatSequence([user, asks('a', 'b'), answer('a'), user])).toEqual({
      message: expect.stringContaining('did not have response messages: b'),
      param: 'messages.[1].role',
    });
    expect(checkChatSequence([user, asks('a')])?.message).toMatch(/must be followed by tool messages.*: a$/);
  });

  it('refuses a tool message with no call before it, or answering a call of another message', () => {
    expect(checkChatSequence([user, answer('a')])).toEqual({
      message: expect.stringContaining("messages with role 'tool' must be a response to a preceeding message with 'tool_calls'"),
      param: 'messages.[1].role',
    });
    expect(checkChatSequence([user, asks('a'), answer('a'), answer('a')])?.message).toBe(
      "Invalid parameter: 'tool_call_id' of 'a' not found in 'tool_calls' of previous message.",
    );
    expect(checkChatSequence([user, asks('a'), answer('a'), user, answer('a')])?.param).toBe('messages.[4].role');
  });
});

describe('checkAnthropicSequence', () => {
  const uses = (...ids: string[]) => ({ role: 'assistant', content: ids.map((id) => ({ type: 'tool_use', id, name: 'ls', input: {} })) });
  const results = (...ids: string[]) => ({ role: 'user', content: ids.map((id) => ({ type: 'tool_result', tool_use_id: id, content: 'x' })) });

  it('accepts every tool_use answered in the next message', () => {
    expect(checkAnthropicSequence([user, uses('t1', 't2'), results('t2', 't1'), { role: 'assistant', content: 'ok' }])).toBeUndefined();
  });

  it('refuses a tool_use without its tool_result right after, and a tool_result without its tool_use', () => {
    expect(checkAnthropicSequence([user, uses('t1', 't2'), results('t1')])?.message).toMatch(
      /^messages\.1: `tool_use` ids were found without `tool_result` blocks immediately after: t2\./,
    );
    expect(checkAnthropicSequence([user, uses('t1')])?.message).toMatch(/^messages\.1: .*: t1\./);
    expect(checkAnthropicSequence([user, results('t9')])).toEqual({
      status: 400,
      message: expect.stringMatching(/^messages\.1\.content\.0: unexpected `tool_use_id` found in `tool_result` blocks: t9\./),
    });
  });
});

describe('the server refuses invalid sequences like the real APIs', () => {
  it('answers an OpenAI request with an unanswered tool call with HTTP 400 and an OpenAI error body', async () => {
    const server = await start();
    const client = new OpenAI({ baseURL: server.baseUrl, apiKey: 'test', maxRetries: 0 });
    const messages = [user, asks('call_1'), user] as never;
    const error = await client.chat.completions.create({ model: 'm', messages }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(400);
    expect((error as APIError).error).toEqual({
      message: expect.stringContaining('call_1'),
      type: 'invalid_request_error',
      param: 'messages.[1].role',
      code: null,
    });
    expect(server.served).toBe(0);
    // The same history, healed, is served.
    const healed = await client.chat.completions.create({ model: 'm', messages: [user, asks('call_1'), answer('call_1'), user] as never });
    expect(healed.choices[0]!.message.content).toBe('fine');
  });

  it('answers an Anthropic request with a tool_result and no tool_use with HTTP 400 and an Anthropic error body', async () => {
    const server = await start();
    const client = new Anthropic({ baseURL: server.url, apiKey: 'sk-ant-test', maxRetries: 0 });
    const messages = [{ role: 'user' as const, content: [{ type: 'tool_result' as const, tool_use_id: 'toolu_x', content: 'x' }] }];
    const error = await client.messages.create({ model: 'claude-test', max_tokens: 10, messages }).catch((e: unknown) => e);
    expect((error as { status?: number }).status).toBe(400);
    expect((error as { error?: unknown }).error).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringContaining('toolu_x') },
    });
  });

  it('serves invalid sequences when validateSequences is off', async () => {
    const server = await start({ validateSequences: false });
    const client = new OpenAI({ baseURL: server.baseUrl, apiKey: 'test', maxRetries: 0 });
    const res = await client.chat.completions.create({ model: 'm', messages: [user, answer('nobody')] as never });
    expect(res.choices[0]!.message.content).toBe('fine');
  });
});
