import type Database from 'better-sqlite3';

/**
 * Migration 7's rule for what the search indexes hold (FTS_DESIGN), as SQL over the `messages` columns
 * prefixed by `column` (`''` in its views, `'m.'` in the substring scan, which must find what they do):
 * a row not streaming, or one older than the migration. Part of a shipped migration: a new rule is a new
 * migration with a rule of its own.
 */
function indexedRow(column: '' | 'm.'): string {
  return `(${column}status IS NOT 'streaming' OR ${column}id <= (SELECT streaming_after FROM index_rules))`;
}

/**
 * Migration 7's update triggers fire on these changes: any indexed column, and entering or leaving
 * 'streaming' (what the views leave out). Part of a shipped migration, as indexedRow.
 */
const REINDEXING_UPDATE = `UPDATE OF id, role, content, tool_name, tool_args_text, status ON messages
  WHEN old.id IS NOT new.id OR old.role IS NOT new.role OR old.content IS NOT new.content
    OR old.tool_name IS NOT new.tool_name OR old.tool_args_text IS NOT new.tool_args_text
    OR (old.status IS 'streaming') IS NOT (new.status IS 'streaming')`;

/**
 * The trigger bodies that keep both search indexes in step with `messages`: the row (`new`, `old`) as
 * its view gives it, added to or deleted from each index. Migrations 3 and 7 write their triggers with
 * them; as parts of shipped migrations, their text must not change (a new rule is a new migration).
 */
const INDEX_NEW_ROW = `    INSERT INTO messages_fts (rowid, content, tool_name, tool_args)
      SELECT id, content, tool_name, tool_args FROM messages_fts_src WHERE id = new.id;
    INSERT INTO messages_trigram (rowid, content, tool_name, tool_args)
      SELECT id, content, tool_name, tool_args FROM messages_trigram_src WHERE id = new.id;`;
const UNINDEX_OLD_ROW = `    INSERT INTO messages_fts (messages_fts, rowid, content, tool_name, tool_args)
      SELECT 'delete', id, content, tool_name, tool_args FROM messages_fts_src WHERE id = old.id;
    INSERT INTO messages_trigram (messages_trigram, rowid, content, tool_name, tool_args)
      SELECT 'delete', id, content, tool_name, tool_args FROM messages_trigram_src WHERE id = old.id;`;

/**
 * Forward-only migrations of state.db. Index i upgrades version i to i+1; `user_version` records
 * where a database stands. Never edit a shipped migration: append a new one.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    title TEXT,
    source TEXT NOT NULL DEFAULT 'tui',
    model TEXT,
    provider TEXT,
    cwd TEXT,
    parent_session_id TEXT REFERENCES sessions(id) ON DELETE SET NULL,
    started_at REAL NOT NULL,
    ended_at REAL,
    last_active REAL NOT NULL,
    message_count INTEGER NOT NULL DEFAULT 0,
    tool_call_count INTEGER NOT NULL DEFAULT 0,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    reasoning_tokens INTEGER NOT NULL DEFAULT 0,
    api_calls INTEGER NOT NULL DEFAULT 0,
    cost_usd REAL
  );
  CREATE UNIQUE INDEX sessions_title ON sessions(title) WHERE title IS NOT NULL;
  CREATE INDEX sessions_last_active ON sessions(last_active DESC);
  CREATE TABLE messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    role TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
    content TEXT,
    tool_calls TEXT,
    tool_name TEXT,
    tool_call_id TEXT,
    reasoning TEXT,
    status TEXT,
    token_count INTEGER,
    timestamp REAL NOT NULL
  );
  CREATE INDEX messages_session ON messages(session_id, id);
  `,
  // 2: the approval gate's decisions (asked or automatic), for audit and /history.
  `
  CREATE TABLE approval_decisions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    tool_name TEXT NOT NULL,
    command TEXT NOT NULL,
    pattern_key TEXT NOT NULL,
    choice TEXT NOT NULL,
    decided_at REAL NOT NULL
  );
  CREATE INDEX approval_decisions_session ON approval_decisions(session_id, id);
  `,
  // 3: full-text search over messages. See FTS_DESIGN below for why it is shaped this way.
  `
  ALTER TABLE messages ADD COLUMN tool_args_text TEXT;
  UPDATE messages SET tool_args_text = CASE WHEN NOT json_valid(tool_calls) THEN tool_calls ELSE (
    SELECT group_concat(part, ' ') FROM (
      SELECT json_extract(c.value, '$.function.name') AS part FROM json_each(messages.tool_calls) AS c
      UNION ALL
      SELECT t.value FROM json_each(messages.tool_calls) AS c,
        json_tree(CASE WHEN json_valid(json_extract(c.value, '$.function.arguments'))
          THEN json_extract(c.value, '$.function.arguments')
          ELSE json_quote(json_extract(c.value, '$.function.arguments')) END) AS t
      WHERE t.type IN ('text', 'integer', 'real')
    )
  ) END
  WHERE tool_calls IS NOT NULL;
  CREATE VIEW messages_fts_src AS
  SELECT id, content, tool_name, tool_args_text AS tool_args FROM messages;
  CREATE VIEW messages_trigram_src AS
  SELECT id, CASE WHEN role = 'tool' THEN substr(content, 1, 500) ELSE content END AS content, tool_name,
    tool_args_text AS tool_args
  FROM messages;
  CREATE VIRTUAL TABLE messages_fts USING fts5(content, tool_name, tool_args,
    content = 'messages_fts_src', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2');
  CREATE VIRTUAL TABLE messages_trigram USING fts5(content, tool_name, tool_args,
    content = 'messages_trigram_src', content_rowid = 'id', tokenize = 'trigram');

  CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
${INDEX_NEW_ROW}
  END;
  CREATE TRIGGER messages_fts_delete BEFORE DELETE ON messages BEGIN
${UNINDEX_OLD_ROW}
  END;
  CREATE TRIGGER messages_fts_update_old BEFORE UPDATE OF id, role, content, tool_name, tool_args_text ON messages
  WHEN old.id IS NOT new.id OR old.role IS NOT new.role OR old.content IS NOT new.content
    OR old.tool_name IS NOT new.tool_name OR old.tool_args_text IS NOT new.tool_args_text
  BEGIN
${UNINDEX_OLD_ROW}
  END;
  CREATE TRIGGER messages_fts_update_new AFTER UPDATE OF id, role, content, tool_name, tool_args_text ON messages
  WHEN old.id IS NOT new.id OR old.role IS NOT new.role OR old.content IS NOT new.content
    OR old.tool_name IS NOT new.tool_name OR old.tool_args_text IS NOT new.tool_args_text
  BEGIN
${INDEX_NEW_ROW}
  END;

  INSERT INTO messages_fts (messages_fts) VALUES ('rebuild');
  INSERT INTO messages_trigram (messages_trigram) VALUES ('rebuild');
  `,
  // 4: why a decision was taken, when smart approval's guardian had a say (its one-line reason).
  `
  ALTER TABLE approval_decisions ADD COLUMN reason TEXT;
  `,
  // 5: how a tool call ended, kept with its result so a resumed session shows what was seen live:
  // its duration (without the approval wait), the error, whether the gate blocked it, and its file diff.
  `
  ALTER TABLE messages ADD COLUMN duration_s REAL;
  ALTER TABLE messages ADD COLUMN tool_error TEXT;
  ALTER TABLE messages ADD COLUMN blocked INTEGER;
  ALTER TABLE messages ADD COLUMN inline_diff TEXT;
  `,
  // 6: prefix indexes on the word index, so `w1*` costs what a word does (FTS_DESIGN). FTS5 options
  // cannot be altered: the table is made again and rebuilt from the messages (the triggers name it, so
  // they follow). Skipped for large stores (MIGRATION_GUARDS).
  `
  DROP TABLE messages_fts;
  CREATE VIRTUAL TABLE messages_fts USING fts5(content, tool_name, tool_args,
    content = 'messages_fts_src', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3 4');
  INSERT INTO messages_fts (messages_fts) VALUES ('rebuild');
  `,
  // 7: a reply is indexed once it has finished, not at each rewrite while it streams (FTS_DESIGN). Rows
  // written before this migration keep the rule they were indexed under (indexed whatever their status):
  // finding the ones streaming now, to take them out, would read the whole table (7 s for 1 M messages
  // on a cold disk, before the backend is ready). `index_rules.streaming_after` is the last row id then;
  // the views leave out a row only past it. The update triggers also fire on entering or leaving
  // 'streaming'; their bodies, and the insert and delete triggers, read through the views as before.
  `
  CREATE TABLE index_rules (streaming_after INTEGER NOT NULL);
  INSERT INTO index_rules (streaming_after) SELECT coalesce(max(id), 0) FROM messages;

  DROP VIEW messages_fts_src;
  CREATE VIEW messages_fts_src AS
  SELECT id, content, tool_name, tool_args_text AS tool_args FROM messages WHERE ${indexedRow('')};
  DROP VIEW messages_trigram_src;
  CREATE VIEW messages_trigram_src AS
  SELECT id, CASE WHEN role = 'tool' THEN substr(content, 1, 500) ELSE content END AS content, tool_name,
    tool_args_text AS tool_args
  FROM messages WHERE ${indexedRow('')};

  DROP TRIGGER messages_fts_update_old;
  CREATE TRIGGER messages_fts_update_old BEFORE ${REINDEXING_UPDATE}
  BEGIN
${UNINDEX_OLD_ROW}
  END;
  DROP TRIGGER messages_fts_update_new;
  CREATE TRIGGER messages_fts_update_new AFTER ${REINDEXING_UPDATE}
  BEGIN
${INDEX_NEW_ROW}
  END;
  `,
];

/**
 * FTS_DESIGN (migrations 3 and 7).
 * - Two indexes. `messages_fts` (unicode61) ranks word queries with bm25 the way users expect
 *   (`cat` does not match `concatenate`, diacritics folded). `messages_trigram` finds any substring,
 *   which is the only way to find a word inside Chinese, Japanese or Korean text: unicode61 makes
 *   one token of a whole unspaced run. One trigram table alone would rank word queries by trigram
 *   overlap and match inside other words.
 * - External content over views, not contentless: snippet() needs the text, and the text already
 *   lives in `messages`, so it is not stored twice. The views are the one definition of what is
 *   indexed; triggers insert from them and delete through them *before* a row changes, so FTS5's
 *   'delete' receives exactly the values it indexed (a mismatch would corrupt the index).
 * - `messages.tool_args_text` holds the tool names and argument *values* of an assistant's tool
 *   calls, decoded from their JSON (a path or command is searchable; JSON keys, call ids and `\n`
 *   escapes are not indexed). It is a stored column, written by the store (toolCallSearchText), because
 *   FTS5 reads its content table with virtual tables disabled, so a view cannot use json_each; the
 *   migration back-fills it in SQL, where json_each is allowed.
 * - The trigram index keeps only the first 500 characters of tool results: they are mostly file
 *   contents and command output, large and mostly ASCII, already in the word index; a trigram index
 *   takes about 2.4 times the text it covers (scripts/bench/sessionStore.ts).
 * - A reply is indexed once it has finished (migration 7): the views leave out rows whose status is
 *   'streaming', and the update triggers also fire when a row enters or leaves that status. A streamed
 *   reply's row is rewritten every 250 ms with the whole reply so far (StreamingMessage); indexing each
 *   rewrite deleted and inserted all of it in both indexes again (192, 321 and 501 ms a rewrite for a 5 MB
 *   reply, ~45 % of the backend's CPU). The trade-off: no search finds a reply while it streams, nor one
 *   a crash left 'streaming' until its session is next loaded (sessionHeal marks it interrupted, which
 *   indexes it). The substring scan leaves such rows out as well (substringScan.ts, INDEXED_ROW).
 *   Rows older than the migration (`index_rules.streaming_after`) keep being indexed whatever their
 *   status, as they were: the migration then costs nothing at any size. Other status changes do not
 *   touch the indexes.
 *
 * Search at any size (migration 6; messageSearch.ts, searchRanking.ts).
 * - A search takes the newest SEARCH_PLAN.ranked matches: FTS5 reads doclists from their newest end and
 *   stops at the LIMIT, so a word in every message costs what a rare one does.
 * - They are ranked by bm25 computed over those candidates (searchRanking.ts), not by FTS5's bm25():
 *   that one first counts every row of the whole index holding each phrase, for its IDF (0.1 s for a
 *   common word at 1 M messages, whatever the LIMIT). Snippets come from snippet() over a scratch temp
 *   FTS5 table holding only the kept hits.
 * - A prefix query (`w1*`) would still be costly: FTS5 first merges the whole doclists of every term
 *   with that prefix, whatever the LIMIT or a rowid range (0.5 s at 1 M for a 2-character prefix).
 *   `prefix = '1 2 3 4'` stores the doclists of 1- to 4-character prefixes ready-made, for about a third
 *   more index. Longer prefixes are merged, which costs what their terms' doclists weigh (~10 ms at
 *   1 M when one of them is a word in most messages).
 * - Migration 6 rebuilds the word index (about 40 s of CPU for 1 M messages), so only for stores of up
 *   to PREFIX_REBUILD_MAX_MESSAGES; a new store has the prefix indexes from the start.
 */

export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Whether the `messages` row `m` is one the search indexes hold (migration 7's views): a search that
 * reads the table itself (the substring scan) finds what the indexes would.
 */
export const INDEXED_ROW = indexedRow('m.');

/**
 * Stores holding more messages keep their word index as it is (without prefix indexes; every query
 * still works, short prefixes cost more): rebuilding it takes about 40 s of CPU per million messages,
 * and it runs before the backend reports ready, which its client waits 15 s for.
 */
export const PREFIX_REBUILD_MAX_MESSAGES = 100_000;

/** Migrations (by index) that run only when their guard allows; skipped ones still advance user_version. */
export const MIGRATION_GUARDS: Readonly<Record<number, (db: Database.Database) => boolean>> = {
  5: (db) =>
    (db.prepare('SELECT count(*) AS n FROM (SELECT 1 FROM messages LIMIT ?)').get(PREFIX_REBUILD_MAX_MESSAGES + 1) as { n: number }).n <=
    PREFIX_REBUILD_MAX_MESSAGES,
};
