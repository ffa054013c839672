/**
 * Smart approval's guardian: one cheap model call at temperature 0 that judges a command the gate
 * flagged as dangerous (never a hardline one: the gate refuses those before asking). It never throws:
 * a timeout, an error, an abort or an answer that is not a strict verdict comes back as `escalate`,
 * so the human is asked as in manual mode.
 */
import { ErrorCode } from '../../contract/errorCodes.ts';
import { HermesError } from '../../contract/errors.ts';
import type { ChatProvider, ChatResponse } from '../../providers/types.ts';
import { guardianMessages, type GuardianRequest } from './guardianPrompt.ts';
import { parseGuardianVerdict, type GuardianVerdict } from './guardianVerdict.ts';

export type { GuardianRequest } from './guardianPrompt.ts';

/** What the gate needs from a guardian (the session supplies one; see `modelGuardian`). */
export interface Guardian {
  /** The verdict on one flagged command; never rejects. */
  judge(request: GuardianRequest, signal: AbortSignal): Promise<GuardianVerdict>;
  /** Shows the user one line about a guardian decision (a status line). */
  tell(line: string): void;
}

/** Default for `auxiliary.approval.timeout`: a guardian slower than this costs more than asking. */
export const DEFAULT_GUARDIAN_TIMEOUT_S = 20;

export interface ModelGuardianOptions {
  /** The model to ask, or why there is none (then every command escalates with that reason). */
  provider: () => ChatProvider | { unavailable: string };
  timeoutMs: number;
  /** The call's tokens count toward the session's usage. */
  onUsage: (response: ChatResponse) => void;
  tell: (line: string) => void;
  /** Told about failures (errors, unparseable answers) so they are logged, not lost. */
  onError: (message: string) => void;
}

/** The guardian gave no verdict in time: the question goes to the human (as for an unavailable model). */
class GuardianTimeout extends HermesError {
  override name = 'GuardianTimeout';
  constructor(message: string) {
    super(ErrorCode.AgentUnavailable, message);
  }
}

export function modelGuardian(options: ModelGuardianOptions): Guardian {
  return {
    tell: options.tell,
    async judge(request, signal) {
      const escalate = (reason: string): GuardianVerdict => ({ decision: 'escalate', reason });
      const provider = options.provider();
      if ('unavailable' in provider) return escalate(`no guardian model (${provider.unavailable})`);
      if (signal.aborted) return escalate('the turn was interrupted');
      const seconds = Math.round(options.timeoutMs / 100) / 10;
      const timer = new AbortController();
      const timeout = setTimeout(() => timer.abort(new GuardianTimeout(`no verdict within ${seconds} s`)), options.timeoutMs);
      let response: ChatResponse;
      try {
        response = await provider.stream(
          { messages: guardianMessages(request), tools: [], temperature: 0, signal: AbortSignal.any([signal, timer.signal]) },
          // Nothing of the guardian's answer is streamed into the reply.
          () => {},
        );
      } catch (error) {
        if (timer.signal.aborted && !signal.aborted) {
          options.onError(`the guardian gave no verdict within ${seconds} s (auxiliary.approval.timeout)`);
          return escalate(`the guardian gave no verdict within ${seconds} s`);
        }
        if (signal.aborted) return escalate('the turn was interrupted');
        const message = error instanceof Error ? error.message : String(error);
        options.onError(`the guardian call failed: ${message}`);
        return escalate(`the guardian call failed (${message})`);
      } finally {
        clearTimeout(timeout);
      }
      // Outside the try: a failure to count usage is the session's (its store), not the guardian's.
      options.onUsage(response);
      const parsed = response.toolCalls.length ? { ok: false as const, problem: 'it asked for a tool instead' } : parseGuardianVerdict(response.text);
      if (parsed.ok) return parsed.verdict;
      options.onError(`the guardian's answer was not a verdict: ${parsed.problem}`);
      return escalate(`the guardian gave no clear verdict: ${parsed.problem}`);
    },
  };
}
