/** Session lifecycle over the wire: list, search, title, resume by title, branch, undo, delete. */
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../../../scripts/model-server/index.ts';
import { ErrorCode } from '../protocol/index.ts';
import { BackendProcess } from '../testing/backendProcess.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function start() {
  const server: ModelServer = await startModelServer({ loop: true, turns: [{ text: 'Noted: the quokka is a marsupial.' }] });
  cleanups.push(() => server.close());
  const backend = new BackendProcess({ args: ['--provider', 'custom', '--base-url', server.baseUrl, '--model', 'scripted-model'] });
  cleanups.push(() => backend.stop());
  return { server, backend };
}

async function turn(backend: BackendProcess, sid: string, text: string) {
  const before = backend.events.filter((e) => e.type === 'message.complete').length;
  await backend.request('prompt.submit', { session_id: sid, text });
  await backend.waitForEvent(() => backend.events.filter((e) => e.type === 'message.complete').length > before);
}

describe('session lifecycle over the wire', () => {
  it('titles, lists, searches, branches, undoes, resumes by title and deletes', async () => {
    const { backend } = await start();
    const a = await backend.request('session.create', {});
    await turn(backend, a.session_id, 'Tell me about   the quokka\nand more');
    // The first exchange names the session after its first prompt line.
    await backend.waitForEvent((e) => e.type === 'session.title');
    expect(await backend.request('session.title', { session_id: a.session_id })).toEqual({ title: 'Tell me about the quokka' });
    await turn(backend, a.session_id, 'second prompt');

    const { sessions } = await backend.request('session.list', {});
    expect(sessions[0]).toMatchObject({ id: a.stored_session_id, title: 'Tell me about the quokka', message_count: 4 });
    const { hits } = await backend.request('session.search', { query: 'marsupial' });
    expect(hits[0]).toMatchObject({ session_id: a.stored_session_id, role: 'assistant' });
    expect(hits[0]!.snippet).toContain('marsupial');
    // Text shorter than a trigram is scanned for: all of a small store within the budget, or all of any when asked.
    const short = await backend.request('session.search', { query: 'uo' });
    expect(short.searched_since).toBeUndefined();
    expect(short.hits.map((h) => h.snippet)).toContain('Tell me about the q«uo»kka and more');
    expect((await backend.request('session.search', { query: 'uo', exhaustive: true })).hits).toEqual(short.hits);
    await expect(backend.request('session.search', { query: 'uo', exhaustive: 'yes' as unknown as boolean })).rejects.toMatchObject({ code: ErrorCode.InvalidParams });

    const branch = await backend.request('session.branch', { session_id: a.session_id, name: 'quokka branch' });
    expect(branch.messages.map((m) => m.text)).toEqual(
      (await backend.request('session.history', { session_id: a.session_id })).messages.map((m) => m.text),
    );
    expect(branch.stored_session_id).not.toBe(a.stored_session_id);

    const undone = await backend.request('session.undo', { session_id: branch.session_id });
    expect(undone).toEqual({ removed: 2, text: 'second prompt' });
    expect((await backend.request('session.history', { session_id: branch.session_id })).count).toBe(2);
    expect((await backend.request('session.history', { session_id: a.session_id })).count).toBe(4);

    await expect(backend.request('session.title', { session_id: branch.session_id, title: 'Tell me about the quokka' })).rejects.toMatchObject({
      code: ErrorCode.UsageError,
      message: expect.stringContaining('already has the title'),
    });
    // A new session may not take a title either: the same usage error, not an internal one.
    await expect(backend.request('session.create', { title: 'quokka branch' })).rejects.toMatchObject({
      code: ErrorCode.UsageError,
      message: 'Another session already has the title "quokka branch"; choose a different title.',
    });
    await backend.request('session.close', { session_id: branch.session_id });
    // Not open: read from the store, without opening it.
    const read = await backend.request('session.history', { session_id: 'quokka branch' });
    expect(read).toMatchObject({ count: 2, stored: { id: branch.stored_session_id, title: 'quokka branch' } });
    // Asked for its end only, a resume answers with the last messages and still counts them all.
    const end = await backend.request('session.resume', { session_id: 'quokka branch', tail: 1 });
    expect(end).toMatchObject({ message_count: 2, messages: [{ role: 'assistant', text: 'Noted: the quokka is a marsupial.' }] });
    await backend.request('session.close', { session_id: end.session_id });
    const resumed = await backend.request('session.resume', { session_id: 'quokka branch' });
    expect(resumed.stored_session_id).toBe(branch.stored_session_id);
    expect(resumed.messages.map((m) => m.role)).toEqual(['user', 'assistant']);

    await expect(backend.request('session.delete', { session_id: resumed.stored_session_id })).rejects.toMatchObject({
      code: ErrorCode.SessionBusy,
    });
    // Named by its live id (what a client holds), it is the same open session: 4009, not "no stored session".
    await expect(backend.request('session.delete', { session_id: resumed.session_id })).rejects.toMatchObject({
      code: ErrorCode.SessionBusy,
      message: 'That session is open: close it (session.close) before deleting it.',
    });
    await backend.request('session.close', { session_id: resumed.session_id });
    expect(await backend.request('session.delete', { session_id: 'quokka branch' })).toEqual({ deleted: true });
    await expect(backend.request('session.resume', { session_id: 'quokka branch' })).rejects.toMatchObject({
      code: ErrorCode.SessionNotFound,
    });
  });

  it('history reads a page; a resume that loads only its tail sends the model the same request at the next turn as a full resume', async () => {
    const { server, backend } = await start();
    const a = await backend.request('session.create', {});
    for (const text of ['first', 'second', 'third']) await turn(backend, a.session_id, text);
    // Read in pages: the third and fourth messages, with the count of all six (open, then stored only).
    const page = { count: 6, messages: [{ role: 'user', text: 'second' }, { role: 'assistant', text: 'Noted: the quokka is a marsupial.' }] };
    expect(await backend.request('session.history', { session_id: a.session_id, offset: 2, limit: 2 })).toMatchObject(page);
    await backend.request('session.close', { session_id: a.session_id });
    expect(await backend.request('session.history', { session_id: a.stored_session_id, offset: 2, limit: 2 })).toMatchObject(page);
    expect((await backend.request('session.history', { session_id: a.stored_session_id, offset: 5 })).messages).toHaveLength(1);
    const lastRequest = () => (server.requests.at(-1)!.body as { messages: unknown[] }).messages;

    const end = await backend.request('session.resume', { session_id: a.stored_session_id, tail: 1 });
    expect(end).toMatchObject({ message_count: 6, messages: [{ role: 'assistant' }] });
    await turn(backend, end.session_id, 'next');
    const fromTail = lastRequest();
    expect(await backend.request('session.undo', { session_id: end.session_id })).toMatchObject({ removed: 2 });
    await backend.request('session.close', { session_id: end.session_id });

    const whole = await backend.request('session.resume', { session_id: a.stored_session_id });
    expect(whole.messages).toHaveLength(6);
    await turn(backend, whole.session_id, 'next');
    // System prompt, the six stored messages, the new prompt: all of them, though the resume read one.
    expect(fromTail).toHaveLength(8);
    expect(fromTail).toEqual(lastRequest());
  });
});
