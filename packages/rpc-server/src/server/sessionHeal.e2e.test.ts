/**
 * A backend that dies or is stopped while a tool runs leaves a session that still works: the call gets
 * a result (the partial output on an orderly stop, a synthetic "interrupted" one after kill -9), the
 * next turn in the same session is answered by a model server that refuses invalid sequences with
 * HTTP 400 as OpenAI does, and the tool's process group is gone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { INTERRUPTED_CALL_RESULT, SessionStore } from '@hermes/agent-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startModelServer, type ModelServer, type Turn } from '../../../../scripts/model-server/index.ts';
import { isAlive } from '../../../agent-core/src/processes/processTestUtil.ts';
import type { EventOf } from '../protocol/index.ts';
import { BackendProcess } from '../testing/backendProcess.ts';
import { startSleepingShell } from '../testing/sleepingShell.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** Prints the shell's pid (= its process group) and its child's, then waits on the child for 30 s. */
const COMMAND = 'echo "group:$$"; sleep 30 & echo "child:$!"; wait; echo never';

const LONG_TOOL_THEN_TEXT: Turn[] = [
  { tool_calls: [{ id: 'call_long', name: 'terminal', arguments: { command: COMMAND } }] },
  { text: 'answered after the restart' },
];

type Wire = 'openai' | 'anthropic';

async function setup(turns = LONG_TOOL_THEN_TEXT, wire: Wire = 'openai', config = 'approvals:\n  mode: off\n') {
  const server: ModelServer = await startModelServer({ turns });
  cleanups.push(() => server.close());
  const home = tempDir('hermes-heal-');
  const cwd = tempDir('hermes-heal-cwd-');
  const args = wire === 'openai'
    ? ['--provider', 'custom', '--base-url', server.baseUrl, '--model', 'scripted-model']
    : ['--provider', 'anthropic', '--base-url', server.url, '--model', 'claude-sonnet-4-5'];
  const open = () => {
    const backend = new BackendProcess({ home, args, config, env: { ANTHROPIC_API_KEY: 'test-key' } });
    cleanups.push(() => backend.stop());
    return backend;
  };
  return { server, cwd, open };
}

/** Starts the long tool call and resolves with the pids it printed, once it is running. */
async function startLongTool(backend: BackendProcess, cwd: string) {
  const { session_id: sid, stored_session_id: stored } = await backend.request('session.create', { cwd });
  await backend.request('prompt.submit', { session_id: sid, text: 'run the long command' });
  const progress = (await backend.waitForEvent(
    (e) => e.type === 'tool.progress' && /child:\d+/.test((e as EventOf<'tool.progress'>).payload!.preview),
  )) as EventOf<'tool.progress'>;
  const pid = (name: string) => Number(new RegExp(`${name}:(\\d+)`).exec(progress.payload!.preview)![1]);
  const pids = { group: pid('group'), child: pid('child') };
  cleanups.push(() => {
    if (isAlive(-pids.group)) process.kill(-pids.group, 'SIGKILL');
  });
  expect(isAlive(pids.child)).toBe(true);
  return { stored, pids };
}

/** Starts the long tool call, kills the backend with SIGKILL, and waits until the command's group is gone. */
async function killDuringLongTool(backend: BackendProcess, cwd: string): Promise<string> {
  const { stored, pids } = await startLongTool(backend, cwd);
  backend.child.kill('SIGKILL');
  await backend.exited;
  // Nothing of the backend ran after the kill: only its watchdog can have stopped the command.
  await vi.waitFor(() => expect(!isAlive(-pids.group) && !isAlive(pids.child)).toBe(true), { timeout: 15_000, interval: 100 });
  return stored;
}

/** Starts a `!cmd` (shell.exec) that runs `sleep 30` in its own group after `before`; resolves once it runs. */
async function startShell(before = '') {
  const { cwd, open } = await setup();
  const backend = open();
  const { session_id: sid } = await backend.request('session.create', { cwd });
  const { answer, group, child, kill } = await startSleepingShell(backend, sid, cwd, before);
  cleanups.push(kill);
  return { backend, answer, group, child };
}

/** Resumes the stored session in a new backend and runs one more turn in it. */
async function nextTurn(open: () => BackendProcess, stored: string) {
  const backend = open();
  const resumed = await backend.request('session.resume', { session_id: stored });
  await backend.request('prompt.submit', { session_id: resumed.session_id, text: 'are you still there?' });
  const done = (await backend.waitForEvent((e) => e.type === 'message.complete')) as EventOf<'message.complete'>;
  return { resumed, done };
}

describe('sessions heal after the backend stops during a tool call', () => {
  it.each(['openai', 'anthropic'] as const)('kill -9 (%s wire): the call is answered as interrupted, the next turn is served, the tool group is gone', { timeout: 60_000 }, async (wire) => {
    const { server, cwd, open } = await setup(LONG_TOOL_THEN_TEXT, wire);
    const stored = await killDuringLongTool(open(), cwd);

    const { resumed, done } = await nextTurn(open, stored);
    const result = resumed.messages.find((m) => m.role === 'tool');
    expect(result).toMatchObject({ tool_call_id: 'call_long', text: INTERRUPTED_CALL_RESULT, status: 'interrupted' });
    expect(done.payload).toMatchObject({ status: 'complete', text: 'answered after the restart' });
    const sent = (server.requests.at(-1)!.body as { messages: { role: string; tool_call_id?: string; content: unknown }[] }).messages;
    if (wire === 'openai') {
      expect(sent.filter((m) => m.role === 'tool')).toEqual([{ role: 'tool', tool_call_id: 'call_long', content: INTERRUPTED_CALL_RESULT }]);
    } else {
      const blocks = sent.flatMap((m) => (Array.isArray(m.content) ? (m.content as { type: string }[]) : []));
      expect(blocks.filter((b) => b.type === 'tool_result')).toEqual([{ type: 'tool_result', tool_use_id: 'call_long', content: INTERRUPTED_CALL_RESULT }]);
    }
    // Resuming again adds nothing: the repair happened once.
    const again = await open().request('session.resume', { session_id: stored });
    expect(again.messages.filter((m) => m.role === 'tool')).toHaveLength(1);
  });

  it('kill -9 while the second of two calls in one message runs: the first keeps its real result, only the second is interrupted', { timeout: 60_000 }, async () => {
    const { server, cwd, open } = await setup([
      {
        tool_calls: [
          { id: 'call_quick', name: 'terminal', arguments: { command: 'echo quick-done' } },
          { id: 'call_long', name: 'terminal', arguments: { command: COMMAND } },
        ],
      },
      { text: 'answered after the restart' },
    ]);
    const stored = await killDuringLongTool(open(), cwd);

    const { resumed, done } = await nextTurn(open, stored);
    expect(resumed.messages.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, m.text, m.status ?? null])).toEqual([
      ['call_quick', 'quick-done\n[exit code: 0]', null],
      ['call_long', INTERRUPTED_CALL_RESULT, 'interrupted'],
    ]);
    expect(done.payload).toMatchObject({ status: 'complete', text: 'answered after the restart' });
    const sent = (server.requests.at(-1)!.body as { messages: { role: string; tool_call_id?: string; content: unknown }[] }).messages;
    expect(sent.filter((m) => m.role === 'tool').map((m) => m.tool_call_id)).toEqual(['call_quick', 'call_long']);
  });

  it('a call left unanswered deep in an older stored history is answered in the request, not sent as a 400', async () => {
    const { server, open } = await setup([{ text: 'answered after the restart' }]);
    const backend = open();
    const { stored_session_id: stored } = await backend.request('session.create', {});
    await backend.stop();
    // What an older hermes left: a call without its result, then more turns after it.
    const store = SessionStore.open(path.join(backend.home, 'state.db'));
    store.appendMessage(stored, { role: 'user', content: 'run it' });
    store.appendMessage(stored, { role: 'assistant', content: '', toolCalls: [{ id: 'call_old', type: 'function', function: { name: 'terminal', arguments: '{}' } }] });
    store.appendMessage(stored, { role: 'user', content: 'hello?' });
    store.appendMessage(stored, { role: 'assistant', content: 'Sorry, something failed.', status: 'error' });
    store.close();
    server.requests.length = 0;
    const { done } = await nextTurn(open, stored);
    expect(done.payload).toMatchObject({ status: 'complete', text: 'answered after the restart' });
    const sent = (server.requests[0]!.body as { messages: { role: string; tool_call_id?: string; content: string }[] }).messages;
    expect(sent.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user', 'assistant', 'user']);
    expect(sent[3]).toEqual({ role: 'tool', tool_call_id: 'call_old', content: INTERRUPTED_CALL_RESULT });
  });

  it.each([
    ['SIGTERM', (b: BackendProcess) => b.child.kill('SIGTERM')],
    ['SIGHUP', (b: BackendProcess) => b.child.kill('SIGHUP')],
    ['SIGINT', (b: BackendProcess) => b.child.kill('SIGINT')],
    ['stdin EOF', (b: BackendProcess) => b.child.stdin.end()],
  ] as const)('%s: the tool is stopped, its partial output stored as its result, the backend exits', { timeout: 60_000 }, async (how, stop) => {
    const { cwd, open } = await setup();
    const first = open();
    const { stored, pids } = await startLongTool(first, cwd);
    stop(first);
    expect(await first.exited).toBe(0);
    // The backend stopped the command itself before exiting (no watchdog needed, no orphans).
    await vi.waitFor(() => expect(!isAlive(-pids.group) && !isAlive(pids.child)).toBe(true), { timeout: 5_000, interval: 50 });

    const { resumed, done } = await nextTurn(open, stored);
    const result = resumed.messages.find((m) => m.role === 'tool')!;
    expect(result).toMatchObject({ tool_call_id: 'call_long', status: 'interrupted' });
    expect(result.text).toContain(`group:${pids.group}\nchild:${pids.child}`);
    expect(result.text).toMatch(/\[interrupted \(hermes stopped: .+\): the command and the processes it started were killed/);
    expect(result.text).not.toContain('never');
    expect(done.payload, how).toMatchObject({ status: 'complete', text: 'answered after the restart' });
  });

  it('SIGTERM while an approval is asked: the call is answered as stopped by hermes (not by the user), the next turn is served', { timeout: 60_000 }, async () => {
    const target = tempDir('hermes-heal-keep-');
    const { cwd, open } = await setup(
      [{ tool_calls: [{ id: 'call_rm', name: 'terminal', arguments: { command: `rm -rf ${target}` } }] }, { text: 'answered after the restart' }],
      'openai',
      'approvals:\n  mode: manual\n',
    );
    const first = open();
    let asked!: () => void;
    const askedPromise = new Promise<void>((resolve) => (asked = resolve));
    first.connection.onRequest('approval', () => {
      asked();
      return new Promise(() => {});
    });
    const { session_id: sid, stored_session_id: stored } = await first.request('session.create', { cwd });
    await first.request('prompt.submit', { session_id: sid, text: 'clean up' });
    await askedPromise;
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(fs.existsSync(target)).toBe(true);

    const { resumed, done } = await nextTurn(open, stored);
    expect(resumed.messages.find((m) => m.role === 'tool')).toMatchObject({
      tool_call_id: 'call_rm',
      status: 'interrupted',
      text: '[interrupted] hermes stopped: SIGTERM: the turn ended before this tool call finished.',
    });
    expect(done.payload).toMatchObject({ status: 'complete', text: 'answered after the restart' });
  });

  it("SIGTERM during the composer's !cmd: the command is stopped and shell.exec answered before the backend exits", { timeout: 60_000 }, async () => {
    const { backend, answer, group, child } = await startShell('echo before; ');
    backend.child.kill('SIGTERM');
    expect(await answer).toEqual({ stdout: 'before', stderr: '[stopped: hermes stopped: SIGTERM]', code: 1 });
    expect(await backend.exited).toBe(0);
    // Killed by the backend before it exited; the kernel may take a moment to reap what was signalled.
    await vi.waitFor(() => expect(!isAlive(-group) && !isAlive(child)).toBe(true), { timeout: 5_000, interval: 50 });
  });

  it("kill -9 during the composer's !cmd (shell.exec): its process group is gone too", { timeout: 60_000 }, async () => {
    const { backend, answer, group, child } = await startShell();
    answer.catch(() => {});
    expect(isAlive(child)).toBe(true);
    backend.child.kill('SIGKILL');
    await backend.exited;
    await vi.waitFor(() => expect(!isAlive(-group) && !isAlive(child)).toBe(true), { timeout: 15_000, interval: 100 });
  });
});
