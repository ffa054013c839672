import { describe, expect, it } from 'vitest';
import { silentLogger } from '../logging/logger.ts';
import { approvalPrompt, clarifyPrompt } from '../state/promptQueue.ts';
import { createViewStore } from '../state/viewStore.ts';
import { openResult } from '../testing/sessionFixtures.ts';
import { PromptBroker } from './promptBroker.ts';

const approval = approvalPrompt('srq-1', { session_id: 's', tool_name: 'terminal', command: 'rm -rf x', description: 'd', findings: [], choices: ['once', 'deny'] });
const clarify = clarifyPrompt('srq-2', { session_id: 's', question: 'Which?' });

const session = (id: string) => openResult(id, [], { stored_session_id: `stored-${id}` });

/** A broker on a view with session `s` open, so the backend can be lost. */
function broker() {
  const view = createViewStore();
  view.dispatch({ type: 'local.sessionOpened', result: session('s') });
  return { view, prompts: new PromptBroker(view, silentLogger) };
}

const noticeTexts = (view: ReturnType<typeof createViewStore>) =>
  view.store.getState().transcript.flatMap((item) => (item.kind === 'notice' ? [item.text] : []));

describe('PromptBroker', () => {
  it('replies with the answer, takes the card down and records what was decided', async () => {
    const { view, prompts } = broker();
    const reply = prompts.ask(approval, new AbortController().signal);
    expect(view.store.getState().prompts.map((prompt) => prompt.id)).toEqual(['srq-1']);
    prompts.answer('srq-1', { kind: 'approval', choice: 'once' });
    await expect(reply).resolves.toEqual({ kind: 'approval', choice: 'once' });
    expect(view.store.getState().prompts).toEqual([]);
    expect(noticeTexts(view)).toEqual(['allowed once: terminal rm -rf x']);
  });

  it('declines every open question on shutdown, silently, and takes nothing further after', async () => {
    const { view, prompts } = broker();
    const first = prompts.ask(approval, new AbortController().signal);
    const second = prompts.ask(clarify, new AbortController().signal);
    expect(view.store.getState().prompts).toHaveLength(2);
    prompts.declineAll();
    await expect(first).resolves.toBeUndefined();
    await expect(second).resolves.toBeUndefined();
    expect(view.store.getState().prompts).toEqual([]);
    // A late answer from the keyboard has nothing left to settle.
    prompts.answer('srq-1', { kind: 'approval', choice: 'once' });
    expect(noticeTexts(view)).toEqual([]);
  });

  it('withdraws the card when the backend cancels the request itself', async () => {
    const { view, prompts } = broker();
    const cancel = new AbortController();
    const answer = prompts.ask(approval, cancel.signal);
    cancel.abort();
    await expect(answer).resolves.toBeUndefined();
    expect(view.store.getState().prompts).toEqual([]);
    expect(noticeTexts(view)).toEqual(['approval withdrawn: cancelled']);
  });

  it('declines a question when the view takes its card down for a request.cancel event', async () => {
    const { view, prompts } = broker();
    const first = prompts.ask(approval, new AbortController().signal);
    const second = prompts.ask(clarify, new AbortController().signal);
    view.dispatch({ type: 'request.cancel', session_id: 's', payload: { id: 'srq-1', method: 'approval', reason: 'interrupted' } });
    await expect(first).resolves.toBeUndefined();
    expect(view.store.getState().prompts.map((prompt) => prompt.id)).toEqual(['srq-2']);
    // The other question is still open and still answerable.
    prompts.answer('srq-2', { kind: 'clarify', answer: 'red' });
    await expect(second).resolves.toEqual({ kind: 'clarify', answer: 'red' });
  });

  it('declines the open questions when the backend is lost', async () => {
    const { view, prompts } = broker();
    const reply = prompts.ask(approval, new AbortController().signal);
    view.dispatch({ type: 'local.backendLost' });
    await expect(reply).resolves.toBeUndefined();
    expect(noticeTexts(view)).toContain('approval withdrawn: the backend stopped');
  });

  it('declines the questions of a session the user left, whatever opened the other one', async () => {
    const { view, prompts } = broker();
    const reply = prompts.ask(clarify, new AbortController().signal);
    view.dispatch({ type: 'local.sessionOpened', result: session('t'), how: 'created' });
    await expect(reply).resolves.toBeUndefined();
    expect(view.store.getState().prompts).toEqual([]);
  });

  it('declines a second question with an id already open instead of leaving the first unanswerable', async () => {
    const { view, prompts } = broker();
    const first = prompts.ask(approval, new AbortController().signal);
    await expect(prompts.ask(approval, new AbortController().signal)).resolves.toBeUndefined();
    prompts.answer('srq-1', { kind: 'approval', choice: 'deny' });
    await expect(first).resolves.toEqual({ kind: 'approval', choice: 'deny' });
    expect(view.store.getState().prompts).toEqual([]);
  });
});
