/**
 * Prompts typed while the session is working (a turn, a `!cmd`, a command holding it such as
 * `/compress`): kept in the composer's side store, shown under the prompt, and sent one at a time,
 * oldest first and each as its own turn, whenever the session is ready and idle again.
 */
import type { ComposerSideStore } from '../state/composerStore.ts';
import type { ViewStore } from '../state/viewStore.ts';

export class QueuedPrompts {
  constructor(
    private readonly side: ComposerSideStore,
    private readonly view: ViewStore,
    /** Sends a prompt to the model now; false when it could not go (it is then kept, first in line). */
    private readonly send: (text: string) => boolean,
    private readonly shuttingDown: () => boolean,
  ) {
    view.store.subscribe(() => this.drain());
  }

  /** A turn, a `!cmd` or a command holding the session is running. */
  working(): boolean {
    const { busy, shell, commands } = this.view.store.getState();
    // A prompt just sent is shown (and the session marked busy) a moment later: see ViewStore.dispatchSoon.
    return busy || Boolean(shell) || (commands?.length ?? 0) > 0 || this.view.hasSoon();
  }

  /** Queues `text` when the session is working (or others wait before it); false when it can go now. */
  offer(text: string): boolean {
    const { queued } = this.side.getState();
    if (this.view.store.getState().phase !== 'ready' || (!this.working() && queued.length === 0)) return false;
    this.side.setState({ queued: [...queued, text] });
    this.drain();
    return true;
  }

  /** Sends the oldest queued prompt if the session is free. */
  private drain(): void {
    const { queued } = this.side.getState();
    const state = this.view.store.getState();
    if (queued.length === 0 || state.phase !== 'ready' || this.working() || state.prompts.length > 0 || this.shuttingDown()) return;
    const [next, ...rest] = queued;
    this.side.setState({ queued: rest });
    if (!this.send(next)) this.side.setState({ queued: [next, ...this.side.getState().queued] });
  }
}
