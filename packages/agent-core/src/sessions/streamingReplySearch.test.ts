import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from './schema.ts';
import { repairStoredSession } from './sessionHeal.ts';
import { SessionStore } from './sessionStore.ts';
import { tempDb } from '../testing/tempHome.ts';
import { expectIndexesIntact } from '../testing/searchIndexes.ts';

/**
 * A reply is not indexed while it streams (FTS_DESIGN, migration 7): no search finds it until its
 * status says how it ended, and then every search finds its final text. Each text has a term for each
 * way a search reads: a word (word index), three characters inside unspaced text (trigram index), two
 * (shorter than a trigram: the scan).
 */
const EARLIER = { text: 'Penguins dive 企鹅潜水很深', terms: ['penguins', '企鹅潜', '潜水'] };
const FINAL = { text: 'Albatrosses glide 信天翁滑翔数小时', terms: ['albatrosses', '信天翁', '滑翔'] };

const stores: SessionStore[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

function open(file = tempDb('streaming-search')): SessionStore {
  const store = SessionStore.open(file);
  stores.push(store);
  return store;
}

/** A question and a reply still streaming `text` in session `session` (made if new); returns the reply's row. */
function streamingReply(store: SessionStore, text: string, session = 's'): number {
  if (!store.getSession(session)) store.createSession({ id: session });
  store.appendMessage(session, { role: 'user', content: 'tell me about seabirds' });
  return store.appendMessage(session, { role: 'assistant', content: text, status: 'streaming' });
}

interface Found {
  messages: number[];
  sessions: string[];
}
const NOTHING: Found = { messages: [], sessions: [] };

/** For each term: the messages a search finds, and the sessions the picker's filter keeps for it. */
function expectFound(store: SessionStore, terms: string[], expected: Found): void {
  const found = terms.map((term) => ({
    term,
    messages: store.search(term, { exhaustive: true }).map((h) => h.messageId).sort((a, b) => a - b),
    sessions: store.listSessions({ query: term }).map((s) => s.id).sort(),
  }));
  expect(found).toEqual(terms.map((term) => ({ term, ...expected })));
}

describe('a reply being streamed', () => {
  it('is found by no search while it streams, then by every one, with its final text', () => {
    const store = open();
    const row = streamingReply(store, EARLIER.text);
    expectFound(store, EARLIER.terms, NOTHING);
    // A retried attempt streams again from the start; each flush rewrites the whole reply so far.
    store.updateMessage(row, { content: FINAL.text.slice(0, 12) });
    store.updateMessage(row, { content: FINAL.text });
    expectFound(store, FINAL.terms, NOTHING);
    expectIndexesIntact(store.db);
    // What StreamingMessage.finish writes: the text flushed last, unchanged, and how the reply ended.
    store.updateMessage(row, { content: FINAL.text, status: 'complete' });
    expectFound(store, FINAL.terms, { messages: [row], sessions: ['s'] });
    expectFound(store, EARLIER.terms, NOTHING);
    expect(store.search('albatrosses').map((h) => h.snippet)).toEqual(['«Albatrosses» glide 信天翁滑翔数小时']);
    expectIndexesIntact(store.db);
  });

  it.each([
    ['stopped by the user', (store: SessionStore, row: number) => (store.updateMessage(row, { content: FINAL.text, status: 'interrupted' }), store)],
    ['that failed', (store: SessionStore, row: number) => (store.updateMessage(row, { content: FINAL.text, status: 'error' }), store)],
    [
      'cut off by a crash, once its session is loaded again (sessionHeal)',
      (store: SessionStore) => {
        store.close();
        const reopened = open(store.file);
        expect(repairStoredSession(reopened, 's').interruptedReplies).toBe(1);
        return reopened;
      },
    ],
  ])('is found once it has ended: a reply %s', (_, end) => {
    const store = open();
    const row = streamingReply(store, EARLIER.text);
    store.updateMessage(row, { content: FINAL.text });
    expectFound(store, FINAL.terms, NOTHING);
    const after = end(store, row);
    expect(after.messages('s').at(-1)).toMatchObject({ id: row, content: FINAL.text, status: expect.not.stringMatching(/^streaming$/) });
    expectFound(after, FINAL.terms, { messages: [row], sessions: ['s'] });
    expectIndexesIntact(after.db);
  });

  it('leaves both indexes intact when it is copied by a branch or deleted with its turn or its session', () => {
    const store = open();
    const done = streamingReply(store, FINAL.text);
    store.updateMessage(done, { content: FINAL.text, status: 'complete' });
    streamingReply(store, EARLIER.text);
    // The branch copies both replies as they are: the finished one indexed, the streaming one not.
    store.branchSession('s', 'b');
    const [copied] = store.messages('b').filter((m) => m.content === FINAL.text);
    expectIndexesIntact(store.db);
    expectFound(store, FINAL.terms, { messages: [done, copied!.id], sessions: ['b', 's'] });
    expectFound(store, EARLIER.terms, NOTHING);

    expect(store.undoLastTurn('s').removed).toBe(2);
    expectIndexesIntact(store.db);
    expect(store.deleteSession('b')).toBe(true);
    expectIndexesIntact(store.db);
    expectFound(store, FINAL.terms, { messages: [done], sessions: ['s'] });
  });
});

describe('migration 7', () => {
  it('leaves the rows of a version-6 store as they were indexed (a streaming one too), and indexes new replies once they end', () => {
    const file = tempDb('streaming-search');
    const old = new Database(file);
    for (const migration of MIGRATIONS.slice(0, 6)) old.exec(migration);
    old.pragma('user_version = 6');
    old.prepare(`INSERT INTO sessions (id, started_at, last_active, message_count) VALUES ('s', 1, 1, 2)`).run();
    const insert = old.prepare(`INSERT INTO messages (session_id, role, content, status, timestamp) VALUES ('s', 'assistant', ?, ?, 1)`);
    const done = Number(insert.run(EARLIER.text, 'complete').lastInsertRowid);
    const cut = Number(insert.run(FINAL.text, 'streaming').lastInsertRowid);
    // Version 6 indexes a row whatever its status.
    for (const [index, match] of [['messages_fts', 'albatrosses'], ['messages_trigram', '信天翁']]) {
      expect(old.prepare(`SELECT rowid FROM ${index} WHERE ${index} MATCH ?`).pluck().all(match), index).toEqual([cut]);
    }
    old.close();

    const store = open(file);
    expectIndexesIntact(store.db);
    // The row a crash left streaming before the upgrade stays found, by every path (the scan too)...
    expectFound(store, FINAL.terms, { messages: [cut], sessions: ['s'] });
    expectFound(store, EARLIER.terms, { messages: [done], sessions: ['s'] });
    // ...and is indexed again, with its final text, when it is healed.
    store.updateMessage(cut, { content: `${FINAL.text} 海鸥`, status: 'interrupted' });
    expectFound(store, ['海鸥'], { messages: [cut], sessions: ['s'] });
    expectIndexesIntact(store.db);
    // A reply streamed after the upgrade follows the new rule.
    const fresh = streamingReply(store, 'Puffins nest 海雀筑巢');
    expectFound(store, ['puffins', '海雀筑', '筑巢'], NOTHING);
    store.updateMessage(fresh, { status: 'complete' });
    expectFound(store, ['puffins', '海雀筑', '筑巢'], { messages: [fresh], sessions: ['s'] });
    expectIndexesIntact(store.db);
  });
});
