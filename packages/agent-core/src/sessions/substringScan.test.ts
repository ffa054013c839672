import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SearchPlan } from './messageSearch.ts';
import { SessionStore } from './sessionStore.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

/**
 * Text shorter than a trigram is found by reading messages newest first, within a time budget. A
 * budget of 0 ms reads exactly one slice, so these tests see where a scan of a large store stops
 * without depending on the machine's speed.
 */
const ONE_SLICE: SearchPlan = { ranked: 40, scan: { budgetMs: 0, slice: 100 } };

const store = SessionStore.open(path.join(tempDir('hermes-substring-scan-'), 'state.db'));
const at: Record<string, number> = {};
store.db.transaction(() => {
  store.createSession({ id: 'early', title: 'the first session' });
  at.early = store.appendMessage('early', { role: 'user', content: 'αξξβ, a made-up Greek word' });
  store.createSession({ id: 'old', title: 'old work' });
  at.oldUser = store.appendMessage('old', { role: 'user', content: '旧的迁移计划 and a pizza' });
  at.oldAssistant = store.appendMessage('old', { role: 'assistant', content: '已完成迁移 😀' });
  for (let i = 0; i < 1000; i += 1) store.appendMessage('old', { role: i % 2 ? 'assistant' : 'user', content: `plain words ${i}` });
  store.createSession({ id: 'new', title: 'new work' });
  at.recent = store.appendMessage('new', { role: 'user', content: '新的方案' });
})();
// A message's time is its id, so where a scan stopped reads as a time.
store.db.exec('UPDATE messages SET timestamp = id');
const newest = at.recent!;
afterAll(() => store.close());

const ids = (hits: Array<{ messageId: number }>) => hits.map((h) => h.messageId);

describe('a scan for text shorter than a trigram', () => {
  it('finds a recent match in the first slice, and says how far back it read', () => {
    const result = store.searchWithCoverage('方案', { plan: ONE_SLICE });
    expect(ids(result.hits)).toEqual([at.recent]);
    expect(result.hits[0]!.snippet).toBe('新的«方案»');
    // One slice of 100 ids: the newest 100 messages were read, the older ones were not.
    expect(result.searchedSince).toBe(newest - 99);
  });

  it('stops at its budget before old matches, and reads every message when asked to', () => {
    const bounded = store.searchWithCoverage('迁移', { plan: ONE_SLICE });
    expect(bounded.hits).toEqual([]);
    expect(bounded.searchedSince).toBe(newest - 99);
    const all = store.searchWithCoverage('迁移', { plan: ONE_SLICE, exhaustive: true });
    expect(ids(all.hits)).toEqual([at.oldAssistant, at.oldUser]);
    expect(all.searchedSince).toBeUndefined();
  });

  it('covers the same kinds of short text: a single character, an emoji, a word part when no word matched', () => {
    for (const [query, expected] of [
      ['的', [at.recent, at.oldUser]],
      ['😀', [at.oldAssistant]],
      ['zz', [at.oldUser]],
    ] as const) {
      expect(store.searchWithCoverage(query, { plan: ONE_SLICE }).searchedSince, query).toBe(newest - 99);
      expect(ids(store.searchWithCoverage(query, { plan: ONE_SLICE, exhaustive: true }).hits), query).toEqual(expected);
    }
    expect(store.searchWithCoverage('zz', { plan: ONE_SLICE, exhaustive: true }).hits[0]!.snippet).toBe('旧的迁移计划 and a pi«zz»a');
  });

  it('keeps its filters across slices', () => {
    expect(ids(store.searchWithCoverage('迁移', { plan: ONE_SLICE, exhaustive: true, role: 'user' }).hits)).toEqual([at.oldUser]);
    expect(ids(store.searchWithCoverage('的', { plan: ONE_SLICE, exhaustive: true, sessionId: 'old' }).hits)).toEqual([at.oldUser]);
  });

  it('reads one session from its own newest message', () => {
    expect(store.searchWithCoverage('ξξ', { plan: ONE_SLICE }).hits).toEqual([]);
    const inSession = store.searchWithCoverage('ξξ', { plan: ONE_SLICE, sessionId: 'early' });
    expect(ids(inSession.hits)).toEqual([at.early]);
    expect(inSession.searchedSince).toBeUndefined();
  });

  it('stops as soon as it has its hits, and reports nothing missing once it has read the whole store', () => {
    // "plain words" is in 1,000 messages: the first slice holds more than the limit.
    const common = store.searchWithCoverage('pl', { plan: ONE_SLICE, limit: 5 });
    expect(common.hits).toHaveLength(5);
    expect(common.searchedSince).toBeUndefined();
    // A slice larger than the store reads all of it, however little budget is left.
    const whole = store.searchWithCoverage('迁移', { plan: { ranked: 40, scan: { budgetMs: 0, slice: 2000 } } });
    expect(ids(whole.hits)).toEqual([at.oldAssistant, at.oldUser]);
    expect(whole.searchedSince).toBeUndefined();
  });
});
