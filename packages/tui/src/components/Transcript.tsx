import { Static } from 'ink';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { ViewState } from '../state/viewState.ts';
import { useMarkdown } from '../markdown/useMarkdown.ts';
import { TranscriptEntry } from './TranscriptEntry.tsx';

/**
 * Finished items are printed once with <Static> and then belong to the terminal's scrollback: they
 * are never repainted, which keeps long sessions fast and flicker-free. A new `generation` prints them
 * all again (after the screen was cleared for a narrower terminal).
 */
export function Transcript({ store, width, generation = 0 }: { store: StoreApi<ViewState>; width: number; generation?: number }) {
  const items = useStore(store, (state) => state.transcript);
  // An item is printed with the modes of the moment it is printed (it is never repainted).
  const details = useStore(store, (state) => state.details);
  const firstReply = items.findIndex((item) => item.kind === 'assistant');
  const markdown = useMarkdown(firstReply >= 0);
  // <Static> prints an item once, for good: replies (and what follows them) wait for the markdown
  // renderer, loaded on first need, so none is printed plain and never rendered.
  const waiting = firstReply >= 0 && (markdown.status === 'idle' || markdown.status === 'loading');
  const shown = waiting ? items.slice(0, firstReply) : items;
  return <Static key={generation} items={shown}>{(item) => <TranscriptEntry key={item.id} item={item} width={width} details={details} />}</Static>;
}
