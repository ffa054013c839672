/**
 * Smart approval's decision flow for one flagged command: ask the guardian, tell the user what it
 * decided, and count its denials per session. After `threshold` denials in a session the guardian is
 * no longer asked (a model that keeps trying refused things should meet the human, not the guardian).
 */
import type { Guardian, GuardianRequest } from './guardian.ts';
import type { GuardianVerdict } from './guardianVerdict.ts';

/** Default for `approvals.denial_breaker_threshold` (as in Hermes). */
export const DEFAULT_DENIAL_BREAKER_THRESHOLD = 3;

const SAID: Record<GuardianVerdict['decision'], string> = { approve: 'approved', deny: 'denied', escalate: 'asking you about' };

export class SmartApproval {
  private readonly denials = new Map<string, number>();

  constructor(private readonly threshold: number = DEFAULT_DENIAL_BREAKER_THRESHOLD) {}

  async decide(guardian: Guardian, sessionId: string, request: GuardianRequest, signal: AbortSignal): Promise<GuardianVerdict> {
    const denied = this.denials.get(sessionId) ?? 0;
    const verdict: GuardianVerdict =
      denied >= this.threshold
        ? {
            decision: 'escalate',
            reason: `the guardian denied ${denied} commands in this session (approvals.denial_breaker_threshold: ${this.threshold}); you decide from now on`,
          }
        : await guardian.judge(request, signal);
    if (verdict.decision === 'deny') this.denials.set(sessionId, denied + 1);
    // An interrupted turn asks nobody: nothing to tell.
    if (!signal.aborted) guardian.tell(`smart approval: ${SAID[verdict.decision]} \`${oneLine(request.command)}\` — ${verdict.reason}`);
    return verdict;
  }

  /** Drops a session's denial count (when it closes). */
  forget(sessionId: string): void {
    this.denials.delete(sessionId);
  }
}

/** The command as a status line can show it: its first line, at most 80 characters. */
function oneLine(command: string): string {
  const lines = command.trim().split('\n');
  const first = lines[0]!.trim();
  const cut = first.length > 80 ? `${first.slice(0, 79)}…` : first;
  return lines.length > 1 && cut === first ? `${cut} …` : cut;
}
