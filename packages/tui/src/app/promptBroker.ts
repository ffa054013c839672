/**
 * Connects the backend's blocking questions (approval, clarify) to the cards on screen: each question
 * is queued in the view store and its JSON-RPC request stays open until the user answers, the backend
 * withdraws it, or the TUI goes away (then it is declined: deny, or an empty answer).
 */
import type { ApprovalChoice } from '@hermes/rpc-server/protocol';
import type { Logger } from '../logging/logger.ts';
import { approvalRecord, clarifyRecord } from '../state/promptQueue.ts';
import type { PendingPrompt } from '../state/viewState.ts';
import type { ViewStore } from '../state/viewStore.ts';

/** The user's answer to a card; `undefined` declines it (deny, or an empty answer). */
export type PromptAnswer = { kind: 'approval'; choice: ApprovalChoice } | { kind: 'clarify'; answer: string } | undefined;

export class PromptBroker {
  /** How to settle each open request, by request id. */
  private readonly waiting = new Map<string, (answer: PromptAnswer) => void>();

  constructor(
    private readonly view: ViewStore,
    private readonly logger: Logger,
  ) {}

  /** Queues a card for `prompt` and resolves with the user's answer. */
  ask(prompt: PendingPrompt, signal: AbortSignal): Promise<PromptAnswer> {
    this.logger.info('backend question', { id: prompt.id, kind: prompt.kind });
    return new Promise<PromptAnswer>((resolve) => {
      // A JSON-RPC level cancel: the backend gave up on the request without a `request.cancel` event.
      const onAbort = () => {
        if (this.settle(prompt.id, undefined)) this.view.dispatch({ type: 'local.promptWithdrawn', id: prompt.id, reason: 'cancelled' });
      };
      this.waiting.set(prompt.id, (answer) => {
        signal.removeEventListener('abort', onAbort);
        resolve(answer);
      });
      signal.addEventListener('abort', onAbort);
      this.view.dispatch({ type: 'local.promptOpened', prompt });
    });
  }

  /** The user answered the card `id`; the transcript keeps a line saying what was decided. */
  answer(id: string, answer: PromptAnswer): void {
    const prompt = this.view.store.getState().prompts.find((pending) => pending.id === id);
    if (!prompt || !this.settle(id, answer)) return;
    const record =
      prompt.kind === 'approval'
        ? approvalRecord(prompt.request, answer?.kind === 'approval' ? answer.choice : 'deny')
        : clarifyRecord(prompt.request, answer?.kind === 'clarify' ? answer.answer : '');
    this.logger.info('answered a backend question', { id, kind: prompt.kind, declined: answer === undefined });
    this.view.dispatch({ type: 'local.promptAnswered', id, record });
  }

  /**
   * The backend withdrew the request (`request.cancel`): settle it so nothing waits on it. The reducer
   * takes the card down when it sees the same event.
   */
  withdrawn(id: string): void {
    if (this.settle(id, undefined)) this.logger.info('backend withdrew a question', { id });
  }

  /** Declines everything still open (shutdown, lost backend). */
  declineAll(): void {
    for (const id of [...this.waiting.keys()]) this.settle(id, undefined);
  }

  private settle(id: string, answer: PromptAnswer): boolean {
    const resolve = this.waiting.get(id);
    if (!resolve) return false;
    this.waiting.delete(id);
    resolve(answer);
    return true;
  }
}
