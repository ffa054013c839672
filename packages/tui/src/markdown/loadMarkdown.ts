/**
 * Loads the markdown renderer on first need, off the startup path: `marked` and the grammars are a
 * dynamic import (a separate chunk in the bundle), started when the first assistant text must show.
 * Until it has loaded, assistant text shows plain; if it cannot load, it stays plain.
 */
import { useEffect, useSyncExternalStore } from 'react';

export type MarkdownModule = typeof import('./renderMarkdown.ts');

export type MarkdownState = { status: 'idle' | 'loading' } | { status: 'ready'; module: MarkdownModule } | { status: 'failed'; error: Error };

let state: MarkdownState = { status: 'idle' };
let pending: Promise<MarkdownModule> | undefined;
const listeners = new Set<() => void>();

function settle(next: MarkdownState): void {
  state = next;
  for (const listener of listeners) listener();
}

/** Starts loading (once) and resolves with the renderer; rejects with why it could not load. */
export function loadMarkdown(): Promise<MarkdownModule> {
  if (!pending) {
    settle({ status: 'loading' });
    pending = import('./renderMarkdown.ts').then(
      (module) => {
        settle({ status: 'ready', module });
        return module;
      },
      (cause: unknown) => {
        const error = cause instanceof Error ? cause : new Error(String(cause));
        settle({ status: 'failed', error });
        throw error;
      },
    );
  }
  return pending;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/**
 * The loader's state, re-rendering when it changes; `wanted` starts the load. A failure is kept in the
 * state (for the caller to show) rather than thrown into React.
 */
export function useMarkdown(wanted = true): MarkdownState {
  const current = useSyncExternalStore(subscribe, () => state);
  useEffect(() => {
    if (wanted && state.status === 'idle') loadMarkdown().catch(() => undefined /* kept in `state` as 'failed' */);
  }, [wanted]);
  return current;
}
