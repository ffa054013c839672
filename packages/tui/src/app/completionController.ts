/**
 * Feeds the slash-command completion list: watches the composer, asks the backend (`complete.slash`)
 * once typing pauses, and drops answers for text the user has already typed past.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { acceptAnswer, completionQuery, type CompletionState } from '../commands/slashCompletion.ts';
import type { SessionHost } from './sessionHost.ts';

export const COMPLETION_DEBOUNCE_MS = 50;

export class CompletionController {
  /** Undefined while the list is closed. */
  readonly store: StoreApi<CompletionState | undefined> = createStore<CompletionState | undefined>(() => undefined);
  private timer: NodeJS.Timeout | undefined;
  /** Esc closed the list for this text; it reopens once the text changes. */
  private dismissedFor: string | undefined;
  private readonly unsubscribe: () => void;

  constructor(private readonly host: SessionHost) {
    this.unsubscribe = host.composer.subscribe((state, previous) => {
      if (state.draft !== previous.draft || state.cursor !== previous.cursor) this.refresh();
    });
  }

  get isOpen(): boolean {
    return this.store.getState() !== undefined;
  }

  select(state: CompletionState): void {
    if (this.isOpen) this.store.setState(state, true);
  }

  /** Esc: the list stays closed until the text changes. */
  dismiss(): void {
    this.dismissedFor = this.host.composer.getState().draft;
    this.close();
  }

  private close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.isOpen) this.store.setState(undefined, true);
  }

  private refresh(): void {
    const composer = this.host.composer.getState();
    const text = completionQuery(composer);
    if (text === undefined) {
      this.dismissedFor = undefined;
      return this.close();
    }
    if (text === this.dismissedFor) return this.close();
    this.dismissedFor = undefined;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.ask(text), COMPLETION_DEBOUNCE_MS);
  }

  private ask(text: string): void {
    const client = this.host.client();
    if (!client || this.host.view.store.getState().phase !== 'ready') return;
    const sessionId = this.host.view.store.getState().sessionId;
    client.request('complete.slash', { text, ...(sessionId ? { session_id: sessionId } : {}) }).then(
      (answer) => {
        // The composer may have changed meanwhile, or Esc closed the list: acceptAnswer drops stale answers.
        if (this.dismissedFor === text) return;
        const next = acceptAnswer(this.host.composer.getState(), { text, ...answer }, this.store.getState());
        if (next || completionQuery(this.host.composer.getState()) === text) this.store.setState(next, true);
      },
      (error: unknown) => this.host.logger.warn('complete.slash failed', { text, error }),
    );
  }

  dispose(): void {
    this.close();
    this.unsubscribe();
  }
}
