import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { SearchPlan } from './messageSearch.ts';
import { MIGRATIONS, PREFIX_REBUILD_MAX_MESSAGES, SCHEMA_VERSION } from './schema.ts';
import { SessionStore, type NewMessage } from './sessionStore.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';
import { expectIndexesIntact } from '../testing/searchIndexes.ts';

/**
 * The query plan of a search at 1 M messages, at a size a test can fill: the plan ranks only the newest
 * `ranked` matches, so with `ranked` small a few thousand rows exercise what a million do in use.
 */
const SMALL: SearchPlan = { ranked: 40 };

const tmpDb = () => path.join(tempDir('hermes-search-plan-'), 'state.db');

/** `count` messages in sessions of 100, in one transaction; `make(i)` gives the i-th. */
function fill(store: SessionStore, count: number, make: (i: number) => NewMessage, prefix = 'old'): void {
  store.db.transaction(() => {
    for (let i = 0; i < count; i += 1) {
      const session = `${prefix}${Math.floor(i / 100)}`;
      if (i % 100 === 0) store.createSession({ id: session, title: `${prefix} work ${Math.floor(i / 100)}` });
      store.appendMessage(session, make(i));
    }
  })();
}

const ids = (hits: Array<{ messageId: number }>) => hits.map((h) => h.messageId);

describe('search relevance at bounded cost', () => {
  it('ranks an exact phrase above a passing mention, newer or not', () => {
    const store = SessionStore.open(tmpDb());
    store.createSession({ id: 's' });
    const phrase = store.appendMessage('s', { role: 'user', content: 'the database migration failed halfway' });
    const filler = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const passing = store.appendMessage('s', { role: 'assistant', content: `database ${filler} and later a migration ${filler}` });
    expect(ids(store.search('database migration', { plan: SMALL }))).toEqual([phrase, passing]);
    expect(ids(store.search('"database migration"', { plan: SMALL }))).toEqual([phrase]);
    store.close();
  });

  it('finds a recent hit first among thousands of older ones as relevant', () => {
    const store = SessionStore.open(tmpDb());
    fill(store, 3000, (i) => ({ role: 'assistant', content: `deploy the service to staging ${i}` }));
    store.createSession({ id: 'today' });
    const recent = store.appendMessage('today', { role: 'user', content: 'deploy the service to production' });

    const hits = store.search('deploy service', { plan: SMALL });
    expect(hits).toHaveLength(20);
    expect(hits[0]).toMatchObject({ messageId: recent, sessionId: 'today', role: 'user', snippet: '«deploy» the «service» to production' });
    // Ranked among the newest matches only: every other hit is one of the 39 newest old ones.
    expect(hits.slice(1).every((h) => h.messageId > recent - SMALL.ranked)).toBe(true);
    // The picker's filter, bounded the same way, still finds the old sessions with recent matches.
    expect(store.listSessions({ query: 'staging', limit: 3 }).map((s) => s.id)).toEqual(['old29', 'old28', 'old27']);
    store.close();
  });

  it('still finds a rare word wherever it is, and all of its matches', () => {
    const store = SessionStore.open(tmpDb());
    fill(store, 2000, (i) => ({ role: 'user', content: i === 5 || i === 1500 ? 'where is zanzibar' : `plain message ${i}` }));
    expect(ids(store.search('zanzibar', { plan: SMALL })).sort((a, b) => a - b)).toEqual([6, 1501]);
    store.close();
  });

  it('finds a match deep inside a long tool output, showing its start', () => {
    const store = SessionStore.open(tmpDb());
    store.createSession({ id: 's' });
    const long = `${'lorem ipsum '.repeat(1000)}the needle is here`;
    const id = store.appendMessage('s', { role: 'tool', content: long, toolName: 'terminal', toolCallId: 'c1' });
    const hits = store.search('needle', { plan: SMALL });
    expect(ids(hits)).toEqual([id]);
    expect(hits[0]!.snippet).toMatch(/^lorem ipsum lorem/);
    store.close();
  });
});

describe('each query kind over a store larger than the plan', () => {
  const store = SessionStore.open(tmpDb());
  const planted: Record<string, number> = {};
  fill(store, 1200, (i) => ({ role: i % 2 ? 'assistant' : 'user', content: `the file error ${i} in node server with v1.2.${i % 3 ? 4 : 5}` }));
  store.createSession({ id: 'new', title: '数据库 upgrade' });
  for (const [key, content] of Object.entries({
    prefix: 'the deployer finished',
    dotted: 'installed node.js v1.2.3 today',
    cjk: '我们需要一个数据库迁移方案',
    tool: 'ran the frobnicator',
  })) planted[key] = store.appendMessage('new', { role: 'user', content });

  it('common word: the newest matches, bounded by the plan', () => {
    const hits = store.search('error', { plan: SMALL, limit: 200 });
    expect(hits).toHaveLength(SMALL.ranked);
    expect(Math.min(...ids(hits))).toBeGreaterThan(1200 - SMALL.ranked);
  });

  it('prefix: one, two, three and more characters', () => {
    for (const query of ['d*', 'de*', 'dep*', 'deplo*']) expect(ids(store.search(query, { plan: SMALL })), query).toEqual([planted.prefix]);
    expect(store.search('deplo*', { plan: SMALL })[0]!.snippet).toBe('the «deployer» finished');
  });

  it('dotted: node.js and v1.2.3 as phrases, not their parts elsewhere', () => {
    expect(ids(store.search('v1.2.3', { plan: SMALL }))).toEqual([planted.dotted]);
    const node = store.search('node.js', { plan: SMALL });
    expect(ids(node)).toEqual([planted.dotted]);
    expect(node[0]!.snippet).toBe('installed «node.js» v1.2.3 today');
  });

  it('CJK: three characters through the trigram index, two through the scan', () => {
    expect(store.search('数据库', { plan: SMALL }).map((h) => h.snippet)).toEqual(['我们需要一个«数据库»迁移方案']);
    expect(store.search('迁移', { plan: SMALL }).map((h) => h.snippet)).toEqual(['我们需要一个数据库«迁移»方案']);
  });

  it('the picker filter: a title or a message', () => {
    expect(store.listSessions({ query: '数据库' }).map((s) => s.id)).toEqual(['new']);
    expect(store.listSessions({ query: 'frobnicator' }).map((s) => s.id)).toEqual(['new']);
    expect(store.listSessions({ query: 'old work 3' }).map((s) => s.id)).toEqual(['old3']);
  });
});

describe('migration 6 (prefix indexes)', () => {
  /** A version-5 store holding `count` messages, the first one about a rollback. */
  function version5Store(count: number): string {
    const file = tmpDb();
    const old = new Database(file);
    for (const migration of MIGRATIONS.slice(0, 5)) old.exec(migration);
    old.pragma('user_version = 5');
    old.prepare(`INSERT INTO sessions (id, started_at, last_active) VALUES ('s', 1, 1)`).run();
    old.prepare(`INSERT INTO messages (session_id, role, content, timestamp) VALUES ('s', 'user', 'rollback the deployment', 1)`).run();
    old.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO messages (session_id, role, content, timestamp) SELECT 's', 'assistant', 'ok', 1 FROM n`,
    ).run(count);
    old.close();
    return file;
  }
  const wordIndexSql = (store: SessionStore) => (store.db.prepare(`SELECT sql FROM sqlite_master WHERE name = 'messages_fts'`).get() as { sql: string }).sql;

  it('rebuilds the word index of a version-5 store with prefix indexes, which then serve prefixes', () => {
    const store = SessionStore.open(version5Store(10));
    expect(wordIndexSql(store)).toContain("prefix = '1 2 3 4'");
    expect(ids(store.search('ro*'))).toEqual([1]);
    expect(ids(store.search('deploymen*'))).toEqual([1]);
    expectIndexesIntact(store.db);
    store.close();
  });

  it('leaves the word index of a store too large to rebuild at start as it is; prefixes still work', () => {
    const store = SessionStore.open(version5Store(PREFIX_REBUILD_MAX_MESSAGES + 1));
    // A skipped migration still advances user_version.
    expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(wordIndexSql(store)).not.toContain('prefix');
    expect(ids(store.search('ro*'))).toEqual([1]);
    expectIndexesIntact(store.db);
    store.close();
  });
});
