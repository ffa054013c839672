import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempDb } from '../testing/tempHome.ts';
import { SessionStore } from '../sessions/sessionStore.ts';
import { StreamingMessage } from './streamingMessage.ts';

const stores: SessionStore[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

function openStore(): SessionStore {
  const store = SessionStore.open(tempDb('streaming'));
  stores.push(store);
  store.createSession({ id: 's1' });
  return store;
}

const storedText = (store: SessionStore) => store.messages('s1').map((m) => [m.content, m.status]);

describe('StreamingMessage', () => {
  it('writes text that came inside the throttle window once the stream pauses, without another delta', async () => {
    const store = openStore();
    const reply = new StreamingMessage(store, 's1');
    reply.update('Hello');
    reply.update('Hello, wor');
    reply.update('Hello, world. Then the model pauses');
    expect(storedText(store)).toEqual([['Hello', 'streaming']]);
    // A kill -9 during the pause must find what the user saw.
    await vi.waitFor(() => expect(storedText(store)).toEqual([['Hello, world. Then the model pauses', 'streaming']]), { timeout: 5_000, interval: 20 });
  });

  it('the final form wins over a pending trailing write', async () => {
    const store = openStore();
    const reply = new StreamingMessage(store, 's1');
    reply.update('Hel');
    reply.update('Hello');
    reply.finish({ content: 'Hello!', status: 'complete' });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(storedText(store)).toEqual([['Hello!', 'complete']]);
  });

  describe('a disk that fills up (a real SQLITE_FULL: the database may not grow past max_page_count)', () => {
    /** Lets the database grow by `pages` more pages at most. */
    const capTo = (store: SessionStore, pages: number) =>
      store.db.pragma(`max_page_count = ${Number(store.db.pragma('page_count', { simple: true })) + pages}`);
    const sentence = (n: number) => `Sentence ${n} of a long reply about databases and disks. `;
    const reply = Array.from({ length: 400 }, (_, n) => sentence(n)).join('');

    it('only the final write fails (it also indexes the reply): saving failed, the reply was shown whole', () => {
      const store = openStore();
      const row = new StreamingMessage(store, 's1');
      row.update(reply.slice(0, 1_000));
      capTo(store, 2);
      row.finish({ content: reply, status: 'complete' });
      expect(row.failed?.problem).toBe('disk_full');
      expect(row.failureMessage()).toMatch(/^The disk is full: saving the reply failed; only the first 1\.0 KB of the [\d.]+ KB reply shown is saved in /);
    });

    it('a write while streaming fails: the reply was stopped', async () => {
      const store = openStore();
      const row = new StreamingMessage(store, 's1');
      row.update(reply.slice(0, 1_000));
      capTo(store, 2);
      await new Promise((resolve) => setTimeout(resolve, 300));
      row.update(reply);
      expect(row.failed?.problem).toBe('disk_full');
      // The loop stops the stream and ends the call.
      row.finish({ content: reply, status: 'interrupted' });
      expect(row.failureMessage()).toMatch(/^The disk is full: the reply was stopped; only the first 1\.0 KB of the [\d.]+ KB reply shown is saved in /);
      expect(storedText(store)).toEqual([[reply.slice(0, 1_000), 'streaming']]);
    });
  });
});
