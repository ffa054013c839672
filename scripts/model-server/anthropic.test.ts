import Anthropic, { APIError } from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer } from './server.ts';
import type { ModelServer } from './server.ts';
import type { Script } from './script.ts';

const servers: ModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(script: Script) {
  const server = await startModelServer(script);
  servers.push(server);
  const client = new Anthropic({ baseURL: server.url, apiKey: 'sk-ant-test', maxRetries: 0 });
  return { server, client };
}

const params = { model: 'claude-test', max_tokens: 256, messages: [{ role: 'user' as const, content: 'hi' }] };

describe('the Anthropic Messages route through @anthropic-ai/sdk', () => {
  it('streams thinking, text and tool_use blocks that the SDK assembles into the scripted message', async () => {
    const args = { path: '/tmp/a file.txt', limit: 3 };
    const { client } = await start({
      turns: [{
        reasoning: 'Think first.',
        text: 'Reading it.',
        chunk_size: 3,
        tool_calls: [{ name: 'read_file', arguments: args, pieces: 4 }],
        usage: { prompt_tokens: 20, completion_tokens: 9, cache_read_input_tokens: 50 },
      }],
    });
    // The SDK's own accumulator (which parses partial tool JSON) is the strictest judge of the wire.
    const message = await client.messages.stream(params).finalMessage();
    expect(message.content.map((b) => b.type)).toEqual(['thinking', 'text', 'tool_use']);
    const [thinking, text, toolUse] = message.content;
    expect(thinking.type === 'thinking' && thinking.thinking).toBe('Think first.');
    expect(thinking.type === 'thinking' && thinking.signature).not.toBe('');
    expect(text.type === 'text' && text.text).toBe('Reading it.');
    expect(toolUse.type === 'tool_use' && toolUse.input).toEqual(args);
    expect(toolUse.type === 'tool_use' && toolUse.id).toMatch(/^toolu_/);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.usage).toMatchObject({ input_tokens: 20, output_tokens: 9, cache_read_input_tokens: 50, cache_creation_input_tokens: 0 });
  });

  it('sends the events in the API order, with the tool input in several input_json_delta pieces', async () => {
    const { client } = await start({ turns: [{ text: 'ab', tool_calls: [{ name: 'ls', arguments: { dir: '.' }, pieces: 3 }] }] });
    const events = [];
    for await (const event of await client.messages.create({ ...params, stream: true })) events.push(event);
    expect(events.map((e) => e.type)).toEqual([
      'message_start',
      'content_block_start', 'content_block_delta', 'content_block_stop',
      'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_delta', 'content_block_delta', 'content_block_stop',
      'message_delta', 'message_stop',
    ]);
    const pieces = events.flatMap((e) => (e.type === 'content_block_delta' && e.delta.type === 'input_json_delta' ? [e.delta.partial_json] : []));
    expect(pieces.join('')).toBe('{"dir":"."}');
    expect(pieces.filter((p) => p !== '')).toHaveLength(3);
  });

  it('answers non-streamed requests with a message object', async () => {
    const { client } = await start({ turns: [{ text: 'Done.', tool_calls: [{ name: 'grep', arguments: '{"q":"x"}' }] }] });
    const message = await client.messages.create(params);
    expect(message.type).toBe('message');
    expect(message.model).toBe('claude-test');
    expect(message.content).toEqual([
      { type: 'text', text: 'Done.' },
      { type: 'tool_use', id: expect.stringMatching(/^toolu_/) as string, name: 'grep', input: { q: 'x' } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
  });

  it('sends scripted errors in Anthropic error shape with retry-after', async () => {
    const { client } = await start({ turns: [{ error: { status: 429, message: 'Slow down', retry_after: 5 } }, { error: { status: 529 } }] });
    const err = (await client.messages.create(params).catch((e: unknown) => e)) as APIError;
    expect(err).toBeInstanceOf(APIError);
    expect(err.status).toBe(429);
    expect(err.headers?.get('retry-after')).toBe('5');
    expect(err.error).toEqual({ type: 'error', error: { type: 'rate_limit_error', message: 'Slow down' } });
    const overloaded = (await client.messages.create({ ...params, stream: true }).catch((e: unknown) => e)) as APIError;
    expect(overloaded.status).toBe(529);
    expect(overloaded.type).toBe('overloaded_error');
  });

  it('records requests, with the key in the Authorization header the SDK sends', async () => {
    const { client, server } = await start({ turns: [{ text: 'a' }, { text: 'b' }] });
    await client.messages.create(params);
    await client.messages.create({ ...params, system: [{ type: 'text', text: 'sys' }] });
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/messages', 'POST /v1/messages']);
    expect((server.requests[1].body as { system: unknown }).system).toEqual([{ type: 'text', text: 'sys' }]);
    expect(server.requests[0].headers.authorization).toBe('Bearer sk-ant-test');
    expect(server.served).toBe(2);
  });

  it('accepts x-api-key, and refuses a request without a key or without max_tokens before using a turn', async () => {
    const { server } = await start({ turns: [{ text: 'only turn' }] });
    const post = (headers: Record<string, string>, body: object) =>
      fetch(`${server.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

    const noKey = await post({}, params);
    expect(noKey.status).toBe(401);
    expect(((await noKey.json()) as { error: { type: string } }).error.type).toBe('authentication_error');
    const noMax = await post({ 'x-api-key': 'k' }, { model: 'm', messages: [] });
    expect(noMax.status).toBe(400);
    expect(await noMax.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('max_tokens') as string } });

    const ok = await post({ 'x-api-key': 'k' }, params);
    expect(((await ok.json()) as { content: unknown }).content).toEqual([{ type: 'text', text: 'only turn' }]);
  });

  it('stalls after stall_after events and close() ends the held connection', async () => {
    const { client, server } = await start({ turns: [{ text: 'abcdefgh', chunk_size: 2, stall_after: 4 }] });
    const stream = await client.messages.create({ ...params, stream: true });
    const iterator = stream[Symbol.asyncIterator]();
    // message_start, (ping: skipped by the SDK), content_block_start, the first text_delta.
    const types = [];
    for (let i = 0; i < 3; i++) types.push((await iterator.next()).value?.type);
    expect(types).toEqual(['message_start', 'content_block_start', 'content_block_delta']);
    const pending = iterator.next().then(
      (r) => (r.done ? 'ended' : 'event'),
      () => 'errored',
    );
    await server.close();
    expect(await pending).toBe('errored');
  });
});
