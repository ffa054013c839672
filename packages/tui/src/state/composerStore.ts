/** The composer's draft and cursor, kept apart from the view state so typing re-renders only the composer. */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ComposerState } from '../input/composerKeys.ts';

export type ComposerStore = StoreApi<ComposerState>;

export function createComposerStore(): ComposerStore {
  return createStore<ComposerState>(() => ({ draft: '', cursor: 0 }));
}

/** A Ctrl+R search of the prompt history under way. */
export interface HistorySearch {
  query: string;
  /** The entry found and its place in the history (Ctrl+R again looks further back from it); none yet or none matching. */
  match?: { index: number; text: string };
}

/** What is shown under the prompt besides the draft: the prompts queued behind a running turn, and a history search. */
export interface ComposerSide {
  /** Prompts typed while a turn ran, oldest first; each is sent as its own turn once the session is idle. */
  queued: string[];
  search?: HistorySearch;
}

export type ComposerSideStore = StoreApi<ComposerSide>;

export function createComposerSideStore(): ComposerSideStore {
  return createStore<ComposerSide>(() => ({ queued: [] }));
}
