/**
 * The approval gate: decides whether one tool call may run. Order (as in Hermes): any hardline
 * finding → always blocked; no finding → allowed; otherwise allowed only when every finding is
 * covered — by the permanent allowlist, this session's approvals, yolo or mode `off` — else, in mode
 * `smart`, a guardian model may approve or deny a command (approvals/smart/), and otherwise the
 * human is asked once about all of them (`once`, `session`, `always`, `deny`). "Session" and
 * "always" remember each finding's rule and target class. Silence is not consent: no answer within
 * the timeout is a denial. A verdict that cannot be reached (the parser failed) asks.
 */
import { Allowlist, approvalKey } from './allowlist.ts';
import { judgeCommand, judgeWrite } from './judgeOnDemand.ts';
import { isHomeDotenv, isProcessEnvironment } from '../secrets/secretFiles.ts';
import { redactSecrets } from '../secrets/processSecrets.ts';
import type { Guardian } from './smart/guardian.ts';
import { SmartApproval } from './smart/smartApproval.ts';
import type { ApprovalMode } from '../contract/approvals.ts';
import {
  APPROVAL_CHOICES,
  type ApprovalChoice,
  type ApprovalDecision,
  type ApprovalQuestion,
  type ApprovalSubject,
  type AskApproval,
  type Finding,
  type GateVerdict,
  type Verdict,
} from './types.ts';

export interface ApprovalGateOptions {
  /** `manual`: dangerous calls ask; `smart`: a guardian model decides first; `off`: they run (hardline ones never do). */
  mode: ApprovalMode;
  /** Smart mode: guardian denials in a session after which the human is asked instead (default 3). */
  denialBreakerThreshold?: number;
  /** `command_allowlist` from config.yaml: `rule@target` keys approved with "always" (legacy descriptions too). */
  allowlist: readonly string[];
  /** How long to wait for an answer before denying. */
  timeoutMs: number;
  /** Saves a key approved with "always" (to config.yaml); a throw is reported, the call still runs. */
  persistAlways: (key: string) => void;
  record: (decision: ApprovalDecision) => void;
  home: string;
  hermesHome: string;
  /** Told when persisting or recording fails, so the failure is logged rather than lost (default: stderr). */
  onError?: (message: string, error: unknown) => void;
}

export interface GateCheckOptions {
  sessionId: string;
  /** Per-session or process-wide `--yolo`: dangerous calls run without asking. */
  yolo: boolean;
  ask: AskApproval;
  /** Aborts the question (interrupt); an aborted question is a denial. */
  signal: AbortSignal;
  /** The session's working directory, for commands that name none of their own. */
  cwd?: string;
  /** Smart mode's guardian for this session's commands; without one, smart mode asks like manual. */
  guardian?: Guardian;
}

type Decided = ApprovalDecision['choice'];

export class ApprovalGate {
  private readonly allowlist: Allowlist;
  private readonly sessionApproved = new Map<string, Set<string>>();
  private readonly onError: (message: string, error: unknown) => void;
  private readonly smart: SmartApproval;

  constructor(private readonly options: ApprovalGateOptions) {
    this.allowlist = new Allowlist(options.allowlist);
    this.smart = new SmartApproval(options.denialBreakerThreshold);
    this.onError = options.onError ?? ((message, error) => process.stderr.write(`approvals: ${message}: ${String(error)}\n`));
    if (this.allowlist.unknown.length) {
      this.onError('command_allowlist entries that match no rule (they allow nothing)', this.allowlist.unknown.join(', '));
    }
  }

  /** The verdict on a subject, without asking or recording anything (fails closed: see `judgeCommand`). */
  async judge(subject: ApprovalSubject, cwd?: string): Promise<Verdict> {
    // The tool judged its own call: one finding, which approvals remember by its rule and target.
    if (subject.kind === 'tool') return { level: 'dangerous', findings: [{ level: 'dangerous', rule: subject.rule, target: subject.target, why: subject.why }] };
    const ctx = { home: this.options.home, hermesHome: this.options.hermesHome, cwd: (subject.kind === 'command' ? subject.cwd : undefined) ?? cwd };
    const verdict =
      subject.kind === 'command'
        ? await judgeCommand(subject.command, ctx)
        : withSecretFile(subject, subject.kind === 'write' ? await judgeWrite(subject.path, ctx) : { level: 'safe', findings: [] }, ctx);
    const failure = verdict.findings.find((f) => f.rule === 'gate.error');
    if (failure) this.onError('a command could not be judged; asking instead', failure.why);
    return verdict;
  }

  async check(subject: ApprovalSubject, options: GateCheckOptions): Promise<GateVerdict> {
    const verdict = await this.judge(subject, options.cwd);
    if (verdict.level === 'safe') return { allowed: true };
    const shown = shownAs(subject);
    const keys = verdict.findings.map(approvalKey);
    const decide = (choice: Decided, reason?: string): Decided => {
      const why = reason === undefined ? {} : { reason };
      this.record({ sessionId: options.sessionId, toolName: subject.toolName, command: shown, patternKey: keys.join(', '), choice, ...why, at: Date.now() });
      return choice;
    };
    if (verdict.level === 'hardline') {
      decide('hardline');
      return { allowed: false, message: blockedMessage(verdict.findings, shown, 'hardline') };
    }
    const automatic = this.automaticApproval(verdict.findings, options);
    if (automatic) {
      decide(automatic);
      return { allowed: true };
    }
    let note: string | undefined;
    if (this.options.mode === 'smart' && subject.kind === 'command' && options.guardian) {
      const request = { command: subject.command, findings: verdict.findings, cwd: subject.cwd ?? options.cwd };
      const smart = await this.smart.decide(options.guardian, options.sessionId, request, options.signal);
      // Approved for this call only: nothing is remembered for the session or saved.
      if (smart.decision === 'approve') {
        decide('smart-approved', smart.reason);
        return { allowed: true };
      }
      if (smart.decision === 'deny') {
        decide('smart-denied', smart.reason);
        return { allowed: false, message: blockedMessage(verdict.findings, shown, 'smart-deny', 0, smart.reason) };
      }
      note = `smart approval escalated: ${smart.reason}`;
    }
    const choice = await this.ask(subject, verdict.findings, options, note);
    decide(choice, note);
    if (choice === 'timeout' || choice === 'deny') return { allowed: false, message: blockedMessage(verdict.findings, shown, choice, this.options.timeoutMs) };
    if (choice === 'session' || choice === 'always') this.approveForSession(options.sessionId, keys);
    let warning: string | undefined;
    if (choice === 'always') {
      for (const key of new Set(keys)) {
        this.allowlist.add(key);
        try {
          this.options.persistAlways(key);
        } catch (error) {
          this.onError(`could not save "${key}" to command_allowlist; it stays allowed until hermes exits`, error);
          warning ??= `"always" was not saved to command_allowlist (allowed until hermes exits): ${error instanceof Error ? error.message : String(error)}`;
        }
      }
    }
    return warning ? { allowed: true, warning } : { allowed: true };
  }

  /** `/approvals <mode>`: applies to every check from now on. */
  setMode(mode: ApprovalGateOptions['mode']): void {
    this.options.mode = mode;
  }

  /** Drops a session's "allow for this session" approvals (on /new or when the session closes). */
  forgetSession(sessionId: string): void {
    this.sessionApproved.delete(sessionId);
    this.smart.forget(sessionId);
  }

  private automaticApproval(findings: Finding[], options: GateCheckOptions): Decided | null {
    const session = this.sessionApproved.get(options.sessionId);
    const allowed = (f: Finding) => this.allowlist.covers(f);
    if (findings.every(allowed)) return 'allowlist';
    if (findings.every((f) => allowed(f) || session?.has(approvalKey(f)))) return 'session-approved';
    if (options.yolo) return 'yolo';
    if (this.options.mode === 'off') return 'mode-off';
    return null;
  }

  /** Asks the human; resolves `timeout` after `timeoutMs` and `deny` on abort, even if `ask` ignores the signal. */
  private async ask(subject: ApprovalSubject, findings: Finding[], options: GateCheckOptions, note?: string): Promise<ApprovalChoice | 'timeout'> {
    if (options.signal.aborted) return 'deny';
    const question: ApprovalQuestion = {
      toolName: subject.toolName,
      command: shownAs(subject),
      description: note ? `${summary(findings)} — ${note}` : summary(findings),
      findings,
      choices: [...APPROVAL_CHOICES],
      ...(subject.kind === 'write' ? { diff: subject.diff } : {}),
    };
    const controller = new AbortController();
    let timedOut = false;
    let settle: (choice: ApprovalChoice | 'timeout') => void = () => {};
    const stopped = new Promise<ApprovalChoice | 'timeout'>((resolve) => (settle = resolve));
    const onAbort = () => {
      controller.abort(options.signal.reason);
      settle('deny');
    };
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error('approval timed out'));
      settle('timeout');
    }, this.options.timeoutMs);
    options.signal.addEventListener('abort', onAbort, { once: true });
    try {
      const answered = options
        .ask(question, controller.signal)
        .then((choice): ApprovalChoice => (APPROVAL_CHOICES.includes(choice) ? choice : 'deny'))
        .catch((error: unknown): ApprovalChoice => {
          this.onError('asking for approval failed; treating it as a denial', error);
          return 'deny';
        });
      const choice = await Promise.race([answered, stopped]);
      return timedOut ? 'timeout' : choice;
    } finally {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
    }
  }

  private approveForSession(sessionId: string, keys: string[]): void {
    const approved = this.sessionApproved.get(sessionId) ?? new Set<string>();
    for (const key of keys) approved.add(key);
    this.sessionApproved.set(sessionId, approved);
  }

  private record(decision: ApprovalDecision): void {
    try {
      this.options.record(decision);
    } catch (error) {
      this.onError('could not record an approval decision', error);
    }
  }
}

/** The subject as the human and the record see it. */
function shownAs(subject: ApprovalSubject): string {
  if (subject.kind === 'tool') return `${subject.toolName} ${redactSecrets(JSON.stringify(subject.arguments))}`;
  return subject.kind === 'command' ? subject.command : `${subject.kind} ${subject.path}`;
}

/**
 * A file tool's read or write of `$HERMES_HOME/.env` asks, however the path reaches it (a symbolic or
 * hard link, `..`, another case): the judge sees only the path as written; this looks at the file.
 * Other reads need no approval.
 */
function withSecretFile(subject: ApprovalSubject & { kind: 'read' | 'write' }, base: Verdict, ctx: { hermesHome: string; cwd?: string }): Verdict {
  // A file tool runs inside hermes: even `/proc/self/environ` is hermes's own environment, with its keys.
  if (subject.kind === 'read' && isProcessEnvironment(subject.path, ctx.cwd)) {
    const finding: Finding = { level: 'dangerous', rule: 'read.secrets', target: 'process environment', why: `read ${subject.path}: a process's environment (hermes's holds its API keys)` };
    return { level: base.level === 'hardline' ? 'hardline' : 'dangerous', findings: [...base.findings, finding] };
  }
  if (!isHomeDotenv(subject.path, ctx.hermesHome, ctx.cwd)) return base;
  const finding: Finding =
    subject.kind === 'read'
      ? { level: 'dangerous', rule: 'read.secrets', target: '$HERMES_HOME/.env', why: `read ${subject.path}: hermes's API keys and other secrets` }
      : { level: 'dangerous', rule: 'write.protected', target: '$HERMES_HOME', why: `write ${subject.path}: hermes's API keys and other secrets ($HERMES_HOME/.env)` };
  if (base.findings.some((f) => f.rule === finding.rule && f.target === finding.target)) return base;
  const findings = [...base.findings, finding];
  return { level: findings.some((f) => f.level === 'hardline') ? 'hardline' : 'dangerous', findings };
}

/** One line for clients that show only a description: the first finding, and how many more. */
export function summary(findings: Finding[]): string {
  const first = findings[0];
  if (!first) return 'needs approval';
  return findings.length > 1 ? `${first.why} (and ${findings.length - 1} more)` : first.why;
}

/** The tool result the model sees for a refused call: what, why, and not to try another way. */
function blockedMessage(findings: Finding[], shown: string, why: 'hardline' | 'deny' | 'timeout' | 'smart-deny', timeoutMs = 0, guardianReason = ''): string {
  const listed = (why === 'hardline' ? findings.filter((f) => f.level === 'hardline') : findings).map((f) => f.why).join('; ');
  const reason =
    why === 'hardline'
      ? `it is never allowed (${listed}), whatever the approval settings`
      : why === 'timeout'
        ? `it needs approval (${listed}) and nobody approved it within ${Math.round(timeoutMs / 1000)} s, so it was denied`
        : why === 'smart-deny'
          ? `it needs approval (${listed}) and the approval guardian denied it: ${guardianReason}`
          : `it needs approval (${listed}) and the user denied it`;
  return (
    `BLOCKED: \`${shown}\` was not run: ${reason}. ` +
    'Do not retry it, rephrase it, or work around it with another command or tool that has the same effect. ' +
    'If it is needed, stop and ask the user how to proceed.'
  );
}
