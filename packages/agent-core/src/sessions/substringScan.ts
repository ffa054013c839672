import type Database from 'better-sqlite3';
import { likePattern } from './ftsQuery.ts';
import { INDEXED_ROW } from './schema.ts';

/**
 * How far a substring scan goes. Text shorter than a trigram (`的`, `迁移`, an emoji, `zz` when no word
 * matched) has no index to use: it is found by reading messages, newest first. Read to the end of a
 * large store that costs a second or more (a million messages; more where tool output is long), so a
 * scan reads the newest messages in slices of `slice` ids and stops once it has its hits or has
 * spent `budgetMs` (always after at least one slice). What it did not reach is reported
 * (`ScanResult.stoppedBefore`), and a caller that asks to search everything gets an unbounded scan.
 * The budget is time rather than rows because what a row costs to read depends on how long its
 * text is: 20,000 rows of half a kilobyte are read in ~15 ms, of 20 kB in ~180 ms.
 */
export interface ScanPlan {
  budgetMs: number;
  slice: number;
}

export const SCAN_PLAN: ScanPlan = { budgetMs: 8, slice: 512 };

/** Conditions on `m` (the messages table) beyond the terms, with their named parameters. */
export interface ScanFilter {
  sql: string;
  params: Record<string, string>;
  /** One session's messages only: the scan then reads the ids from its first message to its last, not the whole store's. */
  sessionId?: string;
}

export interface ScanResult {
  /** Matching message ids, newest first. */
  ids: number[];
  /** Set when the scan stopped at its budget: messages with an id below this one were not read. */
  stoppedBefore?: number;
}

/**
 * The newest (at most `limit`) messages whose content, tool name or tool calls contain every term. A
 * reply still streaming is left out, as the indexes leave it out (FTS_DESIGN): no search finds it.
 */
export function scanNewest(
  db: Database.Database,
  terms: readonly string[],
  filter: ScanFilter,
  limit: number,
  { plan = SCAN_PLAN, exhaustive = false }: { plan?: ScanPlan; exhaustive?: boolean } = {},
): ScanResult {
  // Two subqueries: SQLite answers a lone min() or max() from the end of a b-tree (the rowid's, or
  // messages_session's for one session), but both in one SELECT by reading every row.
  const within = filter.sessionId === undefined ? '' : ' WHERE session_id = @sessionId';
  const bounds = db
    .prepare(`SELECT (SELECT min(id) FROM messages${within}) AS low, (SELECT max(id) FROM messages${within}) AS high`)
    .get(filter.sessionId === undefined ? {} : { sessionId: filter.sessionId }) as { low: number | null; high: number | null };
  if (bounds.low === null || bounds.high === null || terms.length === 0) return { ids: [] };
  const conditions = terms
    .map((_, i) => `(m.content LIKE @t${i} ESCAPE '\\' OR m.tool_name LIKE @t${i} ESCAPE '\\' OR m.tool_calls LIKE @t${i} ESCAPE '\\')`)
    .join(' AND ');
  const slice = db.prepare(
    `SELECT m.id FROM messages AS m WHERE m.id > @below AND m.id <= @top AND ${conditions} AND ${INDEXED_ROW}${filter.sql}
     ORDER BY m.id DESC LIMIT @need`,
  );
  const patterns = Object.fromEntries(terms.map((t, i) => [`t${i}`, likePattern(t)]));
  const step = Math.max(1, Math.trunc(plan.slice));
  const started = performance.now();
  const ids: number[] = [];
  let top = bounds.high;
  while (top >= bounds.low && ids.length < limit) {
    const below = top - step;
    const rows = slice.all({ ...patterns, ...filter.params, below, top, need: limit - ids.length }) as Array<{ id: number }>;
    for (const row of rows) ids.push(row.id);
    top = below;
    if (!exhaustive && top >= bounds.low && ids.length < limit && performance.now() - started >= plan.budgetMs) return { ids, stoppedBefore: top + 1 };
  }
  return { ids };
}
