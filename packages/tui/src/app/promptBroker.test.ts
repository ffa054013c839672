import { describe, expect, it } from 'vitest';
import { silentLogger } from '../logging/logger.ts';
import { approvalPrompt, clarifyPrompt } from '../state/promptQueue.ts';
import { createViewStore } from '../state/viewStore.ts';
import { PromptBroker } from './promptBroker.ts';

const approval = approvalPrompt('srq-1', { session_id: 's', tool_name: 'terminal', command: 'rm -rf x', description: 'd', findings: [], choices: ['once', 'deny'] });
const clarify = clarifyPrompt('srq-2', { session_id: 's', question: 'Which?' });

function broker() {
  const view = createViewStore();
  return { view, prompts: new PromptBroker(view, silentLogger) };
}

describe('PromptBroker', () => {
  it('declines every open question on shutdown, and takes nothing further after', async () => {
    const { view, prompts } = broker();
    const first = prompts.ask(approval, new AbortController().signal);
    const second = prompts.ask(clarify, new AbortController().signal);
    expect(view.store.getState().prompts).toHaveLength(2);
    prompts.declineAll();
    await expect(first).resolves.toBeUndefined();
    await expect(second).resolves.toBeUndefined();
    // A late answer from the keyboard has nothing left to settle.
    prompts.answer('srq-1', { kind: 'approval', choice: 'once' });
    expect(view.store.getState().transcript).toEqual([]);
  });

  it('withdraws the card when the backend cancels the request itself', async () => {
    const { view, prompts } = broker();
    const cancel = new AbortController();
    const answer = prompts.ask(approval, cancel.signal);
    cancel.abort();
    await expect(answer).resolves.toBeUndefined();
    const state = view.store.getState();
    expect(state.prompts).toEqual([]);
    expect(state.transcript).toMatchObject([{ kind: 'notice', level: 'warn', text: 'approval withdrawn: cancelled' }]);
  });
});
