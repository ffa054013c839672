/**
 * Drives the session picker: loads the recent sessions when it opens, applies keys through the pure
 * picker logic, and asks the backend (debounced) about what was typed, so words that appear only
 * inside a session's messages find it too.
 */
import type { SessionSummary } from '@hermes/rpc-server/protocol';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Key } from '../input/keyParser.ts';
import { applyPickerKey, initialPicker, pendingQuery, type PickerState } from '../sessions/sessionPicker.ts';
import { errorMessage } from './rpcErrors.ts';
import type { SessionHost } from './sessionHost.ts';

/** Sessions fetched at once; the list is a picker, not an archive browser. */
export const PICKER_LIMIT = 50;
export const QUERY_DEBOUNCE_MS = 150;

export class PickerController {
  /** Undefined while the picker is closed. */
  readonly store: StoreApi<PickerState | undefined> = createStore<PickerState | undefined>(() => undefined);
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly host: SessionHost,
    private readonly onPick: (session: SessionSummary) => void,
  ) {}

  get isOpen(): boolean {
    return this.store.getState() !== undefined;
  }

  private update(change: (state: PickerState) => PickerState): void {
    const state = this.store.getState();
    if (state) this.store.setState(change(state), true);
  }

  open(): void {
    if (this.isOpen) return;
    const client = this.host.client();
    if (!client || this.host.view.store.getState().phase !== 'ready') {
      this.host.view.dispatch({ type: 'local.notice', level: 'warn', text: 'sessions: still starting — try again in a moment' });
      return;
    }
    this.store.setState(initialPicker(this.host.view.store.getState().info?.stored_session_id), true);
    client.request('session.list', { limit: PICKER_LIMIT }).then(
      ({ sessions }) => this.update((state) => ({ ...state, sessions, loading: false })),
      (error: unknown) => {
        this.host.logger.warn('session.list failed', { error });
        this.update((state) => ({ ...state, loading: false, error: errorMessage(error) }));
      },
    );
  }

  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.isOpen) this.store.setState(undefined, true);
  }

  key(key: Key): void {
    const state = this.store.getState();
    if (!state) return;
    const { state: next, outcome } = applyPickerKey(state, key);
    if (outcome) {
      this.close();
      if (outcome.kind === 'resume') this.onPick(outcome.session);
      return;
    }
    if (next === state) return;
    this.store.setState(next, true);
    if (next.query !== state.query) this.scheduleSearch();
  }

  /** Asks the backend about the query once typing pauses; an answer for an older query is dropped. */
  private scheduleSearch(): void {
    clearTimeout(this.timer);
    const state = this.store.getState();
    const query = state && pendingQuery(state);
    if (!state || !query) return;
    const typed = state.query;
    this.timer = setTimeout(() => {
      const client = this.host.client();
      if (!client) return;
      client.request('session.list', { query, limit: PICKER_LIMIT }).then(
        ({ sessions }) => this.update((current) => (current.query === typed ? { ...current, remote: { query: typed, sessions }, error: undefined } : current)),
        (error: unknown) => {
          this.host.logger.warn('session.list with a query failed', { query, error });
          this.update((current) => (current.query === typed ? { ...current, error: errorMessage(error) } : current));
        },
      );
    }, QUERY_DEBOUNCE_MS);
  }
}
