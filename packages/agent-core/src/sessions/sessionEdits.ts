import type Database from 'better-sqlite3';
import type { ToolCall } from '../providers/types.ts';
import type { MessageStatus, StoredSession } from './sessionStore.ts';
import { toolCallSearchText } from './indexedText.ts';
import { StoreError } from './storeError.ts';

/** The number of tool calls a stored `tool_calls` value holds (0 for NULL or damaged JSON). */
const TOOL_CALL_COUNT = `CASE WHEN json_valid(tool_calls) AND json_type(tool_calls) = 'array' THEN json_array_length(tool_calls) ELSE 0 END`;

const now = () => Date.now() / 1000;

/** Turns SQLite's unique-constraint failures into errors naming what is taken. */
export function explainConstraint(error: unknown, what: { id?: string; title?: string | null }): unknown {
  const { code, message } = error as { code?: string; message?: string };
  if (code !== 'SQLITE_CONSTRAINT_UNIQUE' && code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') return error;
  if (message?.includes('sessions.title')) {
    return new StoreError(`Another session already has the title "${what.title}"; choose a different title.`);
  }
  if (message?.includes('sessions.id')) return new StoreError(`A session with id ${what.id} already exists.`);
  return error;
}

/** A new session holding a copy of every message of `sourceId`, its parent set to the source. */
export function branchSession(db: Database.Database, sourceId: string, newId: string, title: string | null): StoredSession {
  return db.transaction(() => {
    const source = db.prepare('SELECT * FROM sessions WHERE id = ?').get(sourceId) as StoredSession | undefined;
    if (!source) throw new StoreError(`Session ${sourceId} does not exist; nothing to branch from.`);
    const t = now();
    try {
      db.prepare(
        `INSERT INTO sessions (id, title, source, model, provider, cwd, parent_session_id, started_at, last_active)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(newId, title, source.source, source.model, source.provider, source.cwd, sourceId, t, t);
    } catch (error) {
      throw explainConstraint(error, { id: newId, title });
    }
    // Messages keep their timestamps: they were said then. ORDER BY keeps their order in new ids.
    db.prepare(
      `INSERT INTO messages (session_id, role, content, tool_calls, tool_args_text, tool_name, tool_call_id, reasoning, status, token_count, timestamp,
         duration_s, tool_error, blocked, inline_diff)
       SELECT ?, role, content, tool_calls, tool_args_text, tool_name, tool_call_id, reasoning, status, token_count, timestamp,
         duration_s, tool_error, blocked, inline_diff
       FROM messages WHERE session_id = ? ORDER BY id`,
    ).run(newId, sourceId);
    db.prepare(
      `UPDATE sessions SET
         message_count = (SELECT COUNT(*) FROM messages WHERE session_id = @id),
         tool_call_count = (SELECT COALESCE(SUM(${TOOL_CALL_COUNT}), 0) FROM messages WHERE session_id = @id)
       WHERE id = @id`,
    ).run({ id: newId });
    return db.prepare('SELECT * FROM sessions WHERE id = ?').get(newId) as StoredSession;
  })();
}

/** Removes the last user message and everything after it; returns how many rows and that message. */
export function undoLastTurn(db: Database.Database, sessionId: string): { removed: number; text: string } {
  return db.transaction(() => {
    const last = db
      .prepare(`SELECT id, content FROM messages WHERE session_id = ? AND role = 'user' ORDER BY id DESC LIMIT 1`)
      .get(sessionId) as { id: number; content: string | null } | undefined;
    if (!last) return { removed: 0, text: '' };
    const { calls } = db
      .prepare(`SELECT COALESCE(SUM(${TOOL_CALL_COUNT}), 0) AS calls FROM messages WHERE session_id = ? AND id >= ?`)
      .get(sessionId, last.id) as { calls: number };
    const removed = db.prepare('DELETE FROM messages WHERE session_id = ? AND id >= ?').run(sessionId, last.id).changes;
    db.prepare(
      `UPDATE sessions SET message_count = MAX(0, message_count - ?), tool_call_count = MAX(0, tool_call_count - ?), last_active = ?
       WHERE id = ?`,
    ).run(removed, calls, now(), sessionId);
    return { removed, text: last.content ?? '' };
  })();
}

export interface MessagePatch {
  content?: string | null;
  status?: MessageStatus;
  toolCalls?: ToolCall[];
  reasoning?: string;
}

/**
 * Changes a stored message in place (the row of a reply being streamed). The FTS triggers re-index
 * it when its text or tool calls change, except while it is `streaming` (not indexed until its status
 * changes, FTS_DESIGN); the session's tool-call count follows the tool calls.
 */
export function updateMessage(db: Database.Database, rowId: number, patch: MessagePatch): void {
  db.transaction(() => {
    const row = db.prepare(`SELECT session_id, ${TOOL_CALL_COUNT} AS calls FROM messages WHERE id = ?`).get(rowId) as
      | { session_id: string; calls: number }
      | undefined;
    if (!row) throw new StoreError(`Message ${rowId} does not exist; it cannot be updated.`);
    const sets: string[] = [];
    const params: unknown[] = [];
    const set = (column: string, value: unknown) => {
      sets.push(`${column} = ?`);
      params.push(value);
    };
    if (patch.content !== undefined) set('content', patch.content);
    if (patch.status !== undefined) set('status', patch.status);
    if (patch.reasoning !== undefined) set('reasoning', patch.reasoning || null);
    if (patch.toolCalls !== undefined) {
      set('tool_calls', patch.toolCalls.length ? JSON.stringify(patch.toolCalls) : null);
      set('tool_args_text', toolCallSearchText(patch.toolCalls));
    }
    if (sets.length === 0) return;
    db.prepare(`UPDATE messages SET ${sets.join(', ')} WHERE id = ?`).run(...params, rowId);
    const callDelta = patch.toolCalls === undefined ? 0 : patch.toolCalls.length - row.calls;
    db.prepare('UPDATE sessions SET tool_call_count = MAX(0, tool_call_count + ?), last_active = ? WHERE id = ?').run(
      callDelta,
      now(),
      row.session_id,
    );
  })();
}
