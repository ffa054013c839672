import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../../../scripts/model-server/index.ts';
import type { Script } from '../../../../scripts/model-server/index.ts';
import { AnthropicProvider } from './anthropicProvider.ts';
import { createProvider } from './createProvider.ts';
import { OpenAICompatibleProvider } from './openaiProvider.ts';
import { parseRetryAfter } from './providerErrors.ts';
import { ProviderError, type ChatMessage, type ChatProvider, type StreamEvent } from './types.ts';

/** Failures both providers must report alike, so the agent loop's retries work whichever is configured. */

const servers: ModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const history: ChatMessage[] = [{ role: 'user', content: 'hi' }];

function run(provider: ChatProvider, extra: { stallTimeoutMs?: number } = {}) {
  const events: StreamEvent[] = [];
  const result = provider.stream({ messages: history, tools: [], signal: new AbortController().signal, ...extra }, (e) => events.push(e));
  return { events, result };
}

describe.each([
  ['anthropic', (server: ModelServer) => new AnthropicProvider({ provider: 'anthropic', model: 'claude-test', baseUrl: server.url, apiKey: 'k' })],
  ['openai', (server: ModelServer) => new OpenAICompatibleProvider({ provider: 'custom', model: 'gpt-test', baseUrl: server.baseUrl, apiKey: 'k' })],
] as const)('%s provider: stalls, aborts and unreachable servers', (_name, make) => {
  async function startWith(script: Script) {
    const server = await startModelServer(script);
    servers.push(server);
    return { server, provider: make(server) };
  }

  it('abandons a stream that goes silent with a retryable stall error', async () => {
    const { provider } = await startWith({ turns: [{ text: 'abcdefghijklmnop', chunk_size: 2, stall_after: 4 }] });
    // Generous, so a loaded machine still delivers the first frames before the guard fires.
    const { events, result } = run(provider, { stallTimeoutMs: 1000 });
    const error = await result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'stall', retryable: true });
    expect((error as Error).message).toContain('sent nothing for 1 s');
    // Part of the answer arrived before the silence: the stall is mid-stream, not a refused connection.
    expect(events.some((e) => e.type === 'text')).toBe(true);
  });

  it('throws the abort reason itself when the user interrupts mid-stream', async () => {
    const { provider } = await startWith({ turns: [{ text: 'x'.repeat(400), chunk_size: 4, chunk_delay_ms: 10 }] });
    const controller = new AbortController();
    const reason = new Error('user pressed Esc');
    const events: StreamEvent[] = [];
    const result = provider.stream({ messages: history, tools: [], signal: controller.signal, stallTimeoutMs: 60_000 }, (e) => {
      events.push(e);
      if (events.length === 3) controller.abort(reason);
    });
    await expect(result).rejects.toBe(reason);
  });

  it('maps 429 with retry-after to retryable, 500 to retryable, and 400 to final', async () => {
    const { provider } = await startWith({
      turns: [{ error: { status: 429, retry_after: 2 } }, { error: { status: 500 } }, { error: { status: 400, message: 'bad tool schema' } }],
    });
    expect(await run(provider).result.catch((e: unknown) => e)).toMatchObject({ kind: 'http', status: 429, retryable: true, retryAfterMs: 2000 });
    expect(await run(provider).result.catch((e: unknown) => e)).toMatchObject({ kind: 'http', status: 500, retryable: true });
    const final = await run(provider).result.catch((e: unknown) => e);
    expect(final).toMatchObject({ kind: 'http', status: 400, retryable: false });
    expect((final as Error).message).toMatch(/answered HTTP 400: bad tool schema\. The provider rejected the request/);
  });

  it('ends a server message that has its own full stop with one full stop, not two', async () => {
    const { provider } = await startWith({ turns: [{ error: { status: 400, message: 'Invalid value for tool_choice.' } }] });
    const final = (await run(provider).result.catch((e: unknown) => e)) as Error;
    expect(final.message).toMatch(/answered HTTP 400: Invalid value for tool_choice\. The provider/);
  });

  it('reports a refused connection as a retryable network error', async () => {
    const { server, provider } = await startWith({ turns: [{ text: 'x' }] });
    await server.close();
    const error = await run(provider).result.catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'network', retryable: true });
    expect((error as Error).message).toMatch(/Could not reach .*ECONNREFUSED/);
  });
});

/** A server that answers a model request with `events` (each an SSE `data:` line, or whole SSE text ending in a blank line) and ends the stream. */
async function rawStream(events: string[]): Promise<{ baseUrl: string; url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const data of events) response.write(data.endsWith('\n\n') ? data : `data: ${data}\n\n`);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/v1`, url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('openai provider: what a stream carries besides text', () => {
  const chunk = (content: string) => JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] });

  it('reports an error event after the first words as a mid-response error, retryable by its type, the words already told', async () => {
    const server = await rawStream([chunk('Hello'), chunk(' wor'), JSON.stringify({ error: { message: 'The server is overloaded', type: 'server_error', param: null, code: null } })]);
    try {
      const { events, result } = run(new OpenAICompatibleProvider({ provider: 'custom', model: 'gpt-test', baseUrl: server.baseUrl, apiKey: 'k' }));
      const error = await result.then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as ProviderError).message).toMatch(/sent an error mid-response \(server_error\): The server is overloaded/);
      expect((error as ProviderError).retryable).toBe(true);
      // The words before the error, in one event: they came in the same read (eventRuns.ts).
      expect(events).toEqual([{ type: 'text', text: 'Hello wor' }]);
    } finally {
      await server.close();
    }
  });

  it('names an event that is not JSON, and ignores what follows [DONE]', async () => {
    const broken = await rawStream([chunk('a'), '{"choices": [']);
    const done = await rawStream([chunk('a'), '[DONE]', chunk('b')]);
    try {
      const error = await run(new OpenAICompatibleProvider({ provider: 'custom', model: 'gpt-test', baseUrl: broken.baseUrl, apiKey: 'k' })).result.then(() => undefined, (e: unknown) => e);
      expect((error as ProviderError).message).toMatch(/not JSON.*\{"choices": \[/);
      const reply = await run(new OpenAICompatibleProvider({ provider: 'custom', model: 'gpt-test', baseUrl: done.baseUrl, apiKey: 'k' })).result;
      expect(reply.text).toBe('a');
    } finally {
      await Promise.all([broken.close(), done.close()]);
    }
  });
});

describe('the stall guard counts bytes, not events', () => {
  const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
  const openAiChunk = (content: string) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
  const anthropicText = (words: string) => sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: words } });
  const wires = {
    openai: {
      provider: (port: number) => new OpenAICompatibleProvider({ provider: 'custom', model: 'gpt-test', baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: 'k' }),
      before: openAiChunk('before '),
      after: `${openAiChunk('after')}data: [DONE]\n\n`,
    },
    anthropic: {
      provider: (port: number) => new AnthropicProvider({ provider: 'anthropic', model: 'claude-test', baseUrl: `http://127.0.0.1:${port}`, apiKey: 'k' }),
      before: [
        sse('message_start', { type: 'message_start', message: { id: 'm', type: 'message', role: 'assistant', model: 'claude-test', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 3, output_tokens: 1 } } }),
        sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
        anthropicText('before '),
      ].join(''),
      after: [
        anthropicText('after'),
        sse('content_block_stop', { type: 'content_block_stop', index: 0 }),
        sse('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 2 } }),
        sse('message_stop', { type: 'message_stop' }),
      ].join(''),
    },
  };

  it.each(Object.keys(wires) as (keyof typeof wires)[])('%s: keeps a stream alive through SSE comments that go on longer than the stall timeout', async (name) => {
    const wire = wires[name];
    // A comment every 100 ms for ~1.6 s, against a 1 s timeout: only the bytes say the server is there.
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(wire.before);
        let beats = 0;
        const timer = setInterval(() => {
          if (response.destroyed) return clearInterval(timer);
          if (++beats <= 16) return void response.write(': keep-alive\n\n');
          clearInterval(timer);
          response.end(wire.after);
        }, 100);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const reply = await run(wire.provider(port), { stallTimeoutMs: 1000 }).result;
      expect(reply.text).toBe('before after');
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('anthropic provider: what a stream carries besides text', () => {
  const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
  const start = sse('message_start', { type: 'message_start', message: { id: 'm', type: 'message', role: 'assistant', model: 'claude-test', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 3, output_tokens: 1 } } });
  const text = (index: number, words: string) => sse('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: words } });

  it('skips pings and reports an error event as a mid-response error, retryable by its type, the words already told', async () => {
    const server = await rawStream([
      start,
      sse('ping', { type: 'ping' }),
      sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      text(0, 'Hello'),
      sse('ping', { type: 'ping' }),
      text(0, ' wor'),
      sse('error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
    ]);
    try {
      const { events, result } = run(new AnthropicProvider({ provider: 'anthropic', model: 'claude-test', baseUrl: server.url, apiKey: 'k' }));
      const error = await result.then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as ProviderError).message).toMatch(/sent an error mid-response \(overloaded_error\): Overloaded/);
      expect((error as ProviderError).retryable).toBe(true);
      expect(events.filter((e) => e.type === 'text')).toEqual([{ type: 'text', text: 'Hello wor' }]);
    } finally {
      await server.close();
    }
  });
});

describe('createProvider', () => {
  it('chooses the adapter by the preset wire protocol; unknown and custom providers are OpenAI-compatible', () => {
    const base = { model: 'm', baseUrl: 'http://127.0.0.1:1', apiKey: 'k' };
    expect(createProvider({ ...base, provider: 'anthropic' })).toBeInstanceOf(AnthropicProvider);
    expect(createProvider({ ...base, provider: 'openrouter' })).toBeInstanceOf(OpenAICompatibleProvider);
    expect(createProvider({ ...base, provider: 'custom' })).toBeInstanceOf(OpenAICompatibleProvider);
  });
});

describe('parseRetryAfter', () => {
  const headers = (h: Record<string, string>) => new Headers(h);
  it('reads seconds, HTTP dates and retry-after-ms, preferring the milliseconds', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter(headers({ 'retry-after': '3' }), now)).toBe(3000);
    expect(parseRetryAfter(headers({ 'retry-after': '1.5' }), now)).toBe(1500);
    expect(parseRetryAfter(headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:10 GMT' }), now)).toBe(10_000);
    expect(parseRetryAfter(headers({ 'retry-after': 'Tue, 31 Dec 2024 23:00:00 GMT' }), now)).toBe(0);
    expect(parseRetryAfter(headers({ 'retry-after': '3', 'retry-after-ms': '250.4' }), now)).toBe(250);
  });

  it('treats missing or unreadable values as not given', () => {
    expect(parseRetryAfter(headers({}))).toBeUndefined();
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});
