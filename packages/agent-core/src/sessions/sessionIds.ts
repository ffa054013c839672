import crypto from 'node:crypto';
import type { SessionStore } from './sessionStore.ts';

/**
 * A stored session id: `YYYYMMDD_HHMMSS_` (UTC, so ids sort by time) and 48 random bits. Three
 * random bytes clashed once in 20,000 creates within a few seconds; 48 bits make a clash among a
 * million ids in one second about 1 in 500, and `withFreshSessionId` retries that one.
 */
export function newStoredSessionId(date = new Date()): string {
  const stamp = date.toISOString().replace(/[-:]/g, '').replace('T', '_').slice(0, 15);
  return `${stamp}_${crypto.randomBytes(6).toString('hex')}`;
}

/** Draws allowed per new session: more than one clash in a row means something else is wrong. */
const ID_ATTEMPTS = 5;

/**
 * Runs `insert` with a fresh stored-session id; when it fails because that id is taken (by another
 * process sharing state.db, or plain bad luck) it draws again. Any other failure is thrown as is.
 */
export function withFreshSessionId<T>(store: Pick<SessionStore, 'getSession'>, insert: (id: string) => T): T {
  for (let attempt = 1; ; attempt += 1) {
    const id = newStoredSessionId();
    try {
      return insert(id);
    } catch (error) {
      if (attempt >= ID_ATTEMPTS || !store.getSession(id)) throw error;
    }
  }
}
