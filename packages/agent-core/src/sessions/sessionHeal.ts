import { INTERRUPTED_CALL_RESULT } from '../context/messageSequence.ts';
import type { SessionStore } from './sessionStore.ts';

export interface StoredRepair {
  /** Replies left `streaming` by a run that died, now marked `interrupted`. */
  interruptedReplies: number;
  /** Ids of the tool calls that got a stored synthetic result. */
  answeredCalls: string[];
}

/** How far back from the end a repair looks for replies left streaming (a turn's worth and more). */
const RECENT_MESSAGES = 1_000;

/**
 * Repairs what a run that died (kill -9, out of memory, a failed turn) left in a stored session: a
 * reply still marked `streaming` becomes `interrupted`, and the calls of a last assistant message that
 * never got their results get a stored result saying so, so the transcript shows it and the next
 * request is a valid sequence. Idempotent: a second repair finds nothing to do. Calls unanswered
 * deeper in the history (older stores) cannot be answered in place; the loop heals those per request.
 */
export function repairStoredSession(store: SessionStore, sessionId: string): StoredRepair {
  // Only the rows a repair can change are read: a resume of 10,000 messages must not read them all. A
  // run that dies leaves only its own replies streaming, at the end, and each load repairs them.
  const streaming = store.streamingMessageIds(sessionId, RECENT_MESSAGES);
  for (const id of streaming) store.updateMessage(id, { status: 'interrupted' });
  const [asking, ...results] = store.lastExchange(sessionId);
  const answeredCalls: string[] = [];
  if (asking?.role === 'assistant' && asking.toolCalls?.length) {
    const answered = new Set(results.map((m) => m.toolCallId));
    for (const call of asking.toolCalls) {
      if (answered.has(call.id)) continue;
      answered.add(call.id);
      store.appendMessage(sessionId, {
        role: 'tool',
        content: INTERRUPTED_CALL_RESULT,
        toolName: call.function.name,
        toolCallId: call.id,
        status: 'interrupted',
      });
      answeredCalls.push(call.id);
    }
  }
  return { interruptedReplies: streaming.length, answeredCalls };
}
