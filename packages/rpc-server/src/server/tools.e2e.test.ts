/** Tools over the wire: the real backend process, a scripted model, real files and processes. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type Turn } from '../../../../scripts/model-server/index.ts';
import type { EventOf, HermesEvent } from '../protocol/index.ts';
import { BackendProcess } from '../testing/backendProcess.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function start(turns: Turn[]) {
  const server: ModelServer = await startModelServer({ turns });
  cleanups.push(() => server.close());
  const backend = new BackendProcess({ args: ['--provider', 'custom', '--base-url', server.baseUrl, '--model', 'scripted-model'] });
  cleanups.push(() => backend.stop());
  const cwd = tempDir('hermes-work-');
  const session = await backend.request('session.create', { cwd });
  return { server, backend, cwd, sid: session.session_id };
}

async function turn(backend: BackendProcess, sid: string, text: string) {
  const before = backend.eventsOf(sid).filter((e) => e.type === 'message.complete').length;
  await backend.request('prompt.submit', { session_id: sid, text });
  await backend.waitForEvent(() => backend.eventsOf(sid).filter((e) => e.type === 'message.complete').length > before);
}

const of = <K extends HermesEvent['type']>(events: HermesEvent[], type: K) =>
  events.filter((e) => e.type === type) as EventOf<K>[];

describe('tools over the wire', () => {
  it('lists toolsets and their tools', async () => {
    const { backend } = await start([{ text: 'unused' }]);
    const { toolsets } = await backend.request('tools.list', {});
    const byName = Object.fromEntries(toolsets.map((t) => [t.name, t]));
    expect(Object.keys(byName)).toEqual(expect.arrayContaining(['terminal', 'file', 'search', 'todo', 'memory', 'clarify']));
    expect(byName.file!.tools).toEqual(expect.arrayContaining(['read_file', 'write_file', 'patch']));
    expect(byName.terminal!.enabled).toBe(true);
  });

  it('runs read-only calls of one response in parallel and returns results in call order', async () => {
    const { backend, server, cwd, sid } = await start([
      {
        tool_calls: [
          { id: 'c1', name: 'read_file', arguments: { path: 'one.txt' } },
          { id: 'c2', name: 'search_files', arguments: { pattern: 'needle', target: 'content' } },
          { id: 'c3', name: 'read_file', arguments: { path: 'two.txt' } },
        ],
      },
      { text: 'read them' },
    ]);
    fs.writeFileSync(path.join(cwd, 'one.txt'), 'first file\n');
    fs.writeFileSync(path.join(cwd, 'two.txt'), 'second file with needle\n');
    await turn(backend, sid, 'read');
    const body = server.requests[1]!.body as { messages: { role: string; tool_call_id?: string; content: string }[] };
    const tools = body.messages.filter((m) => m.role === 'tool');
    expect(tools.map((m) => m.tool_call_id)).toEqual(['c1', 'c2', 'c3']);
    expect(tools[0]!.content).toContain('first file');
    expect(tools[1]!.content).toContain('two.txt');
    expect(tools[2]!.content).toContain('second file');
    // All three started before the first finished: they ran side by side.
    const sequence = backend.eventsOf(sid).filter((e) => e.type === 'tool.start' || e.type === 'tool.complete').map((e) => e.type);
    expect(sequence.slice(0, 3)).toEqual(['tool.start', 'tool.start', 'tool.start']);
  });

  it('patch carries its unified diff in tool.complete and changes the file', async () => {
    const { backend, cwd, sid } = await start([
      { tool_calls: [{ name: 'patch', arguments: { path: 'app.txt', old_string: 'colour = red', new_string: 'colour = blue' } }] },
      { text: 'patched' },
    ]);
    fs.writeFileSync(path.join(cwd, 'app.txt'), 'name = demo\ncolour = red\n');
    await turn(backend, sid, 'make it blue');
    expect(fs.readFileSync(path.join(cwd, 'app.txt'), 'utf8')).toBe('name = demo\ncolour = blue\n');
    const [complete] = of(backend.events, 'tool.complete');
    expect(complete!.payload!.inline_diff).toMatch(/-colour = red\n\+colour = blue/);
  });

  it('clarify asks the human through a server request and hands the answer to the model', async () => {
    const { backend, server, sid } = await start([
      { tool_calls: [{ name: 'clarify', arguments: { question: 'Which colour?', choices: ['red', 'teal'] } }] },
      { text: 'teal it is' },
    ]);
    const asked: unknown[] = [];
    backend.connection.onRequest('clarify', (params: { question: string }) => {
      asked.push(params);
      return { answer: 'teal' };
    });
    await turn(backend, sid, 'pick');
    expect(asked).toEqual([expect.objectContaining({ session_id: sid, question: 'Which colour?', choices: ['red', 'teal'] })]);
    const body = server.requests[1]!.body as { messages: { role: string; content: string }[] };
    expect(body.messages.at(-1)!.content).toContain('teal');
  });

  it('todo updates reach the client as todo.updated', async () => {
    const { backend, sid } = await start([
      { tool_calls: [{ name: 'todo', arguments: { todos: [{ id: '1', content: 'write tests', status: 'in_progress' }] } }] },
      { text: 'planned' },
    ]);
    await turn(backend, sid, 'plan');
    const [update] = of(backend.events, 'todo.updated');
    expect(update!.payload).toEqual({ todos: [{ id: '1', content: 'write tests', status: 'in_progress' }], revision: 1 });
  });

  it('an interrupt kills a running command and keeps its partial output', async () => {
    const marker = `hermes-interrupt-${process.pid}-${Date.now()}`;
    const { backend, sid } = await start([
      { tool_calls: [{ name: 'terminal', arguments: { command: `for i in $(seq 1 600); do echo ${marker} $i; sleep 0.05; done` } }] },
      { text: 'never reached' },
    ]);
    await backend.request('prompt.submit', { session_id: sid, text: 'count' });
    await backend.waitForEvent((e) => e.type === 'tool.progress' && JSON.stringify(e.payload).includes(marker));
    await backend.request('session.interrupt', { session_id: sid });
    const done = (await backend.waitForEvent((e) => e.type === 'message.complete')) as EventOf<'message.complete'>;
    expect(done.payload!.status).toBe('interrupted');
    const [complete] = of(backend.events, 'tool.complete');
    expect(complete!.payload!.result).toContain(`${marker} 1`);
    expect(complete!.payload!.result).toMatch(/interrupt/i);
    const { execa } = await import('execa');
    const left = await execa('pgrep', ['-f', marker], { reject: false });
    expect(left.stdout).toBe('');
    const history = await backend.request('session.history', { session_id: sid });
    expect(history.messages.at(-1)).toMatchObject({ role: 'tool', text: expect.stringContaining(`${marker} 1`) });
  });

  it('shell.exec runs a command with separate streams, and process.stop kills background processes', async () => {
    const { backend, sid, server } = await start([
      { tool_calls: [{ name: 'terminal', arguments: { command: 'sleep 300', background: true } }] },
      { text: 'started' },
    ]);
    const shell = await backend.request('shell.exec', { session_id: sid, command: 'echo out; echo err >&2; exit 3' });
    expect(shell).toEqual({ stdout: 'out', stderr: 'err', code: 3 });
    await turn(backend, sid, 'start a server');
    expect(server.served).toBe(2);
    expect(await backend.request('process.stop', { session_id: sid })).toEqual({ killed: 1 });
    expect(await backend.request('process.stop', { session_id: sid })).toEqual({ killed: 0 });
  });

  it('shell.exec without a session denies dangerous commands: nobody can be asked', async () => {
    const { backend } = await start([{ text: 'unused' }]);
    const target = tempDir('hermes-keep-');
    const result = await backend.request('shell.exec', { command: `rm -rf ${target}` });
    expect(result.code).toBe(126);
    expect(result.stderr).toMatch(/^BLOCKED:/);
    expect(fs.existsSync(target)).toBe(true);
  });
});
