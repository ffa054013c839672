/** The audit trail of the approval gate: one row a decision in state.db's `approval_decisions`. */
import type Database from 'better-sqlite3';
import type { ApprovalDecision } from '../approvals/types.ts';
import { redactSecrets } from '../secrets/processSecrets.ts';
import { StoreError } from './storeError.ts';

interface ApprovalRow {
  session_id: string;
  tool_name: string;
  command: string;
  pattern_key: string;
  choice: ApprovalDecision['choice'];
  reason: string | null;
  decided_at: number;
}

/** Stores one approval-gate decision; `decision.at` is epoch milliseconds. */
export function recordApproval(db: Database.Database, decision: ApprovalDecision): void {
  try {
    db.prepare(
      `INSERT INTO approval_decisions (session_id, tool_name, command, pattern_key, choice, reason, decided_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      decision.sessionId,
      decision.toolName,
      redactSecrets(decision.command),
      decision.patternKey,
      decision.choice,
      decision.reason === undefined ? null : redactSecrets(decision.reason),
      decision.at / 1000,
    );
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
      throw new StoreError(`Session ${decision.sessionId} does not exist; approval decision not recorded`);
    }
    throw error;
  }
}

/** A session's approval decisions, oldest first. */
export function approvalDecisions(db: Database.Database, sessionId: string): ApprovalDecision[] {
  const rows = db.prepare('SELECT * FROM approval_decisions WHERE session_id = ? ORDER BY id').all(sessionId) as ApprovalRow[];
  return rows.map((row) => ({
    sessionId: row.session_id,
    toolName: row.tool_name,
    command: row.command,
    patternKey: row.pattern_key,
    choice: row.choice,
    ...(row.reason === null ? {} : { reason: row.reason }),
    at: Math.round(row.decided_at * 1000),
  }));
}
