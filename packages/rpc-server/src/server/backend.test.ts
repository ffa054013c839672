import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type Script } from '../../../../scripts/model-server/index.ts';
import { ErrorCode, type EventOf, type HermesEvent } from '../protocol/index.ts';
import { BackendProcess } from '../testing/backendProcess.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function setup(script: Script | null, options: { nodeArgs?: string[] } = {}) {
  let server: ModelServer | null = null;
  if (script) {
    server = await startModelServer(script);
    cleanups.push(() => server!.close());
  }
  const backend = new BackendProcess({
    args: server ? ['--provider', 'custom', '--base-url', server.baseUrl, '--model', 'scripted-model'] : [],
    nodeArgs: options.nodeArgs,
  });
  cleanups.push(() => backend.stop());
  await backend.waitForEvent((e) => e.type === 'gateway.ready');
  return { backend, server };
}

function types(events: HermesEvent[]): string[] {
  return events.map((e) => e.type);
}

/** Events of one turn, from message.start to message.complete, with deltas collapsed into one entry. */
function turnShape(events: HermesEvent[]): string[] {
  const shape: string[] = [];
  for (const t of types(events)) if (!(t === 'message.delta' && shape.at(-1) === t)) shape.push(t);
  return shape.filter((t) => t !== 'session.usage' && t !== 'session.info' && t !== 'tool.generating');
}

const complete = (sid: string) => (e: HermesEvent) => e.session_id === sid && e.type === 'message.complete';

describe('hermes-rpc over real pipes', () => {
  it('says gateway.ready first, with its pid and protocol version', async () => {
    const { backend } = await setup(null);
    const first = JSON.parse(backend.rawLines[0]!);
    expect(first).toEqual({
      jsonrpc: '2.0',
      method: 'event',
      params: { type: 'gateway.ready', payload: { version: expect.any(String), protocol: 1, pid: backend.child.pid } },
    });
  });

  it('streams a turn: message.start, deltas, message.complete, and stores the messages', async () => {
    const reply = 'Hello from the scripted model. This reply arrives in many small pieces.';
    const { backend, server } = await setup({ turns: [{ text: reply, chunk_size: 5 }] });
    const session = await backend.request('session.create', { cols: 80 });
    expect(session.info.model).toBe('scripted-model');
    expect(session.info.setup_hint).toBeUndefined();
    const submitted = await backend.request('prompt.submit', { session_id: session.session_id, text: 'Say hello' });
    expect(submitted).toEqual({ status: 'streaming' });
    const done = (await backend.waitForEvent(complete(session.session_id))) as EventOf<'message.complete'>;
    expect(done.payload).toMatchObject({ text: reply, status: 'complete' });
    const events = backend.eventsOf(session.session_id).filter((e) => e.type !== 'session.info');
    expect(turnShape(events)).toEqual(['message.start', 'message.delta', 'message.complete']);
    const streamed = events.filter((e) => e.type === 'message.delta').map((e) => (e as EventOf<'message.delta'>).payload!.text);
    expect(streamed.join('')).toBe(reply);
    // seq counts up by one per event of the session: no gaps.
    const seqs = backend.eventsOf(session.session_id).map((e) => e.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    const body = server!.requests[0]!.body as { messages: { role: string; content: string }[]; stream: boolean };
    expect(body.stream).toBe(true);
    expect(body.messages.at(-1)).toEqual({ role: 'user', content: 'Say hello' });
    expect(body.messages[0]!.role).toBe('system');

    const history = await backend.request('session.history', { session_id: session.session_id });
    expect(history.messages.map((m) => [m.role, m.text])).toEqual([
      ['user', 'Say hello'],
      ['assistant', reply],
    ]);
    await backend.stop();
    const db = new Database(path.join(backend.home, 'state.db'), { readonly: true });
    const rows = db.prepare('SELECT role, content FROM messages WHERE session_id = ? ORDER BY id').all(session.stored_session_id);
    const stored = db.prepare('SELECT message_count, ended_at FROM sessions WHERE id = ?').get(session.stored_session_id) as {
      message_count: number;
      ended_at: number | null;
    };
    db.close();
    expect(rows).toEqual([
      { role: 'user', content: 'Say hello' },
      { role: 'assistant', content: reply },
    ]);
    expect(stored.message_count).toBe(2);
    expect(stored.ended_at).not.toBeNull();
  });

  it('runs a read_file tool call and feeds the result back to the model', async () => {
    const dir = tempDir('hermes-tool-');
    const file = path.join(dir, 'notes.txt');
    fs.writeFileSync(file, 'alpha\nbeta\ngamma\n');
    const { backend, server } = await setup({
      turns: [
        { text: 'Let me look.', tool_calls: [{ id: 'call_read', name: 'read_file', arguments: { path: file } }] },
        { text: 'The file has three lines.' },
      ],
    });
    const session = await backend.request('session.create', { cwd: dir });
    await backend.request('prompt.submit', { session_id: session.session_id, text: 'What is in notes.txt?' });
    const done = (await backend.waitForEvent(complete(session.session_id))) as EventOf<'message.complete'>;
    expect(done.payload).toMatchObject({ status: 'complete', text: 'Let me look.\n\nThe file has three lines.' });
    expect(turnShape(backend.eventsOf(session.session_id))).toEqual([
      'message.start',
      'message.delta',
      'tool.start',
      'tool.complete',
      'message.delta',
      'message.complete',
    ]);
    const start = backend.events.find((e) => e.type === 'tool.start') as EventOf<'tool.start'>;
    expect(start.payload).toEqual({ tool_id: 'call_read', name: 'read_file', context: file });
    const finished = backend.events.find((e) => e.type === 'tool.complete') as EventOf<'tool.complete'>;
    expect(finished.payload).toMatchObject({ tool_id: 'call_read', name: 'read_file', result: '1|alpha\n2|beta\n3|gamma' });
    expect(finished.payload!.error).toBeUndefined();
    const second = server!.requests[1]!.body as { messages: Record<string, unknown>[] };
    expect(second.messages.slice(-2)).toEqual([
      {
        role: 'assistant',
        content: 'Let me look.',
        tool_calls: [{ id: 'call_read', type: 'function', function: { name: 'read_file', arguments: JSON.stringify({ path: file }) } }],
      },
      { role: 'tool', tool_call_id: 'call_read', content: '1|alpha\n2|beta\n3|gamma' },
    ]);
    const history = await backend.request('session.history', { session_id: session.session_id });
    expect(history.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('answers bad input with the right JSON-RPC errors and keeps serving', async () => {
    const { backend } = await setup({ turns: [{ text: 'ok' }] });
    backend.writeRaw('this is not json\n');
    backend.writeRaw('\n\n');
    await expect(backend.connection.sendRequest('no.such.method', {})).rejects.toMatchObject({ code: ErrorCode.MethodNotFound });
    await expect(backend.request('prompt.submit', { session_id: 'abc' } as never)).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: expect.stringContaining('`text` is required'),
    });
    await expect(backend.request('prompt.submit', { session_id: 42, text: 'x' } as never)).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: expect.stringContaining('`session_id`'),
    });
    await expect(backend.request('prompt.submit', { session_id: 'nope', text: 'hi' })).rejects.toMatchObject({
      code: ErrorCode.SessionNotFound,
    });
    const parseError = backend.rawLines.map((l) => JSON.parse(l)).find((f) => f.error?.code === -32700);
    expect(parseError).toMatchObject({ jsonrpc: '2.0', id: null, error: { message: expect.stringContaining('this is not json') } });
    const session = await backend.request('session.create', {});
    await expect(backend.request('prompt.submit', { session_id: session.session_id, text: '   ' })).rejects.toMatchObject({
      code: ErrorCode.UsageError,
    });
    await backend.request('prompt.submit', { session_id: session.session_id, text: 'still there?' });
    const done = (await backend.waitForEvent(complete(session.session_id))) as EventOf<'message.complete'>;
    expect(done.payload).toMatchObject({ text: 'ok', status: 'complete' });
  });

  it('an empty command is a usage error (4004), an unknown one is not a command (4018); -32602 names its field', async () => {
    const { backend } = await setup({ turns: [{ text: 'ok' }] });
    const session = await backend.request('session.create', {});
    for (const command of ['/', '   ']) {
      await expect(backend.request('slash.exec', { session_id: session.session_id, command })).rejects.toMatchObject({ code: ErrorCode.UsageError });
    }
    await expect(backend.request('slash.exec', { session_id: session.session_id, command: '/no-such-command' })).rejects.toMatchObject({
      code: ErrorCode.NotACommand,
    });
    await expect(backend.request('cli.exec', { argv: [] })).rejects.toMatchObject({ code: ErrorCode.UsageError });
    await expect(backend.request('cli.exec', { argv: ['no-such-command'] })).rejects.toMatchObject({ code: ErrorCode.NotACommand });
    await expect(backend.request('config.set', { key: 'yolo', value: true })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      data: { field: 'session_id' },
    });
    await expect(backend.request('config.set', { key: 'yolo', value: 'yes', session_id: session.session_id })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      data: { field: 'value' },
    });
    await expect(backend.request('session.create', { cwd: '/no/such/dir' })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: expect.stringContaining('/no/such/dir'),
      data: { field: 'cwd' },
    });
  });

  it('refuses a second prompt while a turn runs (4009) and interrupts it keeping the partial reply', async () => {
    const long = Array.from({ length: 100 }, (_, i) => `word${i} `).join('');
    const { backend } = await setup({ turns: [{ text: long, chunk_size: 6, chunk_delay_ms: 30 }, { text: 'next' }] });
    const session = await backend.request('session.create', {});
    const sid = session.session_id;
    await backend.request('prompt.submit', { session_id: sid, text: 'long please' });
    await backend.waitForEvent((e) => e.session_id === sid && e.type === 'message.delta');
    await expect(backend.request('prompt.submit', { session_id: sid, text: 'again' })).rejects.toMatchObject({
      code: ErrorCode.SessionBusy,
    });
    expect(await backend.request('session.interrupt', { session_id: sid })).toEqual({ status: 'interrupted' });
    const done = (await backend.waitForEvent(complete(sid))) as EventOf<'message.complete'>;
    expect(done.payload!.status).toBe('interrupted');
    expect(done.payload!.text.length).toBeGreaterThan(0);
    expect(done.payload!.text.length).toBeLessThan(long.length);
    expect(long.startsWith(done.payload!.text)).toBe(true);
    expect(await backend.request('session.interrupt', { session_id: sid })).toEqual({ status: 'not_interrupted' });
    const history = await backend.request('session.history', { session_id: sid });
    expect(history.messages.at(-1)).toMatchObject({ role: 'assistant', text: done.payload!.text, status: 'interrupted' });
    // The session is usable again.
    await backend.request('prompt.submit', { session_id: sid, text: 'go on' });
    await backend.waitForEvent((e) => complete(sid)(e) && (e as EventOf<'message.complete'>).payload!.text === 'next');
  });

  it('without a model, opens the session, says how to configure one, and refuses prompts with 5032', async () => {
    const { backend } = await setup(null);
    const session = await backend.request('session.create', {});
    expect(session.info.setup_hint).toMatch(/config\.yaml/);
    expect(session.info.setup_hint).toMatch(/OPENAI_API_KEY/);
    expect(session.info.setup_hint).toMatch(/--provider/);
    const error = (await backend.waitForEvent((e) => e.type === 'error')) as EventOf<'error'>;
    expect(error.payload!.message).toMatch(/No model provider is configured/);
    await expect(backend.request('prompt.submit', { session_id: session.session_id, text: 'hi' })).rejects.toMatchObject({
      code: ErrorCode.AgentUnavailable,
      message: expect.stringContaining('config.yaml'),
    });
  });

  it('reports a broken config.yaml with its line and still serves', async () => {
    const backend = new BackendProcess({ config: 'model:\n  provider: openai\n  default: [unclosed\n' });
    cleanups.push(() => backend.stop());
    const session = await backend.request('session.create', {});
    expect(session.info.setup_hint).toMatch(/config\.yaml line \d+: is not valid YAML/);
  });

  it('keeps stdout to protocol frames even when code in the process calls console.log', async () => {
    const noisy = path.join(tempDir('hermes-noisy-'), 'noisy.mjs');
    fs.writeFileSync(
      noisy,
      // Like a dependency that logs while the backend works (after startup, once the guard is in place).
      [
        'const original = process.stdout.write;',
        'const t = setInterval(() => {',
        '  if (process.stdout.write === original) return;',
        "  console.log('stray log line'); process.stdout.write('stray write\\n');",
        '}, 5);',
        't.unref();',
      ].join('\n'),
    );
    const { backend } = await setup({ turns: [{ text: 'quiet please', chunk_size: 2, chunk_delay_ms: 5 }] }, { nodeArgs: ['--import', noisy] });
    const session = await backend.request('session.create', {});
    await backend.request('prompt.submit', { session_id: session.session_id, text: 'hi' });
    await backend.waitForEvent(complete(session.session_id));
    expect(backend.stderr).toContain('stray log line');
    expect(backend.rawLines.length).toBeGreaterThan(3);
    for (const line of backend.rawLines) {
      const frame = JSON.parse(line);
      expect(frame.jsonrpc).toBe('2.0');
    }
  });

  it('exits by itself when its stdin closes', async () => {
    const { backend } = await setup(null);
    expect(await backend.stop()).toBe(0);
  });
});
