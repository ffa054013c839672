import type Database from 'better-sqlite3';
import { oneLine } from './ftsQuery.ts';
import { sessionsWithHits } from './messageSearch.ts';
import type { StoredSession } from './sessionStore.ts';

/** One row of the session picker / `/sessions`. */
export interface SessionSummary {
  id: string;
  title: string | null;
  /** The first user message on one line, at most 80 characters ('' when there is none). */
  preview: string;
  started_at: number;
  last_active: number;
  message_count: number;
  source: string;
  model: string | null;
  parent_session_id: string | null;
}

export interface ListOptions {
  /** At most this many sessions (default 50). */
  limit?: number;
  /** Keeps sessions whose title contains it (any case) or with a message matching it. */
  query?: string;
  /** Sessions opened and left without a message or a title are skipped unless this is set. */
  includeEmpty?: boolean;
}

const PREVIEW_CHARS = 80;

function preview(text: string | null): string {
  const line = oneLine(text ?? '');
  const chars = [...line];
  return chars.length <= PREVIEW_CHARS ? line : `${chars.slice(0, PREVIEW_CHARS - 1).join('')}…`;
}

const whereOf = (conditions: string[]) => (conditions.length ? `WHERE ${conditions.join(' AND ')}` : '');

/** Sessions, most recently active first. */
export function listSessions(db: Database.Database, options: ListOptions = {}): SessionSummary[] {
  const limit = Math.max(1, Math.trunc(options.limit ?? 50) || 50);
  const query = options.query?.trim();
  const conditions: string[] = options.includeEmpty ? [] : ['(s.message_count > 0 OR s.title IS NOT NULL)'];
  const params: unknown[] = [];
  if (query) {
    // Titles are compared in JS: SQLite's lower() and LIKE fold ASCII only. Sessions are walked newest
    // first and the walk stops at `limit` kept, so a filter many sessions pass reads only a few.
    const needle = query.toLowerCase();
    const hits = sessionsWithHits(db, query);
    const kept: string[] = [];
    const walk = db.prepare(`SELECT id, title FROM sessions AS s ${whereOf(conditions)} ORDER BY s.last_active DESC, s.rowid DESC`);
    for (const row of walk.iterate() as IterableIterator<{ id: string; title: string | null }>) {
      if (!hits.has(row.id) && !row.title?.toLowerCase().includes(needle)) continue;
      kept.push(row.id);
      if (kept.length >= limit) break;
    }
    conditions.push('s.id IN (SELECT value FROM json_each(?))');
    params.push(JSON.stringify(kept));
  }
  const where = whereOf(conditions);
  // The preview is looked up for the kept rows only: in the same SELECT as the ORDER BY it would be
  // computed for every session the filter keeps before sorting (tens of ms with thousands of them).
  const rows = db
    .prepare(
      `SELECT s.*, (SELECT substr(m.content, 1, 400) FROM messages AS m WHERE m.session_id = s.id AND m.role = 'user'
          ORDER BY m.id LIMIT 1) AS first_user
       FROM (SELECT s.id, s.title, s.started_at, s.last_active, s.message_count, s.source, s.model, s.parent_session_id
             FROM sessions AS s ${where} ORDER BY s.last_active DESC, s.rowid DESC LIMIT ?) AS s
       ORDER BY s.last_active DESC`,
    )
    .all(...params, limit) as Array<Omit<SessionSummary, 'preview'> & { first_user: string | null }>;
  return rows.map(({ first_user, ...row }) => ({ ...row, preview: preview(first_user) }));
}

/** The session with this exact id, else this exact title, else the one whose id starts with it. */
export function findSession(db: Database.Database, idOrTitle: string): StoredSession | undefined {
  const key = idOrTitle?.trim();
  if (!key) return undefined;
  const exact = db.prepare('SELECT * FROM sessions WHERE id = ?').get(key) ?? db.prepare('SELECT * FROM sessions WHERE title = ?').get(key);
  if (exact) return exact as StoredSession;
  const byPrefix = db.prepare('SELECT * FROM sessions WHERE substr(id, 1, length(@key)) = @key LIMIT 2').all({ key }) as StoredSession[];
  return byPrefix.length === 1 ? byPrefix[0] : undefined;
}
