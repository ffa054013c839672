/** sessions.idle_close and sessions.max_open on the real backend; ids of many sessions never clash. */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startModelServer, type Script } from '../../../../scripts/model-server/index.ts';
import type { HermesEvent, SessionOpenResult } from '../protocol/index.ts';
import { BackendProcess } from '../testing/backendProcess.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function start(config: string, script: Script = { loop: true, turns: [{ text: 'Noted.' }] }) {
  const server = await startModelServer(script);
  cleanups.push(() => server.close());
  const backend = new BackendProcess({ config, args: ['--provider', 'custom', '--base-url', server.baseUrl, '--model', 'scripted-model'] });
  cleanups.push(() => backend.stop());
  await backend.waitForEvent((e) => e.type === 'gateway.ready');
  return { backend, server, log: () => backend.log() };
}

const completes = (backend: BackendProcess, sid: string) =>
  backend.events.filter((e) => e.session_id === sid && e.type === 'message.complete').length;

async function turn(backend: BackendProcess, sid: string, text: string) {
  const before = completes(backend, sid);
  await backend.request('prompt.submit', { session_id: sid, text });
  await backend.waitForEvent(() => completes(backend, sid) > before);
}

describe('open sessions are bounded', () => {
  it('closes a session idle for sessions.idle_close and reopens it, invisibly, on its next request', async () => {
    const { backend, log } = await start('sessions:\n  idle_close: 1s\n');
    const a = await backend.request('session.create', {});
    await turn(backend, a.session_id, 'first prompt');
    await backend.request('config.set', { key: 'yolo', value: true, session_id: a.session_id });
    await vi.waitFor(() => expect(log()).toContain(`session ${a.session_id} closed (idle)`), { timeout: 15_000 });

    // The client goes on as if nothing happened: same id, same history, same settings.
    await turn(backend, a.session_id, 'second prompt');
    expect(log()).toContain(`session ${a.session_id} reopened (stored ${a.stored_session_id})`);
    const history = await backend.request('session.history', { session_id: a.session_id });
    expect(history.messages.map((m) => m.text)).toEqual(['first prompt', 'Noted.', 'second prompt', 'Noted.']);
    const info = await backend.request('tools.list', { session_id: a.session_id });
    expect(info.toolsets.length).toBeGreaterThan(0);
    // Event numbering continues where it was: no gap or restart a client would take for lost events.
    const seqs = backend.eventsOf(a.session_id).map((e: HermesEvent) => e.seq!);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
  });

  it('never closes a session whose turn is running, idle or over the cap', async () => {
    const script: Script = {
      loop: true,
      turns: [{ text: 'ok' }],
      // The first prompt's reply stalls mid-stream: its turn runs until interrupted.
      on_match: [{ when_last_message_contains: 'hold on', turn: { text: 'I am thinking about it at length', stall_after: 2 } }],
    };
    const { backend, log } = await start('sessions:\n  idle_close: 1s\n  max_open: 2\n', script);
    const running = await backend.request('session.create', {});
    await backend.request('prompt.submit', { session_id: running.session_id, text: 'hold on' });
    await backend.waitForEvent((e) => e.session_id === running.session_id && e.type === 'message.start');
    const others: SessionOpenResult[] = [];
    for (let i = 0; i < 4; i += 1) others.push(await backend.request('session.create', {}));
    // The cap closed idle sessions, and the idle timer ran long enough to close the rest.
    await vi.waitFor(() => expect(log()).toMatch(new RegExp(`session ${others.at(-1)!.session_id} closed \\(idle\\)`)), { timeout: 15_000 });
    expect(log()).toMatch(/closed \(over sessions\.max_open \(2\)\)/);
    expect(log()).not.toContain(`session ${running.session_id} closed`);
    // Still the same running turn: interrupting it reaches it.
    expect(await backend.request('session.interrupt', { session_id: running.session_id })).toEqual({ status: 'interrupted' });
    await backend.waitForEvent((e) => e.session_id === running.session_id && e.type === 'message.complete');
  });

  it('past sessions.max_open closes the least recently used idle session first', async () => {
    const { backend, log } = await start('sessions:\n  max_open: 2\n');
    const a = await backend.request('session.create', {});
    const b = await backend.request('session.create', {});
    // a was opened first but used last: b is now the least recently used.
    await backend.request('session.history', { session_id: a.session_id });
    const c = await backend.request('session.create', {});
    await vi.waitFor(() => expect(log()).toContain(`session ${b.session_id} closed (over sessions.max_open (2))`));
    expect(log()).not.toContain(`session ${a.session_id} closed`);
    expect(log()).not.toContain(`session ${c.session_id} closed`);
  });

  it('keeps at most sessions.max_open open over 3,000 creates, each with its own stored id, all still usable', async () => {
    const { backend, log } = await start('sessions:\n  max_open: 4\n');
    const created: SessionOpenResult[] = [];
    for (let i = 0; i < 3000; i += 1) created.push(await backend.request('session.create', {}));
    expect(new Set(created.map((s) => s.session_id)).size).toBe(created.length);
    expect(new Set(created.map((s) => s.stored_session_id)).size).toBe(created.length);
    await vi.waitFor(() => expect(log().match(/closed \(over sessions\.max_open \(4\)\)/g)).toHaveLength(created.length - 4));
    const db = new Database(path.join(backend.home, 'state.db'), { readonly: true });
    expect(db.prepare('SELECT COUNT(DISTINCT id) AS n FROM sessions').get()).toEqual({ n: created.length });
    db.close();
    // The first one was closed long ago; it comes back on use.
    await turn(backend, created[0]!.session_id, 'still here?');
    expect((await backend.request('session.history', { session_id: created[0]!.session_id })).count).toBe(2);
  });
});
