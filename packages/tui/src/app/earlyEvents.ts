/**
 * Session events that arrive while a session is being opened (`session.create` or `session.resume` in
 * flight), before the TUI knows the session's id: held back, then shown once that session is on screen.
 */
import type { HermesEvent } from '@hermes/rpc-server/protocol';
import type { ViewStore } from '../state/viewStore.ts';

export class EarlyEvents {
  /** Undefined while no session is being opened: events then go straight to the view. */
  private held: HermesEvent[] | undefined = [];

  constructor(private readonly view: ViewStore) {}

  /** Holds session events back from now on: a session is being opened. */
  hold(): void {
    this.held = [];
  }

  /** Forgets the held events and stops holding: no session came up. */
  drop(): void {
    this.held = undefined;
  }

  /** Holds `event` back when a session is being opened and the event belongs to a session; false when it is to be shown now. */
  keep(event: HermesEvent): boolean {
    if (!this.held || !event.session_id) return false;
    this.held.push(event);
    return true;
  }

  /** Shows the events of `sessionId` that arrived before the session was on screen, and stops holding. */
  flush(sessionId: string): void {
    const early = this.held ?? [];
    this.held = undefined;
    for (const event of early) if (event.session_id === sessionId) this.view.dispatch(event);
  }
}
