import OpenAI, { APIConnectionTimeoutError, APIError } from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startModelServer } from './server.ts';
import type { ModelServer, ModelServerOptions } from './server.ts';
import type { Script } from './script.ts';

const servers: ModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(script: Script, options?: ModelServerOptions) {
  const server = await startModelServer(script, options);
  servers.push(server);
  const client = new OpenAI({ baseURL: server.baseUrl, apiKey: 'test', maxRetries: 0 });
  return { server, client };
}

const user = (content: string) => [{ role: 'user' as const, content }];

async function collect(stream: AsyncIterable<ChatCompletionChunk>): Promise<ChatCompletionChunk[]> {
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

const contentOf = (chunks: ChatCompletionChunk[]) => chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');

describe('streamed chat completions through the openai SDK', () => {
  it('streams text in several chunks that concatenate to the scripted text', async () => {
    const text = 'The quick brown fox jumps over the lazy dog.';
    const { client } = await start({ turns: [{ text, chunk_size: 5 }] });
    const chunks = await collect(await client.chat.completions.create({ model: 'm', messages: user('hi'), stream: true }));

    expect(chunks[0].object).toBe('chat.completion.chunk');
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    const pieces = chunks.map((c) => c.choices[0]?.delta.content).filter((c) => c);
    expect(pieces).toHaveLength(Math.ceil(text.length / 5));
    expect(contentOf(chunks)).toBe(text);
    expect(chunks.at(-1)?.choices[0].finish_reason).toBe('stop');
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
  });

  it('sends explicit chunks as given', async () => {
    const { client } = await start({ turns: [{ chunks: ['Hel', 'lo, ', 'world'] }] });
    const chunks = await collect(await client.chat.completions.create({ model: 'm', messages: user('hi'), stream: true }));
    expect(chunks.map((c) => c.choices[0]?.delta.content).filter((c) => c)).toEqual(['Hel', 'lo, ', 'world']);
  });

  it('streams tool call arguments in pieces that the SDK assembles into the scripted object', async () => {
    const args = { path: '/tmp/some file.txt', limit: 20, nested: { ok: true } };
    const { client } = await start({
      loop: true,
      turns: [{ text: 'Reading.', tool_calls: [{ name: 'read_file', arguments: args, pieces: 4 }, { id: 'call_x', name: 'ls', arguments: '{}' }] }],
    });
    const raw = await collect(await client.chat.completions.create({ model: 'm', messages: user('read'), stream: true }));
    const argDeltas = raw.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []).filter((t) => t.index === 0 && t.function?.arguments);
    expect(argDeltas).toHaveLength(4);

    // The SDK's own accumulator is the strictest judge of the wire format.
    const final = await client.chat.completions.stream({ model: 'm', messages: user('read') }).finalChatCompletion();
    const [first, second] = final.choices[0].message.tool_calls ?? [];
    expect(first.type === 'function' && first.function.name).toBe('read_file');
    expect(first.type === 'function' && JSON.parse(first.function.arguments)).toEqual(args);
    expect(first.id).toMatch(/^call_\d+$/);
    expect(second.id).toBe('call_x');
    expect(final.choices[0].message.content).toBe('Reading.');
    expect(final.choices[0].finish_reason).toBe('tool_calls');
  });

  it('streams reasoning as reasoning_content deltas before the text', async () => {
    const { client } = await start({ turns: [{ reasoning: 'Let me think about this.', text: 'Answer.' }] });
    const chunks = await collect(await client.chat.completions.create({ model: 'm', messages: user('q'), stream: true }));
    const reasoningOf = (c: ChatCompletionChunk) => (c.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content;
    expect(chunks.map(reasoningOf).filter((r) => r).join('')).toBe('Let me think about this.');
    const firstReasoning = chunks.findIndex(reasoningOf);
    const firstContent = chunks.findIndex((c) => c.choices[0]?.delta.content);
    expect(firstReasoning).toBeGreaterThan(0);
    expect(firstReasoning).toBeLessThan(firstContent);
  });

  it('sends usage as a final chunk with empty choices only when include_usage is asked for', async () => {
    const { client } = await start({ loop: true, turns: [{ text: 'Hi.', usage: { prompt_tokens: 11, completion_tokens: 3 } }] });
    const withUsage = await collect(
      await client.chat.completions.create({ model: 'm', messages: user('q'), stream: true, stream_options: { include_usage: true } }),
    );
    const last = withUsage.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 });

    const without = await collect(await client.chat.completions.create({ model: 'm', messages: user('q'), stream: true }));
    expect(without.some((c) => c.usage)).toBe(false);
  });
});

describe('non-streamed responses, models and routing', () => {
  it('answers a chat.completion with content, tool calls and estimated usage', async () => {
    const { client } = await start({ turns: [{ text: 'Done.', tool_calls: [{ name: 'grep', arguments: { q: 'x' } }] }] });
    const res = await client.chat.completions.create({ model: 'gpt-x', messages: user('a fairly long prompt for the estimate') });
    expect(res.object).toBe('chat.completion');
    expect(res.model).toBe('gpt-x');
    expect(res.choices[0].message.content).toBe('Done.');
    const call = res.choices[0].message.tool_calls?.[0];
    expect(call?.type === 'function' && JSON.parse(call.function.arguments)).toEqual({ q: 'x' });
    expect(res.choices[0].finish_reason).toBe('tool_calls');
    expect(res.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(res.usage?.completion_tokens).toBeGreaterThan(0);
  });

  it('lists the script model on /v1/models, defaulting to scripted-model', async () => {
    const { client } = await start({ model: 'my-model', turns: [{ text: 'x' }] });
    expect((await client.models.list()).data.map((m) => m.id)).toEqual(['my-model']);
    const { client: other } = await start({ turns: [{ text: 'x' }] });
    expect((await other.models.list()).data.map((m) => m.id)).toEqual(['scripted-model']);
  });

  it('answers unknown routes with 404 and an OpenAI-shaped error body', async () => {
    const { server } = await start({ turns: [{ text: 'x' }] });
    const res = await fetch(`${server.url}/v1/nope`);
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: { message: string; type: string } };
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toContain('/v1/nope');
  });

  it('records requests with their parsed bodies and headers, in order', async () => {
    const { server, client } = await start({ turns: [{ text: 'a' }, { text: 'b' }] });
    await client.chat.completions.create({ model: 'm', messages: user('first') });
    await collect(await client.chat.completions.create({ model: 'm', messages: user('second'), stream: true }));
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/chat/completions', 'POST /v1/chat/completions']);
    expect(server.requests.map((r) => (r.body as { messages: unknown }).messages)).toEqual([user('first'), user('second')]);
    expect(server.requests[0].headers.authorization).toBe('Bearer test');
    expect(server.served).toBe(2);
  });
});

describe('errors, exhaustion and looping', () => {
  it('surfaces a scripted 429 as an APIError with the Retry-After header', async () => {
    const { client } = await start({ turns: [{ error: { status: 429, message: 'Slow down', retry_after: 7 } }] });
    const err = await client.chat.completions.create({ model: 'm', messages: user('q'), stream: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIError);
    expect((err as APIError).status).toBe(429);
    expect((err as APIError).headers?.get('retry-after')).toBe('7');
    expect((err as APIError).message).toContain('Slow down');
    expect((err as APIError).type).toBe('rate_limit_exceeded');
  });

  it('surfaces a scripted 500 as an APIError', async () => {
    const { client } = await start({ turns: [{ error: { status: 500 } }, { text: 'recovered' }] });
    const err = await client.chat.completions.create({ model: 'm', messages: user('q') }).catch((e: unknown) => e);
    expect((err as APIError).status).toBe(500);
    const next = await client.chat.completions.create({ model: 'm', messages: user('q') });
    expect(next.choices[0].message.content).toBe('recovered');
  });

  it('answers 500 naming the exhausted script and how many requests it served', async () => {
    const { client } = await start({ turns: [{ text: 'one' }, { text: 'two' }] });
    await client.chat.completions.create({ model: 'm', messages: user('q') });
    await client.chat.completions.create({ model: 'm', messages: user('q') });
    const err = (await client.chat.completions.create({ model: 'm', messages: user('q') }).catch((e: unknown) => e)) as APIError;
    expect(err.status).toBe(500);
    expect(err.message).toMatch(/exhausted/);
    expect(err.message).toMatch(/served 2 request/);
  });

  it('starts over when loop is true', async () => {
    const { client, server } = await start({ loop: true, turns: [{ text: 'one' }, { text: 'two' }] });
    const texts: (string | null)[] = [];
    for (let i = 0; i < 5; i++) {
      texts.push((await client.chat.completions.create({ model: 'm', messages: user('q') })).choices[0].message.content);
    }
    expect(texts).toEqual(['one', 'two', 'one', 'two', 'one']);
    expect(server.served).toBe(5);
  });
});

describe('timing, disconnects and shutdown', () => {
  it('holds the response for delay_ms, then answers', async () => {
    const { client } = await start({ turns: [{ text: 'late', delay_ms: 5_000 }, { text: 'soon', delay_ms: 20 }] });
    // The client gives up long before the delay ends: proof that nothing was sent in the meantime.
    const err = await client.chat.completions.create({ model: 'm', messages: user('q') }, { timeout: 100 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIConnectionTimeoutError);
    const res = await client.chat.completions.create({ model: 'm', messages: user('q') });
    expect(res.choices[0].message.content).toBe('soon');
  });

  it('survives a client that aborts mid-stream and serves the next request', async () => {
    const lines: string[] = [];
    const { client } = await start(
      { turns: [{ text: 'x'.repeat(400), chunk_size: 4, chunk_delay_ms: 10 }, { text: 'next' }] },
      { log: (line) => lines.push(line) },
    );
    const stream = await client.chat.completions.create({ model: 'm', messages: user('q'), stream: true });
    let received = 0;
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta.content && ++received === 3) break; // breaking aborts the request
    }
    await vi.waitFor(() => expect(lines).toContain('client disconnected during turn 0'));
    const res = await client.chat.completions.create({ model: 'm', messages: user('q') });
    expect(res.choices[0].message.content).toBe('next');
  });

  it('sends a long unpaced reply whole and in order', async () => {
    const text = Array.from({ length: 4_000 }, (_, i) => `w${i} `).join('');
    const { client } = await start({ turns: [{ text, chunk_size: 3 }] });
    const chunks = await collect(await client.chat.completions.create({ model: 'm', messages: user('hi'), stream: true }));
    expect(chunks.filter((c) => c.choices[0]?.delta.content)).toHaveLength(Math.ceil(text.length / 3));
    expect(contentOf(chunks)).toBe(text);
    expect(chunks.at(-1)?.choices[0].finish_reason).toBe('stop');
  });

  it('holds the connection open after stall_after frames and says so in its log', async () => {
    const lines: string[] = [];
    const { client } = await start({ turns: [{ text: 'abcdefghijklmnop', chunk_size: 2, stall_after: 3 }] }, { log: (line) => lines.push(line) });
    const stream = await client.chat.completions.create({ model: 'm', messages: user('q'), stream: true });
    const iterator = stream[Symbol.asyncIterator]();
    const received: string[] = [];
    for (let i = 0; i < 3; i++) received.push((await iterator.next()).value?.choices[0]?.delta.content ?? '');
    expect(received.join('')).toBe('abcd');
    await vi.waitFor(() => expect(lines).toContain('turn 0: stalled after 3 frame(s)'));
    expect(lines.join('\n')).not.toMatch(/error/);
    void iterator.next().catch(() => undefined);
  });

  it('close() resolves while a stream is stalled, ending the connection', async () => {
    const { client, server } = await start({ turns: [{ text: 'abcdefghijklmnop', chunk_size: 2, stall_after: 3 }] });
    const stream = await client.chat.completions.create({ model: 'm', messages: user('q'), stream: true });
    const iterator = stream[Symbol.asyncIterator]();
    const received: string[] = [];
    for (let i = 0; i < 3; i++) received.push((await iterator.next()).value?.choices[0]?.delta.content ?? '');
    expect(received.join('')).toBe('abcd');
    const pending = iterator.next().then(
      (r) => (r.done ? 'ended' : 'chunk'),
      () => 'errored',
    );
    await server.close();
    // The client must notice the cut connection rather than wait forever.
    expect(await pending).toBe('errored');
  });
});
