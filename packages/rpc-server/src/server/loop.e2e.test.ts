/**
 * Loop semantics through the real backend process against the scripted model server: the budget's
 * grace call, retries and back-off, stalled streams, interrupts during back-off, duplicate calls,
 * empty responses, usage.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type Turn } from '../../../../scripts/model-server/index.ts';
import type { EventOf } from '../protocol/index.ts';
import { BUDGET_NOTICE, budgetEndLine } from '@hermes/agent-core';
import { BackendProcess } from '../testing/backendProcess.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function start(turns: Turn[], config = '', wire: 'openai' | 'anthropic' = 'openai') {
  const server: ModelServer = await startModelServer({ turns });
  cleanups.push(() => server.close());
  const backend = new BackendProcess({
    config: `agent:\n  retry_base_delay: 0.01\n${config}`,
    args: wire === 'openai'
      ? ['--provider', 'custom', '--base-url', server.baseUrl, '--model', 'scripted-model']
      : ['--provider', 'anthropic', '--base-url', server.url, '--model', 'claude-sonnet-4-5'],
    env: { ANTHROPIC_API_KEY: 'test-key' },
  });
  cleanups.push(() => backend.stop());
  const cwd = tempDir('hermes-loop-');
  const session = await backend.request('session.create', { cwd });
  return { server, backend, cwd, sid: session.session_id };
}

async function turn(backend: BackendProcess, sid: string, text: string): Promise<EventOf<'message.complete'>> {
  await backend.request('prompt.submit', { session_id: sid, text });
  return (await backend.waitForEvent((e) => e.type === 'message.complete')) as EventOf<'message.complete'>;
}

type Body = { messages: { role: string; content: string; tool_calls?: unknown[] }[]; tool_choice?: string; tools?: unknown[] };
const body = (server: ModelServer, i: number) => server.requests[i]!.body as Body;

describe('the agent loop', () => {
  it('spends the budget, then makes exactly one grace call with tools disabled', async () => {
    const call = { tool_calls: [{ name: 'read_file', arguments: { path: 'missing.txt' } }] };
    const { backend, server, sid } = await start(
      [call, call, { text: 'Here is where I got to.' }, { text: 'never asked for' }],
      '  max_turns: 2\n',
    );
    const done = await turn(backend, sid, 'work hard');
    expect(done.payload).toMatchObject({ status: 'complete', text: 'Here is where I got to.' });
    expect(server.served).toBe(3);
    expect(body(server, 0).tool_choice ?? 'auto').toBe('auto');
    expect(body(server, 2).tool_choice).toBe('none');
    expect(body(server, 2).messages.at(-1)!.content.startsWith(BUDGET_NOTICE)).toBe(true);
    const history = await backend.request('session.history', { session_id: sid });
    expect(history.messages.filter((m) => m.role === 'user').map((m) => m.text)).toEqual(['work hard']);
  });

  it('ends the turn complete, naming agent.max_turns, when the grace call still asks for tools; those calls never run', async () => {
    const call = { tool_calls: [{ name: 'read_file', arguments: { path: 'missing.txt' } }] };
    const ignoresNone = { tool_calls: [{ id: 'call_grace', name: 'terminal', arguments: { command: 'touch ran.txt' } }] };
    const { backend, server, sid, cwd } = await start([call, call, ignoresNone, { text: 'next turn answered' }], '  max_turns: 2\n');
    const done = await turn(backend, sid, 'work hard');
    expect(done.payload).toMatchObject({ status: 'complete', text: budgetEndLine(2, 1) });
    expect(done.payload!.text).toMatch(/turn budget ran out \(agent\.max_turns: 2/);
    expect(done.payload!.error).toBeUndefined();
    expect(body(server, 2).tool_choice).toBe('none');
    expect(fs.existsSync(path.join(cwd, 'ran.txt'))).toBe(false);
    const history = await backend.request('session.history', { session_id: sid });
    expect(history.messages.at(-1)).toMatchObject({ role: 'assistant', text: budgetEndLine(2, 1) });
    expect(history.messages.some((m) => m.tool_calls?.some((c) => c.id === 'call_grace'))).toBe(false);
    // The session goes on: the next request is a valid sequence (the scripted server checks it).
    backend.events.length = 0;
    expect((await turn(backend, sid, 'go on')).payload).toMatchObject({ status: 'complete', text: 'next turn answered' });
  });

  it('over the Anthropic wire too: a grace call that still asks for tools ends the turn complete, naming agent.max_turns', async () => {
    const call = { tool_calls: [{ name: 'read_file', arguments: { path: 'missing.txt' } }] };
    const ignoresNone = { tool_calls: [{ id: 'toolu_grace', name: 'terminal', arguments: { command: 'touch ran.txt' } }] };
    const { backend, server, sid, cwd } = await start([call, ignoresNone, { text: 'next turn answered' }], '  max_turns: 1\n', 'anthropic');
    const done = await turn(backend, sid, 'work hard');
    expect(done.payload).toMatchObject({ status: 'complete', text: budgetEndLine(1, 1) });
    expect((server.requests[1]!.body as { tool_choice?: unknown }).tool_choice).toEqual({ type: 'none' });
    expect(fs.existsSync(path.join(cwd, 'ran.txt'))).toBe(false);
    backend.events.length = 0;
    expect((await turn(backend, sid, 'go on')).payload).toMatchObject({ status: 'complete', text: 'next turn answered' });
  });

  it('ends the turn complete, naming the budget, when the grace call answers nothing', async () => {
    const call = { tool_calls: [{ name: 'read_file', arguments: { path: 'missing.txt' } }] };
    const { backend, sid } = await start([call, { tool_calls: [] as never[], finish_reason: 'stop' as const }], '  max_turns: 1\n');
    const done = await turn(backend, sid, 'work hard');
    expect(done.payload).toMatchObject({ status: 'complete', text: budgetEndLine(1, 0) });
    expect(done.payload!.text).not.toMatch(/empty response/);
  });

  it('retries a 429, honouring Retry-After, and then succeeds', async () => {
    const { backend, server, sid } = await start([{ error: { status: 429, message: 'slow down', retry_after: 1 } }, { text: 'made it' }]);
    const done = await turn(backend, sid, 'hi');
    expect(done.payload).toMatchObject({ status: 'complete', text: 'made it' });
    expect(server.served).toBe(2);
    const warn = backend.events.find((e) => e.type === 'status.update') as EventOf<'status.update'>;
    expect(warn.payload).toMatchObject({ kind: 'warn', text: expect.stringMatching(/429.*retrying in 1\.0 s/s) });
  });

  it('gives up after api_max_retries 5xx answers with an error a person can act on', async () => {
    const fail = { error: { status: 500, message: 'upstream exploded' } };
    const { backend, server, sid } = await start([fail, fail, fail, { text: 'too late' }], '  api_max_retries: 2\n');
    const done = await turn(backend, sid, 'hi');
    expect(server.served).toBe(3);
    expect(done.payload!.status).toBe('error');
    expect(done.payload!.error).toMatch(/custom \(model scripted-model at http:\/\/127\.0\.0\.1:\d+\/v1\)/);
    expect(done.payload!.error).toMatch(/500/);
    expect(done.payload!.error).toMatch(/gave up after 3 attempts/);
  });

  it('does not retry a 400, and says what the provider said', async () => {
    const { backend, server, sid } = await start([{ error: { status: 400, message: 'bad model name' } }, { text: 'no' }]);
    const done = await turn(backend, sid, 'hi');
    expect(server.served).toBe(1);
    expect(done.payload).toMatchObject({ status: 'error', error: expect.stringContaining('bad model name') });
  });

  it('aborts a stalled stream and retries it; the reply is the fresh attempt only', async () => {
    const { backend, server, sid } = await start(
      [{ text: 'partial words that stall', chunk_size: 4, stall_after: 3 }, { text: 'fresh answer' }],
      '  stream_stall_timeout: 0.5\n',
    );
    const done = await turn(backend, sid, 'hi');
    expect(server.served).toBe(2);
    expect(done.payload).toMatchObject({ status: 'complete', text: 'fresh answer' });
  });

  it('an interrupt during back-off ends the turn at once', async () => {
    const { backend, server, sid } = await start([{ error: { status: 429, retry_after: 120 } }, { text: 'never' }]);
    await backend.request('prompt.submit', { session_id: sid, text: 'hi' });
    await backend.waitForEvent((e) => e.type === 'status.update');
    await backend.request('session.interrupt', { session_id: sid });
    const done = (await backend.waitForEvent((e) => e.type === 'message.complete')) as EventOf<'message.complete'>;
    expect(done.payload!.status).toBe('interrupted');
    expect(server.served).toBe(1);
  });

  it('runs identical tool calls in one response once, answering each', async () => {
    const command = 'echo ran >> runs.txt';
    const dup = { name: 'terminal', arguments: { command } };
    const { backend, server, sid, cwd } = await start([
      { tool_calls: [{ id: 'a', ...dup }, { id: 'b', ...dup }] },
      { text: 'done' },
    ]);
    await turn(backend, sid, 'go');
    expect(fs.readFileSync(path.join(cwd, 'runs.txt'), 'utf8')).toBe('ran\n');
    const tools = body(server, 1).messages.filter((m) => m.role === 'tool') as unknown as { tool_call_id: string }[];
    expect(tools.map((m) => m.tool_call_id)).toEqual(['a', 'b']);
  });

  it('nudges once after an empty response, then ends the turn with a clear status', async () => {
    const empty = { tool_calls: [] as never[], finish_reason: 'stop' as const };
    const { backend, server, sid } = await start([empty, empty, { text: 'unused' }]);
    const done = await turn(backend, sid, 'hi');
    expect(server.served).toBe(2);
    expect(done.payload).toMatchObject({ status: 'error', error: expect.stringMatching(/empty response/) });
  });

  it('sums usage over the calls of a turn and reports how full the context is', async () => {
    const { backend, sid } = await start([
      { tool_calls: [{ name: 'read_file', arguments: { path: 'x' } }], usage: { prompt_tokens: 100, completion_tokens: 20 } },
      { text: 'ok', usage: { prompt_tokens: 150, completion_tokens: 30 } },
    ], 'model:\n  context_length: 1000\n  input_cost_per_million: 2\n  output_cost_per_million: 10\n');
    const done = await turn(backend, sid, 'hi');
    expect(done.payload!.usage).toMatchObject({
      input: 250,
      output: 50,
      total: 300,
      calls: 2,
      context_used: 150,
      context_max: 1000,
      context_percent: 15,
    });
    expect(done.payload!.usage!.cost_usd).toBeCloseTo((250 * 2 + 50 * 10) / 1e6, 10);
    expect(await backend.request('session.usage', { session_id: sid })).toMatchObject({ input: 250, calls: 2 });
  });
});
