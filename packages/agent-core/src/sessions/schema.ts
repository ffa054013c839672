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
];

export const SCHEMA_VERSION = MIGRATIONS.length;
