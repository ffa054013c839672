/** Shared shapes of the approval gate (detection, the gate, and the tools that ask it). */

export type ApprovalChoice = 'once' | 'session' | 'always' | 'deny';
export const APPROVAL_CHOICES: readonly ApprovalChoice[] = ['once', 'session', 'always', 'deny'];

/** What one tool call asks the gate to judge. Tools describe it; the loop asks the gate. */
export type ApprovalSubject =
  | { kind: 'command'; toolName: string; command: string }
  /** A file write: `path` absolute; `diff` a unified diff of the change, shown to the human. */
  | { kind: 'write'; toolName: string; path: string; diff: string };

/** The verdict of the pattern lists on one command or path. */
export type Detection =
  | { level: 'safe' }
  /** Asks the human. `key` is the pattern's description: what "session" and "always" remember. */
  | { level: 'dangerous'; key: string; description: string }
  /** Never runs, whatever the mode or answer. */
  | { level: 'hardline'; key: string; description: string };

/** The question put to the human (the protocol's `approval` request, less the session id). */
export interface ApprovalQuestion {
  toolName: string;
  command: string;
  description: string;
  choices: ApprovalChoice[];
  diff?: string;
}

/**
 * Asks the human and resolves with the choice. Must resolve `deny` (never reject) when it cannot
 * ask; the signal aborts the question on interrupt or timeout.
 */
export type AskApproval = (question: ApprovalQuestion, signal: AbortSignal) => Promise<ApprovalChoice>;

export type GateVerdict = { allowed: true } | { allowed: false; message: string };

/** One recorded decision, for the session store. */
export interface ApprovalDecision {
  sessionId: string;
  toolName: string;
  command: string;
  patternKey: string;
  /** The human's choice, or how the gate decided without one. */
  choice: ApprovalChoice | 'hardline' | 'allowlist' | 'session-approved' | 'timeout' | 'yolo' | 'mode-off';
  at: number;
}
