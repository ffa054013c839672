import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { ApprovalDecision } from '../approvals/types.ts';
import type { ChatMessage, ToolCall } from '../providers/types.ts';
import { approvalDecisions, recordApproval } from './approvalDecisions.ts';
import { toolCallSearchText } from './indexedText.ts';
import { searchWithCoverage, type SearchHit, type SearchOptions, type SearchResult } from './messageSearch.ts';
import { MIGRATION_GUARDS, MIGRATIONS, SCHEMA_VERSION } from './schema.ts';
import { redactSecrets, redactSecretsDeep } from '../secrets/processSecrets.ts';
import { toolOutcome, toolOutcomeColumns, type ToolOutcome, type ToolOutcomeColumns } from './toolOutcome.ts';
import { branchSession, explainConstraint, undoLastTurn, updateMessage, type MessagePatch } from './sessionEdits.ts';
import { findSession, listSessions, type ListOptions, type SessionSummary } from './sessionList.ts';
import { makeDirs } from '../config/hermesHome.ts';
import { copyDatabase, deletedNotice, fileChange, identityOf, replacedError, type FileIdentity } from './storeFileCheck.ts';
import { explainStoreFailure, hermesDatabaseError, newerSchemaError, StoreError } from './storeError.ts';

export { StoreError };
export { explainStoreFailure, isDiskWriteFailure, type StoreProblem } from './storeError.ts';
export { sanitizeFtsQuery } from './ftsQuery.ts';
export type { ListOptions, MessagePatch, SearchHit, SearchOptions, SearchResult, SessionSummary };

export type MessageRole = 'system' | 'user' | 'assistant' | 'tool';
/** `streaming`: an assistant reply still being written (or whose run never finished); no search finds it. */
export type MessageStatus = 'complete' | 'interrupted' | 'error' | 'streaming';

export interface StoredSession {
  id: string;
  title: string | null;
  source: string;
  model: string | null;
  provider: string | null;
  cwd: string | null;
  parent_session_id: string | null;
  started_at: number;
  ended_at: number | null;
  last_active: number;
  message_count: number;
  tool_call_count: number;
  input_tokens: number;
  output_tokens: number;
  reasoning_tokens: number;
  api_calls: number;
  cost_usd: number | null;
}

export interface NewMessage {
  role: MessageRole;
  content: string | null;
  toolCalls?: ToolCall[];
  toolName?: string;
  toolCallId?: string;
  reasoning?: string;
  status?: MessageStatus;
  /** For role `tool`: how the call ended (what `tool.complete` said), kept so a resumed session shows it. */
  toolOutcome?: ToolOutcome;
}

export interface StoredMessage extends NewMessage {
  id: number;
  sessionId: string;
  timestamp: number;
}

interface MessageRow extends ToolOutcomeColumns {
  id: number;
  session_id: string;
  role: MessageRole;
  content: string | null;
  tool_calls: string | null;
  tool_name: string | null;
  tool_call_id: string | null;
  reasoning: string | null;
  status: MessageStatus | null;
  timestamp: number;
}

const now = () => Date.now() / 1000;

/** `$HERMES_HOME/state.db`: sessions and their messages, written before each next side effect. */
export class SessionStore {
  /** Writes the disk refused (a full disk), retried before the next append and at close; keyed by owner. */
  private readonly deferred = new Map<object, () => boolean>();
  private flushingDeferred = false;

  /** The file as opened; see keepFileInPlace. */
  private identity: FileIdentity | null;
  /** Where the sessions were saved once the file was found replaced. */
  private keptCopy: string | undefined;

  private constructor(private current: Database.Database) {
    this.identity = identityOf(current.name);
  }

  get db(): Database.Database {
    return this.current;
  }

  /** The database file. */
  get file(): string {
    return this.db.name;
  }

  /**
   * Checks that state.db is still the file this store writes to, before a turn stores anything. Deleted
   * (SQLite would go on writing to the deleted file, lost at exit): what this store holds is written
   * back to the path and used from then on, and a notice says so. Replaced by another file: the sessions
   * held here are saved beside it and a StoreError says how to go on; the new file is not touched.
   */
  keepFileInPlace(): string | null {
    const file = this.file;
    const change = fileChange(file, this.identity);
    if (change === 'same') return null;
    if (change === 'replaced') {
      if (!this.keptCopy) {
        const kept = `${file}.kept-${process.pid}`;
        copyDatabase(this.current, kept);
        this.keptCopy = kept;
      }
      throw replacedError(file, this.keptCopy);
    }
    this.flushDeferred();
    const restoring = `${file}.restoring-${process.pid}`;
    copyDatabase(this.current, restoring);
    // Closing first: it removes the old -wal/-shm, which the reopened file must not take for its own.
    this.current.close();
    fs.renameSync(restoring, file);
    this.current = SessionStore.open(file).current;
    this.identity = identityOf(file);
    return deletedNotice(file);
  }

  /** A failure of this store (e.g. SQLITE_FULL) as a StoreError naming the file and the fix. */
  explainFailure(error: unknown): StoreError {
    return explainStoreFailure(this.file, error);
  }

  /** Keeps a write that failed for lack of space; `retry` returns true once it went through. */
  deferWrite(owner: object, retry: () => boolean): void {
    this.deferred.set(owner, retry);
  }

  cancelDeferred(owner: object): void {
    this.deferred.delete(owner);
  }

  /** Retries deferred writes, oldest first, so that what was shown earlier is stored before what comes next. */
  private flushDeferred(): void {
    if (this.deferred.size === 0 || this.flushingDeferred) return;
    this.flushingDeferred = true;
    try {
      for (const [owner, retry] of [...this.deferred]) if (retry()) this.deferred.delete(owner);
    } finally {
      this.flushingDeferred = false;
    }
  }

  /** Opens (or creates) the database; a file that cannot be used throws a StoreError naming it and the fix. */
  static open(file: string): SessionStore {
    let db: Database.Database | undefined;
    try {
      makeDirs(path.dirname(file));
      const existed = fs.existsSync(file);
      db = new Database(file);
      if (!existed) fs.chmodSync(file, 0o600);
      // busy_timeout first: the WAL switch itself waits for a lock another process holds.
      db.pragma('busy_timeout = 5000');
      // Before any write (the WAL switch writes the header): a newer hermes's file is left untouched.
      refuseNewerSchema(db, file);
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      migrate(db, file);
    } catch (error) {
      // Explained before closing: closing may remove the -wal file the fix has to mention.
      const explained = explainStoreFailure(file, error);
      db?.close();
      throw explained;
    }
    return new SessionStore(db);
  }

  createSession(input: {
    id: string;
    source?: string;
    model?: string;
    provider?: string;
    cwd?: string;
    title?: string | null;
    parentId?: string | null;
  }): StoredSession {
    const t = now();
    try {
      this.db
        .prepare(
          `INSERT INTO sessions (id, title, source, model, provider, cwd, parent_session_id, started_at, last_active)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(input.id, input.title ? redactSecrets(input.title) : null, input.source ?? 'tui', input.model ?? null, input.provider ?? null, input.cwd ?? null, input.parentId ?? null, t, t);
    } catch (error) {
      throw explainConstraint(error, { id: input.id, title: input.title });
    }
    return this.getSession(input.id)!;
  }

  getSession(id: string): StoredSession | undefined {
    return this.db.prepare('SELECT * FROM sessions WHERE id = ?').get(id) as StoredSession | undefined;
  }

  /** Appends a message and bumps the session's counters in one transaction; returns the row id. */
  appendMessage(sessionId: string, input: NewMessage): number {
    this.flushDeferred();
    // Whatever wrote it (a reply streamed by the model, a key the user pasted, a tool call's arguments),
    // state.db never holds a secret.
    const message = redactSecretsDeep(input);
    const insert = this.db.prepare(
      `INSERT INTO messages (session_id, role, content, tool_calls, tool_args_text, tool_name, tool_call_id, reasoning, status, timestamp,
         duration_s, tool_error, blocked, inline_diff)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const bump = this.db.prepare(
      `UPDATE sessions SET message_count = message_count + 1, tool_call_count = tool_call_count + ?, last_active = ?
       WHERE id = ?`,
    );
    const tx = this.db.transaction(() => {
      const t = now();
      const info = insert.run(
        sessionId,
        message.role,
        message.content,
        message.toolCalls?.length ? JSON.stringify(message.toolCalls) : null,
        toolCallSearchText(message.toolCalls),
        message.toolName ?? null,
        message.toolCallId ?? null,
        message.reasoning || null,
        message.status ?? null,
        t,
        ...toolOutcomeColumns(message.toolOutcome),
      );
      const changed = bump.run(message.toolCalls?.length ?? 0, t, sessionId).changes;
      if (changed === 0) throw new StoreError(`Session ${sessionId} does not exist`);
      return Number(info.lastInsertRowid);
    });
    return tx();
  }

  messages(sessionId: string): StoredMessage[] {
    return (this.db.prepare('SELECT * FROM messages WHERE session_id = ? ORDER BY id').all(sessionId) as MessageRow[]).map(fromRow);
  }

  /** Messages `offset` to `offset + limit - 1`, oldest first (0 is the first): a long session read in pages. */
  messagePage(sessionId: string, offset: number, limit: number): StoredMessage[] {
    const rows = this.db.prepare('SELECT * FROM messages WHERE session_id = ? ORDER BY id LIMIT ? OFFSET ?').all(sessionId, limit, offset) as MessageRow[];
    return rows.map(fromRow);
  }

  /** The last `limit` messages, oldest first: a resume shows a long session's end without reading the rest. */
  lastMessages(sessionId: string, limit: number): StoredMessage[] {
    const rows = this.db.prepare('SELECT * FROM messages WHERE session_id = ? ORDER BY id DESC LIMIT ?').all(sessionId, limit) as MessageRow[];
    return rows.reverse().map(fromRow);
  }

  /** The last message that is not a tool result, and the tool results after it (what a repair looks at). */
  lastExchange(sessionId: string): StoredMessage[] {
    const rows = this.db
      .prepare("SELECT * FROM messages WHERE session_id = ? AND id >= (SELECT id FROM messages WHERE session_id = ? AND role != 'tool' ORDER BY id DESC LIMIT 1) ORDER BY id")
      .all(sessionId, sessionId) as MessageRow[];
    return rows.map(fromRow);
  }

  /** Row ids of replies still marked `streaming` among the last `within` messages (their content is not read). */
  streamingMessageIds(sessionId: string, within: number): number[] {
    return this.db
      .prepare("SELECT id FROM (SELECT id, status FROM messages WHERE session_id = ? ORDER BY id DESC LIMIT ?) WHERE status = 'streaming' ORDER BY id")
      .pluck()
      .all(sessionId, within) as number[];
  }

  messageCount(sessionId: string): number {
    return this.db.prepare('SELECT count(*) FROM messages WHERE session_id = ?').pluck().get(sessionId) as number;
  }

  /** Adds one API call's tokens; `costUsd`, when the price is known, adds to the session's cost. */
  addUsage(sessionId: string, usage: { input: number; output: number; reasoning: number; costUsd?: number }): void {
    const cost = usage.costUsd ?? null;
    this.db
      .prepare(
        `UPDATE sessions SET input_tokens = input_tokens + ?, output_tokens = output_tokens + ?,
           reasoning_tokens = reasoning_tokens + ?, api_calls = api_calls + 1,
           cost_usd = CASE WHEN ? IS NULL THEN cost_usd ELSE COALESCE(cost_usd, 0) + ? END WHERE id = ?`,
      )
      .run(usage.input, usage.output, usage.reasoning, cost, cost, sessionId);
  }

  /** Titles are unique: a title another session has is refused with a StoreError saying so. */
  setTitle(sessionId: string, input: string | null): void {
    // A title is made from the first prompt, which may hold a pasted key.
    const title = input === null ? null : redactSecrets(input);
    try {
      this.db.prepare('UPDATE sessions SET title = ? WHERE id = ?').run(title, sessionId);
    } catch (error) {
      throw explainConstraint(error, { title });
    }
  }

  /** Sessions, most recently active first; `query` keeps title matches and sessions with matching messages. */
  listSessions(options: ListOptions = {}): SessionSummary[] {
    return listSessions(this.db, options);
  }

  /** By exact id, else exact title, else unique id prefix. */
  findSession(idOrTitle: string): StoredSession | undefined {
    return findSession(this.db, idOrTitle);
  }

  /** searchWithCoverage's hits alone (the store's own callers and tests that need no coverage). */
  search(query: string, options: SearchOptions = {}): SearchHit[] {
    return searchWithCoverage(this.db, query, options).hits;
  }

  /**
   * Full-text search over finished messages (bm25, with substring search for CJK); never throws on user
   * text. Also says how far back a scan for text shorter than a trigram read (messageSearch.ts).
   */
  searchWithCoverage(query: string, options: SearchOptions = {}): SearchResult {
    return searchWithCoverage(this.db, query, options);
  }

  /** A new session `newId` with a copy of the source's messages and `parent_session_id` = source. */
  branchSession(sourceId: string, newId: string, options: { title?: string | null } = {}): StoredSession {
    return branchSession(this.db, sourceId, newId, options.title ?? null);
  }

  /** Deletes the last user message and all after it; `text` is that message ({removed: 0, text: ''} if none). */
  undoLastTurn(sessionId: string): { removed: number; text: string } {
    return undoLastTurn(this.db, sessionId);
  }

  /** Deletes a session with its messages and approval decisions; its branches lose their parent. */
  deleteSession(id: string): boolean {
    return this.db.prepare('DELETE FROM sessions WHERE id = ?').run(id).changes > 0;
  }

  /** Changes a stored message (the streaming assistant row); the search index follows. */
  updateMessage(rowId: number, patch: MessagePatch): void {
    updateMessage(this.db, rowId, redactSecretsDeep(patch));
  }

  endSession(sessionId: string): void {
    this.db.prepare('UPDATE sessions SET ended_at = ? WHERE id = ? AND ended_at IS NULL').run(now(), sessionId);
  }

  /** Stores one approval-gate decision; `decision.at` is epoch milliseconds. */
  recordApproval(decision: ApprovalDecision): void {
    recordApproval(this.db, decision);
  }

  /** A session's approval decisions, oldest first. */
  approvalDecisions(sessionId: string): ApprovalDecision[] {
    return approvalDecisions(this.db, sessionId);
  }

  close(): void {
    if (!this.db.open) return;
    try {
      // The last chance for a reply the disk refused: it is written now if space was freed.
      this.flushDeferred();
    } finally {
      this.db.close();
    }
  }
}

function refuseNewerSchema(db: Database.Database, file: string): number {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) throw newerSchemaError(file, version, SCHEMA_VERSION);
  // Every hermes schema sets user_version; tables without it are Hermes's (its `schema_version` table).
  if (version === 0 && db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name IN ('schema_version', 'sessions')").get()) {
    throw hermesDatabaseError(file);
  }
  return version;
}

function migrate(db: Database.Database, file: string): void {
  const version = refuseNewerSchema(db, file);
  for (let v = version; v < SCHEMA_VERSION; v += 1) {
    db.transaction(() => {
      if (MIGRATION_GUARDS[v]?.(db) ?? true) db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}

/** A `messages` row as the store hands it out. */
function fromRow(row: MessageRow): StoredMessage {
  return {
    id: row.id,
    sessionId: row.session_id,
    role: row.role,
    content: row.content,
    toolCalls: row.tool_calls ? (JSON.parse(row.tool_calls) as ToolCall[]) : undefined,
    toolName: row.tool_name ?? undefined,
    toolCallId: row.tool_call_id ?? undefined,
    reasoning: row.reasoning ?? undefined,
    status: row.status ?? undefined,
    timestamp: row.timestamp,
    toolOutcome: toolOutcome(row),
  };
}

/** The stored transcript as the provider's message list (tool calls and results kept paired). */
export function toChatMessages(messages: StoredMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const m of messages) {
    if (m.role === 'tool') out.push({ role: 'tool', tool_call_id: m.toolCallId ?? '', content: m.content ?? '' });
    else if (m.role === 'assistant') {
      // A reply cut off before any text (e.g. a retry that never streamed) carries nothing to send.
      if (!m.content && !m.toolCalls?.length) continue;
      out.push({ role: 'assistant', content: m.content ?? '', ...(m.toolCalls?.length ? { tool_calls: m.toolCalls } : {}) });
    } else out.push({ role: m.role, content: m.content ?? '' });
  }
  return out;
}
