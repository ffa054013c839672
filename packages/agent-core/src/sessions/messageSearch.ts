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

export interface SearchOptions {
  /** At most this many hits (default 20, capped at 200). */
  limit?: number;
  role?: MessageRole;
  sessionId?: string;
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

interface HitRow {
  messageId: number;
  sessionId: string;
  title: string | null;
  role: MessageRole;
  timestamp: number;
}

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

/**
 * Message ids matching `match` in one index, best bm25 first. Snippets are made afterwards for the
 * few ids kept: in one query SQLite would build a snippet for every match before sorting.
 */
function rankedIds(db: Database.Database, index: Index, match: string, options: SearchOptions, limit: number): number[] {
  const { sql, params } = filters(options);
  const rows = sql
    ? db
        .prepare(
          `SELECT f.rowid AS id FROM ${index} AS f JOIN messages AS m ON m.id = f.rowid
           WHERE ${index} MATCH @match${sql} ORDER BY f.rank LIMIT @limit`,
        )
        .all({ match, limit, ...params })
    : db.prepare(`SELECT rowid AS id FROM ${index} WHERE ${index} MATCH @match ORDER BY rank LIMIT @limit`).all({ match, limit });
  return (rows as Array<{ id: number }>).map((r) => r.id);
}

function hitRow(db: Database.Database, id: number): HitRow | undefined {
  return db
    .prepare(
      `SELECT m.id AS messageId, m.session_id AS sessionId, s.title, m.role, m.timestamp
       FROM messages AS m JOIN sessions AS s ON s.id = m.session_id WHERE m.id = ?`,
    )
    .get(id) as HitRow | undefined;
}

function indexHits(db: Database.Database, index: Index, match: string, options: SearchOptions, limit: number): SearchHit[] {
  const snippet = db.prepare(
    `SELECT snippet(${index}, -1, '${MARK_OPEN}', '${MARK_CLOSE}', '…', ${SNIPPET_TOKENS[index]}) AS text
     FROM ${index} WHERE ${index} MATCH ? AND rowid = ?`,
  );
  const hits: SearchHit[] = [];
  for (const id of rankedIds(db, index, match, options, limit)) {
    const row = hitRow(db, id);
    const text = (snippet.get(match, id) as { text: string | null } | undefined)?.text ?? '';
    if (row) hits.push({ ...row, snippet: oneLine(text) });
  }
  return hits;
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

/**
 * Searches stored messages. Word hits come first, ranked by bm25; substring hits (trigram index,
 * or a scan for terms under three characters) are merged after them when the text is in a script
 * written without spaces, or replace them when the word search found nothing. Never throws on
 * user text: every query goes through the sanitizer or is bound as a LIKE pattern.
 */
export function searchMessages(db: Database.Database, query: string, options: SearchOptions = {}): SearchHit[] {
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? 20) || 20, 1), 200);
  const hits = new Map<number, SearchHit>();
  const add = (list: SearchHit[]) => list.forEach((hit) => hits.has(hit.messageId) || hits.set(hit.messageId, hit));

  const words = sanitizeFtsQuery(query);
  if (words) add(indexHits(db, 'messages_fts', words, options, limit));
  const terms = substringTerms(query);
  if (terms.length > 0 && hits.size < limit && (hits.size === 0 || needsSubstringSearch(query))) {
    if (terms.every((t) => charLength(t) >= 3)) add(indexHits(db, 'messages_trigram', trigramQuery(terms), options, limit));
    else add(likeHits(db, terms, options, limit));
  }
  return [...hits.values()].slice(0, limit);
}

/** Ids of the sessions with at least one message matching `query` (same rules as searchMessages). */
export function sessionsWithHits(db: Database.Database, query: string): Set<string> {
  const ids = new Set<string>();
  const collect = (sql: string, params: unknown[]) =>
    (db.prepare(sql).all(...params) as Array<{ id: string }>).forEach((r) => ids.add(r.id));
  const inIndex = (index: Index) =>
    `SELECT DISTINCT m.session_id AS id FROM ${index} AS f JOIN messages AS m ON m.id = f.rowid WHERE ${index} MATCH ?`;

  const words = sanitizeFtsQuery(query);
  if (words) collect(inIndex('messages_fts'), [words]);
  const terms = substringTerms(query);
  if (terms.length > 0 && (ids.size === 0 || needsSubstringSearch(query))) {
    if (terms.every((t) => charLength(t) >= 3)) collect(inIndex('messages_trigram'), [trigramQuery(terms)]);
    else {
      const conditions = terms.map(() => `(content LIKE ? ESCAPE '\\' OR tool_name LIKE ? ESCAPE '\\' OR tool_calls LIKE ? ESCAPE '\\')`);
      collect(`SELECT DISTINCT session_id AS id FROM messages WHERE ${conditions.join(' AND ')}`, terms.flatMap((t) => Array(3).fill(likePattern(t))));
    }
  }
  return ids;
}
