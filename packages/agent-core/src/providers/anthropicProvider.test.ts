import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../../../scripts/model-server/index.ts';
import type { Script } from '../../../../scripts/model-server/index.ts';
import { AnthropicProvider } from './anthropicProvider.ts';
import { ProviderError, type ChatMessage, type StreamEvent, type ToolSchema } from './types.ts';

const servers: ModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(script: Script) {
  const server = await startModelServer(script);
  servers.push(server);
  const provider = new AnthropicProvider({ provider: 'anthropic', model: 'claude-test', baseUrl: server.url, apiKey: 'sk-ant-test' }, { maxTokens: 1024 });
  return { server, provider };
}

const tools: ToolSchema[] = ['ls', 'read_file'].map((name) => ({
  type: 'function',
  function: { name, description: `${name} tool`, parameters: { type: 'object', properties: { path: { type: 'string' } } } },
}));
const history: ChatMessage[] = [
  { role: 'system', content: 'You are hermes.' },
  { role: 'user', content: 'read it' },
  { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_a', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } }] },
  { role: 'tool', tool_call_id: 'toolu_a', content: 'contents of a' },
];

function run(provider: AnthropicProvider) {
  const events: StreamEvent[] = [];
  const result = provider.stream(
    { messages: history, tools, signal: new AbortController().signal },
    (e) => events.push(e),
  );
  return { events, result };
}

describe('AnthropicProvider against the scripted Messages server', () => {
  it('streams text, thinking as reasoning, and a tool call whose input arrives in pieces, with usage', async () => {
    const { provider } = await start({
      turns: [{
        reasoning: 'The file is short.',
        text: 'Here is the answer.',
        chunk_size: 4,
        tool_calls: [{ name: 'ls', arguments: { path: '/tmp/x y' }, pieces: 4 }],
        usage: { prompt_tokens: 30, completion_tokens: 12, cache_read_input_tokens: 200, cache_creation_input_tokens: 7 },
      }],
    });
    const { events, result } = run(provider);
    const response = await result;

    // Reasoning, then text, then the tool call: a read's deltas are joined, never reordered (eventRuns.ts).
    expect(events.map((e) => e.type).filter((type, i, all) => type !== all[i - 1])).toEqual(['reasoning', 'text', 'tool_generating']);
    expect(events.filter((e) => e.type === 'text').map((e) => (e as { text: string }).text).join('')).toBe('Here is the answer.');
    expect(events.filter((e) => e.type === 'reasoning').map((e) => (e as { text: string }).text).join('')).toBe('The file is short.');
    expect(events.find((e) => e.type === 'tool_generating')).toEqual({ type: 'tool_generating', name: 'ls' });
    expect(response.text).toBe('Here is the answer.');
    expect(response.reasoning).toBe('The file is short.');
    expect(response.toolCalls).toHaveLength(1);
    expect(response.toolCalls[0].id).toMatch(/^toolu_/);
    expect(JSON.parse(response.toolCalls[0].function.arguments)).toEqual({ path: '/tmp/x y' });
    expect(response.finishReason).toBe('tool_calls');
    expect(response.usage).toEqual({ input: 237, output: 12, reasoning: 0 });
  });

  it('sends system and tools with cache_control on the stable prefix, tool results as tool_result blocks, and the key', async () => {
    const { provider, server } = await start({ turns: [{ text: 'ok' }] });
    await run(provider).result;
    const [request] = server.requests;
    expect(request.path).toBe('/v1/messages');
    expect(request.headers.authorization ?? request.headers['x-api-key']).toContain('sk-ant-test');
    const body = request.body as Record<string, unknown>;
    expect(body).toMatchObject({ model: 'claude-test', max_tokens: 1024, stream: true });
    expect(body.system).toEqual([{ type: 'text', text: 'You are hermes.', cache_control: { type: 'ephemeral' } }]);
    const sentTools = body.tools as Record<string, unknown>[];
    expect(sentTools.map((t) => t.input_schema)).toEqual(tools.map((t) => t.function.parameters));
    expect(sentTools[0].cache_control).toBeUndefined();
    expect(sentTools[1].cache_control).toEqual({ type: 'ephemeral' });
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'read it' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_a', name: 'read_file', input: { path: 'a' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_a', content: 'contents of a' }] },
    ]);
  });

  it('forbids tool use for a call with toolChoice none, keeping the tools listed for the cache', async () => {
    const { provider, server } = await start({ turns: [{ text: 'final answer' }] });
    await provider.stream({ messages: history, tools, toolChoice: 'none', signal: new AbortController().signal }, () => {});
    const body = server.requests[0].body as Record<string, unknown>;
    expect(body.tool_choice).toEqual({ type: 'none' });
    expect((body.tools as unknown[]).length).toBe(2);
  });

  it('maps a 429 with retry-after to a retryable error that says how long to wait', async () => {
    const { provider } = await start({ turns: [{ error: { status: 429, message: 'Number of requests exceeded', retry_after: 7 } }] });
    const error = await run(provider).result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'http', status: 429, retryable: true, retryAfterMs: 7000 });
    expect((error as Error).message).toContain('anthropic (model claude-test at http://127.0.0.1:');
    expect((error as Error).message).toContain('Number of requests exceeded');
  });

  it('maps a 400 to an error that is not retried, and a 401 to a hint about ANTHROPIC_API_KEY', async () => {
    const { provider } = await start({ turns: [{ error: { status: 400, message: 'messages: roles must alternate' } }, { error: { status: 401 } }] });
    const bad = await run(provider).result.catch((e: unknown) => e);
    expect(bad).toMatchObject({ kind: 'http', status: 400, retryable: false });
    expect((bad as Error).message).toContain('messages: roles must alternate');
    const auth = await run(provider).result.catch((e: unknown) => e);
    expect(auth).toMatchObject({ status: 401, retryable: false });
    expect((auth as Error).message).toContain('ANTHROPIC_API_KEY');
  });

  it('maps 529 overloaded to retryable', async () => {
    const { provider } = await start({ turns: [{ error: { status: 529, message: 'Overloaded' } }] });
    expect(await run(provider).result.catch((e: unknown) => e)).toMatchObject({ kind: 'http', status: 529, retryable: true });
  });
});
