/** The markdown loader as React state (kept apart from loadMarkdown.ts, which the startup path imports without React). */
import { useEffect, useSyncExternalStore } from 'react';
import { loadMarkdown, markdownState, subscribeMarkdown, type MarkdownState } from './loadMarkdown.ts';

/**
 * The loader's state, re-rendering when it changes; `wanted` starts the load. A failure is kept in the
 * state (for the caller to show) rather than thrown into React.
 */
export function useMarkdown(wanted = true): MarkdownState {
  const current = useSyncExternalStore(subscribeMarkdown, markdownState);
  useEffect(() => {
    if (wanted && markdownState().status === 'idle') loadMarkdown().catch(() => undefined /* kept as the 'failed' state, and logged through onMarkdownFailure */);
  }, [wanted]);
  return current;
}
