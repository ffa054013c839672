import { describe, expect, it } from 'vitest';
import { tempDb } from '../testing/tempHome.ts';
import { newStoredSessionId, withFreshSessionId } from './sessionIds.ts';
import { SessionStore } from './sessionStore.ts';

const tmpDb = () => tempDb('ids');

describe('stored session ids', () => {
  it('stay distinct over 20,000 ids drawn within the same second, and sort by time', () => {
    const second = new Date('2026-11-30T21:50:57.123Z');
    const ids = Array.from({ length: 20_000 }, () => newStoredSessionId(second));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids[0]).toMatch(/^20261130_215057_[0-9a-f]{12}$/);
    expect(newStoredSessionId(new Date('2026-11-30T21:50:58Z')) > ids[0]!).toBe(true);
  });

  it('draws a new id when the one drawn is already taken in the store', () => {
    const store = SessionStore.open(tmpDb());
    const tried: string[] = [];
    const created = withFreshSessionId(store, (id) => {
      // The first draw is taken meanwhile (as another process sharing state.db would).
      if (tried.length === 0) store.createSession({ id, title: 'someone else' });
      tried.push(id);
      return store.createSession({ id }).id;
    });
    expect(tried).toHaveLength(2);
    expect(created).toBe(tried[1]);
    expect(store.getSession(tried[0]!)?.title).toBe('someone else');
    store.close();
  });

  it('does not retry a failure that is not an id clash', () => {
    const store = SessionStore.open(tmpDb());
    store.createSession({ id: 'a', title: 'taken title' });
    let calls = 0;
    expect(() =>
      withFreshSessionId(store, (id) => {
        calls += 1;
        return store.createSession({ id, title: 'taken title' });
      }),
    ).toThrow(/already has the title/);
    expect(calls).toBe(1);
    store.close();
  });
});
