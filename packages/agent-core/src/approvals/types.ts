/** Shared shapes of the approval gate (the judge, the gate, and the tools that ask it). */

// The choices, levels and findings cross the wire: the contract defines them.
import type { ApprovalChoice, ApprovalFinding, ApprovalLevel, ApprovalVerdict } from '../contract/approvals.ts';

export type { ApprovalChoice };
export { APPROVAL_CHOICES } from '../contract/approvalNames.ts';

/** What one tool call asks the gate to judge. Tools describe it; the loop asks the gate. */
export type ApprovalSubject =
  /** `cwd`: where the command runs (the terminal tool's `workdir`, else the session's cwd). */
  | { kind: 'command'; toolName: string; command: string; cwd?: string }
  /** A file write: `path` absolute; `diff` a unified diff of the change, shown to the human. */
  | { kind: 'write'; toolName: string; path: string; diff: string }
  /** A file read by a file tool: `path` absolute. Only secrets (`$HERMES_HOME/.env`) ask. */
  | { kind: 'read'; toolName: string; path: string }
  /**
   * A call of a tool that asks as a whole (an MCP server's destructive tool, or every tool of a server
   * with `approval: ask`): the tool judged it already. "Session" and "always" remember `rule@target`
   * (`mcp.destructive@mcp_github_delete_repo#<hash of the server's command line or URL>`); `arguments` (redacted) are shown with the question.
   */
  | { kind: 'tool'; toolName: string; arguments: Record<string, unknown>; rule: string; target: string; why: string };

export type Level = ApprovalLevel;

/**
 * One reason a command needs approval (or may never run); see the contract's ApprovalFinding.
 * "Session" and "always" approvals remember `rule` and `target`, never the whole command.
 */
export type Finding = ApprovalFinding;

/** The gate's judgement of one command or write: the most severe level over all findings. */
export type Verdict = ApprovalVerdict;

/** Where a command or write is judged from. */
export interface JudgeContext {
  home: string;
  hermesHome: string;
  /** The directory the command runs in; relative paths resolve against it. */
  cwd?: string;
}

/** The question put to the human (the protocol's `approval` request, less the session id). */
export interface ApprovalQuestion {
  toolName: string;
  command: string;
  /** One line summing up the findings (for clients that show only a description). */
  description: string;
  /** Every finding, most severe first; the card lists them all. */
  findings: Finding[];
  choices: ApprovalChoice[];
  diff?: string;
}

/**
 * Asks the human and resolves with the choice. Must resolve `deny` (never reject) when it cannot
 * ask; the signal aborts the question on interrupt or timeout.
 */
export type AskApproval = (question: ApprovalQuestion, signal: AbortSignal) => Promise<ApprovalChoice>;

/** `warning`: allowed, but something the user should know went wrong (an "always" config.yaml could not keep). */
export type GateVerdict = { allowed: true; warning?: string } | { allowed: false; message: string };

/** One recorded decision, for the session store. */
export interface ApprovalDecision {
  sessionId: string;
  toolName: string;
  command: string;
  /** The `rule@target` keys of the findings, comma-separated (the column keeps its first name). */
  patternKey: string;
  /** The human's choice, or how the gate decided without one (`smart-*`: smart approval's guardian). */
  choice: ApprovalChoice | 'hardline' | 'allowlist' | 'session-approved' | 'timeout' | 'yolo' | 'mode-off' | 'smart-approved' | 'smart-denied';
  /** Why, when the guardian had a say: its reason (for a human's choice, why it escalated). */
  reason?: string;
  at: number;
}
