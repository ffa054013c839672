/** Providers through the real backend: Anthropic's Messages wire, and switching models per session. */
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer } from '../../../../scripts/model-server/index.ts';
import type { EventOf } from '../protocol/index.ts';
import { BackendProcess } from '../testing/backendProcess.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe('providers over the wire', () => {
  it('talks to Anthropic: thinking as reasoning.delta, tool use, the answer', async () => {
    const server = await startModelServer({
      turns: [
        { reasoning: 'The user wants the file; read it.', tool_calls: [{ name: 'read_file', arguments: { path: 'nowhere.txt' } }] },
        { text: 'There is no such file.' },
      ],
    });
    cleanups.push(() => server.close());
    const backend = new BackendProcess({
      args: ['--provider', 'anthropic', '--base-url', server.url, '--model', 'claude-sonnet-4-5'],
      env: { ANTHROPIC_API_KEY: 'test-key' },
    });
    cleanups.push(() => backend.stop());
    const { session_id: sid, info } = await backend.request('session.create', {});
    expect(info).toMatchObject({ provider: 'anthropic', model: 'claude-sonnet-4-5' });
    await backend.request('prompt.submit', { session_id: sid, text: 'read nowhere.txt' });
    const done = (await backend.waitForEvent((e) => e.type === 'message.complete')) as EventOf<'message.complete'>;
    expect(done.payload).toMatchObject({ status: 'complete', text: 'There is no such file.', reasoning: 'The user wants the file; read it.' });
    expect(backend.events.some((e) => e.type === 'reasoning.delta')).toBe(true);
    expect(server.requests.map((r) => r.path)).toEqual(['/v1/messages', '/v1/messages']);
    const second = server.requests[1]!.body as { messages: { role: string; content: { type: string }[] }[] };
    expect(second.messages.at(-1)!.content[0]!.type).toBe('tool_result');
  });

  it('lists providers, and config.set model switches the session to another model', async () => {
    const server = await startModelServer({ turns: [{ text: 'one' }, { text: 'two' }] });
    cleanups.push(() => server.close());
    const backend = new BackendProcess({ args: ['--provider', 'custom', '--base-url', server.baseUrl, '--model', 'first-model'] });
    cleanups.push(() => backend.stop());
    const options = await backend.request('model.options', {});
    expect(options.current).toEqual({ provider: 'custom', model: 'first-model' });
    expect(options.providers.map((p) => p.id)).toEqual(expect.arrayContaining(['openai', 'anthropic', 'openrouter', 'ollama', 'custom']));
    expect(options.providers.find((p) => p.id === 'openai')!.configured).toBe(false);
    const { session_id: sid } = await backend.request('session.create', {});
    await backend.request('prompt.submit', { session_id: sid, text: 'a' });
    await backend.waitForEvent((e) => e.type === 'message.complete');
    expect(await backend.request('config.set', { key: 'model', value: 'second-model', session_id: sid })).toEqual({
      key: 'model',
      value: 'custom:second-model',
    });
    const before = backend.events.filter((e) => e.type === 'message.complete').length;
    await backend.request('prompt.submit', { session_id: sid, text: 'b' });
    await backend.waitForEvent(() => backend.events.filter((e) => e.type === 'message.complete').length > before);
    expect(server.requests.map((r) => (r.body as { model: string }).model)).toEqual(['first-model', 'second-model']);
    await expect(backend.request('config.set', { key: 'model', value: 'openai:gpt-4o', session_id: sid })).rejects.toMatchObject({
      code: 5032,
      message: expect.stringContaining('OPENAI_API_KEY'),
    });
  });
});
