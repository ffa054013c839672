import type Database from 'better-sqlite3';
import {
  MARK_CLOSE,
  MARK_OPEN,
  charLength,
  likePattern,
  markedExcerpt,
  needsSubstringSearch,
  oneLine,
  sanitizeFtsQuery,
  substringTerms,
  trigramQuery,
} from './ftsQuery.ts';
import type { MessageRole } from './sessionStore.ts';

/**
 * How much of the store one search looks at, so that its cost does not grow with the store. Tests
 * make it small to exercise the limit with a few thousand rows.
 */
export interface SearchPlan {
  /** bm25 ranks only the newest this many matches (and the picker's filter looks at their sessions). */
  ranked: number;
}

export const SEARCH_PLAN: SearchPlan = { ranked: 1000 };

export interface SearchOptions {
  /** At most this many hits (default 20, capped at 200). */
  limit?: number;
  role?: MessageRole;
  sessionId?: string;
  plan?: SearchPlan;
}

export interface SearchHit {
  sessionId: string;
  title: string | null;
  role: MessageRole;
  /** One line of the message around the match, the match marked «like this». */
  snippet: string;
  /** Epoch seconds. */
  timestamp: number;
  messageId: number;
}

type HitRow = Omit<SearchHit, 'snippet'>;

type Index = 'messages_fts' | 'messages_trigram';

/** Tokens of context in a snippet: words for unicode61, characters (trigrams) for trigram. */
const SNIPPET_TOKENS: Record<Index, number> = { messages_fts: 24, messages_trigram: 60 };

function filters(options: SearchOptions): { sql: string; params: Record<string, string> } {
  const params: Record<string, string> = {};
  let sql = '';
  if (options.role) {
    sql += ' AND m.role = @role';
    params.role = options.role;
  }
  if (options.sessionId) {
    sql += ' AND m.session_id = @sessionId';
    params.sessionId = options.sessionId;
  }
  return { sql, params };
}

interface Match {
  id: number;
  /** bm25: lower is better. */
  score: number;
}

/**
 * The newest `plan.ranked` matches of `match` (ids descending), with their bm25 score when `scored`:
 * FTS5 walks the doclists from their newest end and stops at the LIMIT, so a common word costs what a
 * rare one does. (A prefix query merges the doclists of all its terms first, which is why the word
 * index keeps prefix indexes for the short prefixes that match many terms; see FTS_DESIGN.)
 */
function newestMatches(db: Database.Database, index: Index, match: string, options: SearchOptions, scored: boolean): Match[] {
  const { sql, params } = filters(options);
  return db
    .prepare(
      `SELECT f.rowid AS id${scored ? `, bm25(${index}) AS score` : ''} FROM ${index} AS f
       ${sql ? 'JOIN messages AS m ON m.id = f.rowid' : ''}
       WHERE ${index} MATCH @match${sql} ORDER BY f.rowid DESC LIMIT @limit`,
    )
    .all({ match, limit: (options.plan ?? SEARCH_PLAN).ranked, ...params }) as Match[];
}

/** Snippets of the few kept ids, in one pass over their id range (a MATCH per id would redo a prefix query's setup each time). */
function snippets(db: Database.Database, index: Index, match: string, ids: number[]): Map<number, string> {
  const rows = db
    .prepare(
      `SELECT rowid AS id, CASE WHEN rowid IN (SELECT value FROM json_each(@ids))
         THEN snippet(${index}, -1, '${MARK_OPEN}', '${MARK_CLOSE}', '…', ${SNIPPET_TOKENS[index]}) END AS text
       FROM ${index} WHERE ${index} MATCH @match AND rowid BETWEEN @low AND @high`,
    )
    .all({ match, ids: JSON.stringify(ids), low: Math.min(...ids), high: Math.max(...ids) }) as Array<{ id: number; text: string | null }>;
  return new Map(rows.filter((r) => r.text !== null).map((r) => [r.id, oneLine(r.text!)]));
}

function hitRows(db: Database.Database, ids: number[]): Map<number, HitRow> {
  const rows = db
    .prepare(
      `SELECT m.id AS messageId, m.session_id AS sessionId, s.title, m.role, m.timestamp
       FROM messages AS m JOIN sessions AS s ON s.id = m.session_id WHERE m.id IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(ids)) as HitRow[];
  return new Map(rows.map((r) => [r.messageId, r]));
}

/** The best `limit` of the newest matches by bm25 (ties: newer first), each with its snippet. */
function indexHits(db: Database.Database, index: Index, match: string, options: SearchOptions, limit: number): SearchHit[] {
  const best = newestMatches(db, index, match, options, true)
    .sort((a, b) => a.score - b.score || b.id - a.id)
    .slice(0, limit)
    .map((m) => m.id);
  if (best.length === 0) return [];
  const texts = snippets(db, index, match, best);
  const rows = hitRows(db, best);
  return best.flatMap((id) => {
    const row = rows.get(id);
    return row ? [{ ...row, snippet: texts.get(id) ?? '' }] : [];
  });
}

/** Substring search without an index, newest first: for terms shorter than a trigram. */
function likeHits(db: Database.Database, terms: string[], options: SearchOptions, limit: number): SearchHit[] {
  const { sql, params } = filters(options);
  const conditions = terms
    .map((_, i) => `(m.content LIKE @t${i} ESCAPE '\\' OR m.tool_name LIKE @t${i} ESCAPE '\\' OR m.tool_calls LIKE @t${i} ESCAPE '\\')`)
    .join(' AND ');
  const likeParams = Object.fromEntries(terms.map((t, i) => [`t${i}`, likePattern(t)]));
  const rows = db
    .prepare(
      `SELECT m.id AS messageId, m.session_id AS sessionId, s.title, m.role, m.timestamp,
         m.content, m.tool_name AS toolName, m.tool_calls AS toolCalls
       FROM messages AS m JOIN sessions AS s ON s.id = m.session_id
       WHERE ${conditions}${sql} ORDER BY m.id DESC LIMIT @limit`,
    )
    .all({ ...likeParams, ...params, limit }) as Array<HitRow & { content: string | null; toolName: string | null; toolCalls: string | null }>;
  return rows.map(({ content, toolName, toolCalls, ...row }) => {
    const lower = terms.map((t) => t.toLowerCase());
    const source = [content, toolCalls, toolName].find((text) => text && lower.some((t) => text.toLowerCase().includes(t)));
    return { ...row, snippet: markedExcerpt(source ?? content ?? '', terms) };
  });
}

/** The queries a search runs, by the same rules for messages and for sessions. */
function queryKinds(query: string): { words: string | null; terms: string[]; substring: 'trigram' | 'scan' | null; always: boolean } {
  const terms = substringTerms(query);
  const substring = terms.length === 0 ? null : terms.every((t) => charLength(t) >= 3) ? 'trigram' : 'scan';
  return { words: sanitizeFtsQuery(query), terms, substring, always: needsSubstringSearch(query) };
}

/**
 * Searches stored messages. Word hits come first, ranked by bm25 among the newest `plan.ranked`
 * matches (so the cost is bounded and a recent mention is not buried under years of older ones);
 * substring hits (trigram index, or a scan for terms under three characters) are merged after them
 * when the text is in a script written without spaces, or replace them when the word search found
 * nothing. Never throws on user text: every query goes through the sanitizer or is bound as a LIKE pattern.
 */
export function searchMessages(db: Database.Database, query: string, options: SearchOptions = {}): SearchHit[] {
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? 20) || 20, 1), 200);
  const hits = new Map<number, SearchHit>();
  const add = (list: SearchHit[]) => list.forEach((hit) => hits.has(hit.messageId) || hits.set(hit.messageId, hit));

  const { words, terms, substring, always } = queryKinds(query);
  if (words) add(indexHits(db, 'messages_fts', words, options, limit));
  if (substring && hits.size < limit && (hits.size === 0 || always)) {
    if (substring === 'trigram') add(indexHits(db, 'messages_trigram', trigramQuery(terms), options, limit));
    else add(likeHits(db, terms, options, limit));
  }
  return [...hits.values()].slice(0, limit);
}

/**
 * Ids of the sessions with a message among the newest `plan.ranked` matches of `query` (same rules
 * as searchMessages): the session picker lists the most recently active sessions first, and those
 * hold the newest matches.
 */
export function sessionsWithHits(db: Database.Database, query: string, plan: SearchPlan = SEARCH_PLAN): Set<string> {
  const ids = new Set<string>();
  const sessionsOf = (messageIds: number[]) =>
    (db.prepare('SELECT DISTINCT session_id AS id FROM messages WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(messageIds)) as Array<{ id: string }>).forEach(
      (r) => ids.add(r.id),
    );
  const inIndex = (index: Index, match: string) => sessionsOf(newestMatches(db, index, match, { plan }, false).map((m) => m.id));

  const { words, terms, substring, always } = queryKinds(query);
  if (words) inIndex('messages_fts', words);
  if (substring && (ids.size === 0 || always)) {
    if (substring === 'trigram') inIndex('messages_trigram', trigramQuery(terms));
    else {
      const conditions = terms.map(() => `(content LIKE ? ESCAPE '\\' OR tool_name LIKE ? ESCAPE '\\' OR tool_calls LIKE ? ESCAPE '\\')`);
      const rows = db
        .prepare(`SELECT id FROM messages WHERE ${conditions.join(' AND ')} ORDER BY id DESC LIMIT ?`)
        .all(...terms.flatMap((t) => Array(3).fill(likePattern(t))), plan.ranked) as Array<{ id: number }>;
      sessionsOf(rows.map((r) => r.id));
    }
  }
  return ids;
}
