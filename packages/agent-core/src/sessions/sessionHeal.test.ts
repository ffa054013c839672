import { describe, expect, it } from 'vitest';
import { tempDb } from '../testing/tempHome.ts';
import { INTERRUPTED_CALL_RESULT, validateMessageSequence } from '../context/messageSequence.ts';
import { repairStoredSession } from './sessionHeal.ts';
import { SessionStore, toChatMessages } from './sessionStore.ts';

const call = (id: string) => ({ id, type: 'function' as const, function: { name: 'terminal', arguments: '{"command":"sleep 30"}' } });

function openStore(): SessionStore {
  const store = SessionStore.open(tempDb('heal-store'));
  store.createSession({ id: 's1' });
  return store;
}

describe('repairStoredSession', () => {
  it('answers the calls a crash left without results, marks a cut-off reply interrupted, and is idempotent', () => {
    const store = openStore();
    store.appendMessage('s1', { role: 'user', content: 'run both' });
    const reply = store.appendMessage('s1', { role: 'assistant', content: 'Running', status: 'streaming' });
    store.updateMessage(reply, { toolCalls: [call('a'), call('b')], status: 'complete' });
    store.appendMessage('s1', { role: 'tool', content: 'a done', toolName: 'terminal', toolCallId: 'a' });
    // A later reply (cut off) ends the block: b is left unanswered deeper in the history.
    store.appendMessage('s1', { role: 'assistant', content: 'half a', status: 'streaming' });
    expect(repairStoredSession(store, 's1')).toEqual({ interruptedReplies: 1, answeredCalls: [] });

    store.appendMessage('s1', { role: 'assistant', content: '', toolCalls: [call('c'), call('d')] });
    store.appendMessage('s1', { role: 'tool', content: 'c done', toolName: 'terminal', toolCallId: 'c' });
    expect(repairStoredSession(store, 's1')).toEqual({ interruptedReplies: 0, answeredCalls: ['d'] });
    expect(store.messages('s1').at(-1)).toMatchObject({
      role: 'tool',
      content: INTERRUPTED_CALL_RESULT,
      toolName: 'terminal',
      toolCallId: 'd',
      status: 'interrupted',
    });
    expect(repairStoredSession(store, 's1')).toEqual({ interruptedReplies: 0, answeredCalls: [] });
    expect(store.messages('s1').filter((m) => m.status === 'streaming')).toEqual([]);
    // Only b (deep in the history) is still unanswered in the store; the loop heals it per request.
    expect(validateMessageSequence(toChatMessages(store.messages('s1')))).toEqual([expect.stringContaining('without results: b')]);
    store.close();
  });

  it('changes nothing in a session that ended well', () => {
    const store = openStore();
    store.appendMessage('s1', { role: 'user', content: 'hi' });
    store.appendMessage('s1', { role: 'assistant', content: '', toolCalls: [call('a')] });
    store.appendMessage('s1', { role: 'tool', content: 'ok', toolName: 'terminal', toolCallId: 'a' });
    store.appendMessage('s1', { role: 'assistant', content: 'done', status: 'complete' });
    const before = store.messages('s1');
    expect(repairStoredSession(store, 's1')).toEqual({ interruptedReplies: 0, answeredCalls: [] });
    expect(store.messages('s1')).toEqual(before);
    store.close();
  });
});
