/**
 * The approval gate: decides whether one tool call may run. Order (as in Hermes): hardline → always
 * blocked; safe → allowed; dangerous → allowed by the permanent allowlist, a session approval,
 * yolo or mode `off`; otherwise the human is asked (`once`, `session`, `always`, `deny`). Silence is
 * not consent: no answer within the timeout is a denial.
 */
import { detectCommand, detectWrite } from './detect.ts';
import {
  APPROVAL_CHOICES,
  type ApprovalChoice,
  type ApprovalDecision,
  type ApprovalSubject,
  type AskApproval,
  type Detection,
  type GateVerdict,
} from './types.ts';

export interface ApprovalGateOptions {
  /** `manual`: dangerous calls ask; `off`: they run (hardline ones never do). */
  mode: 'manual' | 'off';
  /** `command_allowlist` from config.yaml: pattern keys the user approved with "always". */
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
}

type Decided = ApprovalDecision['choice'];

export class ApprovalGate {
  private readonly allowlist: Set<string>;
  private readonly sessionApproved = new Map<string, Set<string>>();

  private readonly onError: (message: string, error: unknown) => void;

  constructor(private readonly options: ApprovalGateOptions) {
    this.allowlist = new Set(options.allowlist);
    this.onError = options.onError ?? ((message, error) => process.stderr.write(`approvals: ${message}: ${String(error)}\n`));
  }

  async check(subject: ApprovalSubject, options: GateCheckOptions): Promise<GateVerdict> {
    const detection = this.detect(subject);
    if (detection.level === 'safe') return { allowed: true };
    const shown = subject.kind === 'command' ? subject.command : `write ${subject.path}`;
    const decide = (choice: Decided): Decided => {
      this.record({ sessionId: options.sessionId, toolName: subject.toolName, command: shown, patternKey: detection.key, choice, at: Date.now() });
      return choice;
    };

    if (detection.level === 'hardline') {
      decide('hardline');
      return { allowed: false, message: blockedMessage(detection, shown, 'hardline') };
    }
    const automatic = this.automaticApproval(detection.key, options);
    if (automatic) {
      decide(automatic);
      return { allowed: true };
    }

    const choice = await this.ask(subject, detection, options);
    decide(choice);
    if (choice === 'timeout' || choice === 'deny') return { allowed: false, message: blockedMessage(detection, shown, choice, this.options.timeoutMs) };
    if (choice === 'session' || choice === 'always') this.approveForSession(options.sessionId, detection.key);
    if (choice === 'always') {
      this.allowlist.add(detection.key);
      try {
        this.options.persistAlways(detection.key);
      } catch (error) {
        this.onError(`could not save "${detection.key}" to command_allowlist; it stays allowed until hermes exits`, error);
      }
    }
    return { allowed: true };
  }

  /** Drops a session's "allow for this session" approvals (on /new or when the session closes). */
  forgetSession(sessionId: string): void {
    this.sessionApproved.delete(sessionId);
  }

  private detect(subject: ApprovalSubject): Detection {
    const ctx = { home: this.options.home, hermesHome: this.options.hermesHome };
    return subject.kind === 'command' ? detectCommand(subject.command, ctx) : detectWrite(subject.path, ctx);
  }

  private automaticApproval(key: string, options: GateCheckOptions): Decided | null {
    if (this.allowlist.has(key)) return 'allowlist';
    if (this.sessionApproved.get(options.sessionId)?.has(key)) return 'session-approved';
    if (options.yolo) return 'yolo';
    if (this.options.mode === 'off') return 'mode-off';
    return null;
  }

  /** Asks the human; resolves `timeout` after `timeoutMs` and `deny` on abort, even if `ask` ignores the signal. */
  private async ask(subject: ApprovalSubject, detection: Exclude<Detection, { level: 'safe' }>, options: GateCheckOptions): Promise<ApprovalChoice | 'timeout'> {
    if (options.signal.aborted) return 'deny';
    const question = {
      toolName: subject.toolName,
      command: subject.kind === 'command' ? subject.command : `write ${subject.path}`,
      description: detection.description,
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

  private approveForSession(sessionId: string, key: string): void {
    const keys = this.sessionApproved.get(sessionId) ?? new Set<string>();
    keys.add(key);
    this.sessionApproved.set(sessionId, keys);
  }

  private record(decision: ApprovalDecision): void {
    try {
      this.options.record(decision);
    } catch (error) {
      this.onError('could not record an approval decision', error);
    }
  }
}

/** The tool result the model sees for a refused call: what, why, and not to try another way. */
export function blockedMessage(
  detection: Exclude<Detection, { level: 'safe' }>,
  shown: string,
  why: 'hardline' | 'deny' | 'timeout',
  timeoutMs = 0,
): string {
  const reason =
    why === 'hardline'
      ? `it is never allowed (${detection.description}), whatever the approval settings`
      : why === 'timeout'
        ? `it needs approval (${detection.description}) and nobody approved it within ${Math.round(timeoutMs / 1000)} s, so it was denied`
        : `it needs approval (${detection.description}) and the user denied it`;
  return (
    `BLOCKED: \`${shown}\` was not run: ${reason}. ` +
    'Do not retry it, rephrase it, or work around it with another command or tool that has the same effect. ' +
    'If it is needed, stop and ask the user how to proceed.'
  );
}
