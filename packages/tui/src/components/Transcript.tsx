import { Static } from 'ink';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { ViewState } from '../state/viewState.ts';
import { TranscriptEntry } from './TranscriptEntry.tsx';

/**
 * Finished items are printed once with <Static> and then belong to the terminal's scrollback: they
 * are never repainted, which keeps long sessions fast and flicker-free. A new `generation` prints them
 * all again (after the screen was cleared for a narrower terminal).
 */
export function Transcript({ store, width, generation = 0 }: { store: StoreApi<ViewState>; width: number; generation?: number }) {
  const items = useStore(store, (state) => state.transcript);
  return <Static key={generation} items={items}>{(item) => <TranscriptEntry key={item.id} item={item} width={width} />}</Static>;
}
