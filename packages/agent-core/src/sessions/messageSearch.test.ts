import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from './schema.ts';
import { SessionStore } from './sessionStore.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';
import { expectIndexesIntact } from '../testing/searchIndexes.ts';

const tmpDb = () => path.join(tempDir('hermes-search-'), 'state.db');
const call = (name: string, args: unknown) => ({ id: `c-${name}`, type: 'function' as const, function: { name, arguments: JSON.stringify(args) } });

function storeWith(messages: Array<[session: string, role: 'user' | 'assistant' | 'tool', content: string]>): SessionStore {
  const store = SessionStore.open(tmpDb());
  for (const [session, role, content] of messages) {
    if (!store.getSession(session)) store.createSession({ id: session, title: `Title ${session}` });
    store.appendMessage(session, { role, content });
  }
  return store;
}

describe('migration 3', () => {
  it('upgrades a version-1 database with messages and back-fills both indexes', () => {
    const file = tmpDb();
    const old = new Database(file);
    old.exec(MIGRATIONS[0]!);
    old.pragma('user_version = 1');
    old.prepare(`INSERT INTO sessions (id, title, started_at, last_active) VALUES ('old', 'Old work', 1, 1)`).run();
    const insert = old.prepare(`INSERT INTO messages (session_id, role, content, tool_calls, timestamp) VALUES ('old', ?, ?, ?, 1)`);
    insert.run('user', 'We need a rollback strategy for the deployment', null);
    insert.run('assistant', '先看看数据库迁移方案', JSON.stringify([call('terminal', { command: 'kubectl rollout\nundo deploy/zeppelin' })]));
    insert.run('assistant', 'broken tool calls', '{not json');
    old.close();

    const store = SessionStore.open(file);
    expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(store.search('rollback').map((h) => h.messageId)).toEqual([1]);
    expect(store.search('数据库').map((h) => h.messageId)).toEqual([2]);
    expect(store.search('zeppelin').map((h) => h.snippet)).toEqual(['terminal kubectl rollout undo deploy/«zeppelin»']);
    expect(store.search('json').map((h) => h.messageId)).toEqual([3]);
    expectIndexesIntact(store.db);
    store.close();
  });
});

describe('search', () => {
  it('finds Chinese, Japanese and Korean words inside unspaced text, marking the match', () => {
    const store = storeWith([
      ['zh', 'user', '我们需要一个数据库迁移方案'],
      ['ja', 'assistant', '日本語のテキストを全文検索します'],
      ['ko', 'user', '한국어데이터베이스검색기능'],
      ['en', 'user', 'nothing to see here'],
    ]);
    expect(store.search('数据库').map((h) => [h.sessionId, h.snippet])).toEqual([['zh', '我们需要一个«数据库»迁移方案']]);
    expect(store.search('全文検索').map((h) => h.sessionId)).toEqual(['ja']);
    expect(store.search('데이터베이스').map((h) => h.sessionId)).toEqual(['ko']);
    // Two characters: shorter than a trigram, found by the scan instead.
    expect(store.search('迁移').map((h) => [h.sessionId, h.snippet])).toEqual([['zh', '我们需要一个数据库«迁移»方案']]);
    expect(store.search('検索 テキスト').map((h) => h.sessionId)).toEqual(['ja']);
    store.close();
  });

  it('finds a word that appears only in the arguments of a tool call', () => {
    const store = storeWith([['s', 'user', 'please look around']]);
    store.appendMessage('s', { role: 'assistant', content: 'Searching.', toolCalls: [call('search_files', { pattern: 'frobnicate', path: 'src/' })] });
    const hits = store.search('frobnicate');
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ sessionId: 's', role: 'assistant', title: 'Title s' });
    expect(hits[0]!.snippet).toContain('«frobnicate»');
    // JSON keys are not indexed: "pattern" is the name of an argument, not something said.
    expect(store.search('pattern')).toEqual([]);
    store.close();
  });

  it('filters by role and by session', () => {
    const store = storeWith([
      ['a', 'user', 'deploy the widget'],
      ['a', 'assistant', 'the widget is deployed'],
      ['b', 'user', 'which widget?'],
    ]);
    expect(store.search('widget').map((h) => h.sessionId).sort()).toEqual(['a', 'a', 'b']);
    expect(store.search('widget', { role: 'user' }).map((h) => h.sessionId).sort()).toEqual(['a', 'b']);
    expect(store.search('widget', { sessionId: 'b' }).map((h) => h.role)).toEqual(['user']);
    expect(store.search('widget', { role: 'assistant', sessionId: 'b' })).toEqual([]);
    expect(store.search('widget', { limit: 1 })).toHaveLength(1);
    store.close();
  });

  it('ranks by bm25: more occurrences of the word rank higher', () => {
    const store = storeWith([
      ['s', 'user', 'cache once, then other words about nothing in particular'],
      ['s', 'user', 'cache cache cache: the cache is the problem'],
      ['s', 'user', 'cache twice and cache again'],
    ]);
    expect(store.search('cache').map((h) => h.messageId)).toEqual([2, 3, 1]);
    store.close();
  });

  it('falls back to substring search when no whole word matches', () => {
    const store = storeWith([['s', 'user', 'the serialization layer is slow']]);
    expect(store.search('serial').map((h) => h.snippet)).toEqual(['the «serial»ization layer is slow']);
    expect(store.search('zz')).toEqual([]);
    expect(store.search('')).toEqual([]);
    expect(store.search('***')).toEqual([]);
    store.close();
  });

  // A reply is not indexed while it streams: streamingReplySearch.test.ts.
  it('keeps the index in step with updateMessage', () => {
    const store = storeWith([['s', 'user', 'tell me about birds']]);
    const row = store.appendMessage('s', { role: 'assistant', content: 'Penguins' });
    expect(store.search('penguins').map((h) => h.messageId)).toEqual([row]);
    store.updateMessage(row, { content: 'Albatrosses glide for hours' });
    expect(store.search('penguins')).toEqual([]);
    expect(store.search('albatrosses').map((h) => h.messageId)).toEqual([row]);
    store.updateMessage(row, { status: 'complete', toolCalls: [call('web', { q: 'wingspan' })] });
    expect(store.messages('s')[1]).toMatchObject({ status: 'complete', content: 'Albatrosses glide for hours' });
    expect(store.search('wingspan').map((h) => h.messageId)).toEqual([row]);
    expect(store.getSession('s')!.tool_call_count).toBe(1);
    expectIndexesIntact(store.db);
    store.close();
  });
});
