/** Repairing a session's store after a run that died or a turn that failed, without ever failing the caller. */
import type { Logger } from '../logging/logger.ts';
import { repairStoredSession } from '../sessions/sessionHeal.ts';
import type { SessionStore } from '../sessions/sessionStore.ts';

/** Answers stored tool calls left without results (see repairStoredSession); logged, never thrown. */
export function repairSessionStore(store: SessionStore, sessionId: string, when: string, logger: Logger): void {
  try {
    const repair = repairStoredSession(store, sessionId);
    if (repair.answeredCalls.length || repair.interruptedReplies) {
      logger.warn(
        'session %s %s: %d cut-off repl%s marked interrupted, tool call(s) %s answered as interrupted',
        sessionId,
        when,
        repair.interruptedReplies,
        repair.interruptedReplies === 1 ? 'y' : 'ies',
        repair.answeredCalls.join(', ') || '(none)',
      );
    }
  } catch (error) {
    logger.error('session %s: could not repair the stored session %s: %s', sessionId, when, (error as Error).stack ?? error);
  }
}
