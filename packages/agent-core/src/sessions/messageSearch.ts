import type Database from 'better-sqlite3';
import {
  MARK_CLOSE,
  MARK_OPEN,
  charLength,
  markedExcerpt,
  needsSubstringSearch,
  oneLine,
  rankTerms,
  sanitizeFtsQuery,
  substringTerms,
  trigramQuery,
} from './ftsQuery.ts';
import { rankCandidates, type Candidate, type Needle } from './searchRanking.ts';
import type { MessageRole } from './sessionStore.ts';
import { SCAN_PLAN, scanNewest, type ScanFilter, type ScanPlan, type ScanResult } from './substringScan.ts';

/**
 * How much of the store one search looks at, so that its cost does not grow with the store. Tests
 * make it small to exercise the limit with a few thousand rows.
 */
export interface SearchPlan {
  /** bm25 ranks only the newest this many matches (and the picker's filter looks at their sessions). */
  ranked: number;
  /** How far a search for text shorter than a trigram reads (substringScan.ts). */
  scan?: ScanPlan;
}

const SEARCH_PLAN: SearchPlan = { ranked: 500, scan: SCAN_PLAN };
/** The picker filters as the user types, and also compares every title: half the scan's time. */
const PICKER_PLAN: SearchPlan = { ranked: 500, scan: { ...SCAN_PLAN, budgetMs: SCAN_PLAN.budgetMs / 2 } };

export interface SearchOptions {
  /** At most this many hits (default 20, capped at 200). */
  limit?: number;
  role?: MessageRole;
  sessionId?: string;
  plan?: SearchPlan;
  /** Read every message when looking for text shorter than a trigram, however long it takes (see substringScan.ts). */
  exhaustive?: boolean;
}

export interface SearchResult {
  hits: SearchHit[];
  /**
   * Epoch seconds, set when text shorter than a trigram was looked for only in the messages from this
   * time on (the scan's budget ran out before older ones): `exhaustive` reads them all.
   */
  searchedSince?: number;
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

/** Characters of a candidate read to rank it: tool output can be megabytes; its start is what it is about. */
const RANKED_CHARS = 1000;
/** Tokens of context in a snippet: words for unicode61, characters (trigrams) for trigram. */
const SNIPPET_TOKENS: Record<Index, number> = { messages_fts: 24, messages_trigram: 60 };

function filters(options: SearchOptions): ScanFilter {
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
  return { sql, params, ...(options.sessionId ? { sessionId: options.sessionId } : {}) };
}

/**
 * The ids of the newest `plan.ranked` matches of `match`, descending: FTS5 walks the doclists from their
 * newest end and stops at the LIMIT, so a common word costs what a rare one does. (A prefix query merges
 * the doclists of all its terms first, which is why the word index keeps prefix indexes for the short
 * prefixes that match many terms; see FTS_DESIGN.)
 */
function newestMatches(db: Database.Database, index: Index, match: string, options: SearchOptions): number[] {
  const { sql, params } = filters(options);
  const rows = db
    .prepare(
      `SELECT f.rowid AS id FROM ${index} AS f ${sql ? 'JOIN messages AS m ON m.id = f.rowid' : ''}
       WHERE ${index} MATCH @match${sql} ORDER BY f.rowid DESC LIMIT @limit`,
    )
    .all({ match, limit: (options.plan ?? SEARCH_PLAN).ranked, ...params }) as Array<{ id: number }>;
  return rows.map((r) => r.id);
}

/** Sum of the varints of an FTS5 docsize blob: the row's tokens over all columns. */
function docsize(blob: Buffer | null): number {
  let total = 0;
  let value = 0;
  let shift = 0;
  for (const byte of blob ?? []) {
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) {
      total += value;
      value = 0;
      shift = 0;
    }
  }
  return total;
}

interface CandidateRow extends Candidate {
  content: string | null;
  toolName: string | null;
  toolArgs: string | null;
}

/** The candidates' indexed columns (the start of very long ones: enough to rank by) and their length in the index. */
function candidateRows(db: Database.Database, index: Index, ids: number[]): CandidateRow[] {
  const rows = db
    .prepare(
      `SELECT m.id, substr(m.content, 1, ${RANKED_CHARS}) AS content, m.tool_name AS toolName, m.tool_args_text AS toolArgs, d.sz
       FROM messages AS m JOIN ${index}_docsize AS d ON d.id = m.id WHERE m.id IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(ids)) as Array<Omit<CandidateRow, 'text' | 'length'> & { sz: Buffer | null }>;
  return rows.map(({ sz, ...r }) => ({ ...r, text: [r.content, r.toolName, r.toolArgs].filter(Boolean).join(' '), length: docsize(sz) }));
}

/** Per index, scratch tables in the connection's temp schema holding only the kept hits, for snippet(). */
const SNIPPET_TABLE: Record<Index, { name: string; tokenize: string }> = {
  messages_fts: { name: 'search_snippets_words', tokenize: 'unicode61 remove_diacritics 2' },
  messages_trigram: { name: 'search_snippets_trigram', tokenize: 'trigram' },
};

/**
 * Snippets of the kept hits, by snippet() over a scratch FTS5 table holding just them, with the index's
 * tokenizer and the same query: one small query, where one on the index would cost a second full setup of
 * a prefix query (FTS5 merges every matching term's doclist) or a walk of a long doclist to a rowid. The
 * scratch index reads its text from a scratch table, so emptying it ('delete-all') tokenizes nothing.
 */
function snippets(db: Database.Database, index: Index, match: string, kept: CandidateRow[]): Map<number, string> {
  const { name, tokenize } = SNIPPET_TABLE[index];
  db.exec(
    `CREATE TABLE IF NOT EXISTS temp.${name}_text (id INTEGER PRIMARY KEY, content TEXT, tool_name TEXT, tool_args TEXT);
     CREATE VIRTUAL TABLE IF NOT EXISTS temp.${name} USING fts5(content, tool_name, tool_args,
       content = '${name}_text', content_rowid = 'id', tokenize = '${tokenize}');`,
  );
  const insert = db.prepare(`INSERT INTO temp.${name}_text (id, content, tool_name, tool_args) VALUES (?, ?, ?, ?)`);
  db.transaction(() => {
    db.exec(`INSERT INTO temp.${name} (${name}) VALUES ('delete-all'); DELETE FROM temp.${name}_text;`);
    for (const row of kept) insert.run(row.id, row.content, row.toolName, row.toolArgs);
    db.exec(`INSERT INTO temp.${name} (${name}) VALUES ('rebuild')`);
  })();
  const rows = db
    .prepare(
      `SELECT rowid AS id, snippet(${name}, -1, '${MARK_OPEN}', '${MARK_CLOSE}', '…', ${SNIPPET_TOKENS[index]}) AS text
       FROM temp.${name} WHERE ${name} MATCH ?`,
    )
    .all(match) as Array<{ id: number; text: string | null }>;
  return new Map(rows.map((r) => [r.id, oneLine(r.text ?? '')]));
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

/** The best `limit` of the newest matches by bm25 (searchRanking.ts), each with its snippet. */
function indexHits(db: Database.Database, index: Index, match: string, needles: Needle[], options: SearchOptions, limit: number): SearchHit[] {
  const candidates = new Map(candidateRows(db, index, newestMatches(db, index, match, options)).map((c) => [c.id, c]));
  const best = rankCandidates([...candidates.values()], needles).slice(0, limit);
  if (best.length === 0) return [];
  const texts = snippets(db, index, match, best.map((id) => candidates.get(id)!));
  const rows = hitRows(db, best);
  return best.flatMap((id) => {
    const row = rows.get(id);
    // No snippet when the match lies past what was read of a very long message: its start stands in.
    return row ? [{ ...row, snippet: texts.get(id) ?? markedExcerpt(candidates.get(id)!.text, []) }] : [];
  });
}

/** Substring search without an index, newest first, for terms shorter than a trigram: as far as the scan's budget reaches. */
function likeHits(db: Database.Database, terms: string[], options: SearchOptions, limit: number): { hits: SearchHit[]; scan: ScanResult } {
  const scan = scanNewest(db, terms, filters(options), limit, { plan: (options.plan ?? SEARCH_PLAN).scan, exhaustive: options.exhaustive });
  const rows = db
    .prepare(
      `SELECT m.id AS messageId, m.session_id AS sessionId, s.title, m.role, m.timestamp,
         m.content, m.tool_name AS toolName, m.tool_calls AS toolCalls
       FROM messages AS m JOIN sessions AS s ON s.id = m.session_id
       WHERE m.id IN (SELECT value FROM json_each(?)) ORDER BY m.id DESC`,
    )
    .all(JSON.stringify(scan.ids)) as Array<HitRow & { content: string | null; toolName: string | null; toolCalls: string | null }>;
  const lower = terms.map((t) => t.toLowerCase());
  const hits = rows.map(({ content, toolName, toolCalls, ...row }) => {
    const source = [content, toolCalls, toolName].find((text) => text && lower.some((t) => text.toLowerCase().includes(t)));
    return { ...row, snippet: markedExcerpt(source ?? content ?? '', terms) };
  });
  return { hits, scan };
}

/** The time of the oldest message a scan that stopped early read. */
function scannedSince(db: Database.Database, stoppedBefore: number): number | undefined {
  const row = db.prepare('SELECT timestamp FROM messages WHERE id >= ? ORDER BY id LIMIT 1').get(stoppedBefore) as { timestamp: number } | undefined;
  return row?.timestamp;
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
 * substring hits (trigram index, or a scan of the newest messages for terms under three characters)
 * are merged after them when the text is in a script written without spaces, or replace them when
 * the word search found nothing. Never throws on user text: every query goes through the sanitizer
 * or is bound as a LIKE pattern.
 */
export function searchWithCoverage(db: Database.Database, query: string, options: SearchOptions = {}): SearchResult {
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? 20) || 20, 1), 200);
  const hits = new Map<number, SearchHit>();
  const add = (list: SearchHit[]) => list.forEach((hit) => hits.has(hit.messageId) || hits.set(hit.messageId, hit));
  let searchedSince: number | undefined;

  const { words, terms, substring, always } = queryKinds(query);
  if (words) add(indexHits(db, 'messages_fts', words, rankTerms(query).map((t) => ({ kind: 'words', ...t })), options, limit));
  if (substring && hits.size < limit && (hits.size === 0 || always)) {
    const needles: Needle[] = terms.map((text) => ({ kind: 'substring', text }));
    if (substring === 'trigram') add(indexHits(db, 'messages_trigram', trigramQuery(terms), needles, options, limit));
    else {
      const scanned = likeHits(db, terms, options, limit);
      add(scanned.hits);
      if (scanned.scan.stoppedBefore !== undefined) searchedSince = scannedSince(db, scanned.scan.stoppedBefore);
    }
  }
  return { hits: [...hits.values()].slice(0, limit), ...(searchedSince !== undefined ? { searchedSince } : {}) };
}

/**
 * Ids of the sessions with a message among the newest `plan.ranked` matches of `query` (same rules
 * as searchWithCoverage): the session picker lists the most recently active sessions first, and those
 * hold the newest matches.
 */
export function sessionsWithHits(db: Database.Database, query: string, plan: SearchPlan = PICKER_PLAN): Set<string> {
  const ids = new Set<string>();
  const sessionsOf = (messageIds: number[]) =>
    (db.prepare('SELECT DISTINCT session_id AS id FROM messages WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(messageIds)) as Array<{ id: string }>).forEach(
      (r) => ids.add(r.id),
    );
  const inIndex = (index: Index, match: string) => sessionsOf(newestMatches(db, index, match, { plan }));

  const { words, terms, substring, always } = queryKinds(query);
  if (words) inIndex('messages_fts', words);
  if (substring && (ids.size === 0 || always)) {
    if (substring === 'trigram') inIndex('messages_trigram', trigramQuery(terms));
    // As far as the scan's budget reaches: the picker filters as the user types.
    else sessionsOf(scanNewest(db, terms, { sql: '', params: {} }, plan.ranked, { plan: plan.scan }).ids);
  }
  return ids;
}
