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

/** SQL function: whether a title, folded to lower case as JavaScript does, contains the (folded) needle. */
const TITLE_HAS = 'hermes_title_has';
const withTitleFunction = new WeakSet<Database.Database>();

function titleFunction(db: Database.Database): void {
  if (withTitleFunction.has(db)) return;
  db.function(TITLE_HAS, { deterministic: true }, (title: unknown, needle: unknown) => (typeof title === 'string' && title.toLowerCase().includes(String(needle)) ? 1 : 0));
  withTitleFunction.add(db);
}

/**
 * A LIKE pattern every title holding `needle` (already lower case) matches, in JavaScript's case
 * folding: ASCII and characters without case as they are (LIKE folds ASCII letters), and a wildcard
 * where LIKE would not fold as JavaScript does: a run for a letter with case outside ASCII (`Ä`, `ä`),
 * one character for `i` and `k` (JavaScript folds the dotted capital I and the Kelvin sign to them,
 * the only characters outside ASCII it folds into it).
 */
export function titlePrefilter(needle: string): string {
  let pattern = '%';
  let anyRun = true;
  for (const char of needle) {
    // U+0307, the combining dot JavaScript folds the dotted capital I into (`İ` → `i̇`), has no counterpart in the title.
    const literal = char !== '\u0307' && (char < '\u0080' || (char.toUpperCase() === char && char.toLowerCase() === char));
    if (char === 'i' || char === 'k') pattern += '_';
    else if (literal) pattern += char.replace(/[\\%_]/g, (c) => `\\${c}`);
    else if (!anyRun) pattern += '%';
    anyRun = !literal;
  }
  return anyRun ? pattern : `${pattern}%`;
}

const whereOf = (conditions: string[]) => (conditions.length ? `WHERE ${conditions.join(' AND ')}` : '');

/** Sessions, most recently active first. */
export function listSessions(db: Database.Database, options: ListOptions = {}): SessionSummary[] {
  const limit = Math.max(1, Math.trunc(options.limit ?? 50) || 50);
  const query = options.query?.trim();
  const conditions: string[] = options.includeEmpty ? [] : ['(s.message_count > 0 OR s.title IS NOT NULL)'];
  const params: unknown[] = [];
  if (query) {
    // A title is kept when it contains the query in any case, as JavaScript folds case: SQLite's lower()
    // and LIKE fold ASCII only, so the comparison is a function of this connection's. A LIKE comes
    // first (titlePrefilter), so the function is called only for the few titles that can match.
    // Sessions with a message among the newest matches are kept as well.
    titleFunction(db);
    const needle = query.toLowerCase();
    conditions.push(`(s.id IN (SELECT value FROM json_each(?)) OR (s.title LIKE ? ESCAPE '\\' AND ${TITLE_HAS}(s.title, ?)))`);
    params.push(JSON.stringify([...sessionsWithHits(db, query)]), titlePrefilter(needle), needle);
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
