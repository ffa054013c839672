/** The composer's draft and cursor, kept apart from the view state so typing re-renders only the composer. */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ComposerState } from '../input/composerKeys.ts';

export type ComposerStore = StoreApi<ComposerState>;

export function createComposerStore(): ComposerStore {
  return createStore<ComposerState>(() => ({ draft: '', cursor: 0 }));
}
