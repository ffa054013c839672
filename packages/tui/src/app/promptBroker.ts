/**
 * Connects the backend's blocking questions (approval, clarify) to the cards on screen. The view's
 * prompt queue (`ViewState.prompts`) is the one record of which questions are open; this broker only
 * keeps the JSON-RPC replies waiting on them (a promise cannot live in the view state). A reply is
 * sent when the user answers, and a question whose card leaves the queue any other way (the backend
 * withdrew it, the backend was lost, another session was opened, the TUI is exiting) is declined:
 * deny, or an empty answer.
 */
import type { ApprovalChoice } from '@hermes/rpc-server/protocol';
import type { Logger } from '../logging/logger.ts';
import { approvalRecord, clarifyRecord } from '../state/promptQueue.ts';
import type { PendingPrompt } from '../state/viewState.ts';
import type { ViewStore } from '../state/viewStore.ts';

/** The user's answer to a card; `undefined` declines it (deny, or an empty answer). */
export type PromptAnswer = { kind: 'approval'; choice: ApprovalChoice } | { kind: 'clarify'; answer: string } | undefined;

export class PromptBroker {
  /** The reply to each open request, by request id; every id here has its card in the view's queue. */
  private readonly waiting = new Map<string, (answer: PromptAnswer) => void>();

  constructor(
    private readonly view: ViewStore,
    private readonly logger: Logger,
  ) {
    view.store.subscribe((state) => this.declineRemoved(state.prompts));
  }

  /** Queues a card for `prompt` and resolves with the user's answer. */
  ask(prompt: PendingPrompt, signal: AbortSignal): Promise<PromptAnswer> {
    this.logger.info('backend question', { id: prompt.id, kind: prompt.kind });
    if (this.waiting.has(prompt.id) || signal.aborted) {
      this.logger.warn('declined a backend question that is already open or already cancelled', { id: prompt.id });
      return Promise.resolve(undefined);
    }
    return new Promise<PromptAnswer>((resolve) => {
      // A JSON-RPC level cancel: the backend gave up on the request without a `request.cancel` event.
      const onAbort = () => this.view.dispatch({ type: 'local.promptWithdrawn', id: prompt.id, reason: 'cancelled' });
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
    const reply = this.waiting.get(id);
    if (!prompt || !reply) return;
    // Taken out first, so the card leaving the queue below does not decline it.
    this.waiting.delete(id);
    const record =
      prompt.kind === 'approval'
        ? approvalRecord(prompt.request, answer?.kind === 'approval' ? answer.choice : 'deny')
        : clarifyRecord(prompt.request, answer?.kind === 'clarify' ? answer.answer : '');
    this.logger.info('answered a backend question', { id, kind: prompt.kind, declined: answer === undefined });
    this.view.dispatch({ type: 'local.promptAnswered', id, record });
    reply(answer);
  }

  /** The TUI is exiting: every card goes, and with it (declined) every question still open. */
  declineAll(): void {
    for (const prompt of this.view.store.getState().prompts) this.view.dispatch({ type: 'local.promptWithdrawn', id: prompt.id, reason: 'exiting' });
  }

  /** Declines the questions whose cards are no longer queued. */
  private declineRemoved(queued: readonly PendingPrompt[]): void {
    if (this.waiting.size === 0) return;
    const open = new Set(queued.map((prompt) => prompt.id));
    for (const [id, reply] of [...this.waiting]) {
      if (open.has(id)) continue;
      this.waiting.delete(id);
      this.logger.info('declined a backend question whose card went away', { id });
      reply(undefined);
    }
  }
}
