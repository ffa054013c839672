import { Static } from 'ink';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { ViewState } from '../state/viewState.ts';
import { TranscriptEntry } from './TranscriptEntry.tsx';

/**
 * Finished items are printed once with <Static> and then belong to the terminal's scrollback: they
 * are never repainted, which keeps long sessions fast and flicker-free.
 */
export function Transcript({ store, width }: { store: StoreApi<ViewState>; width: number }) {
  const items = useStore(store, (state) => state.transcript);
  return <Static items={items}>{(item) => <TranscriptEntry key={item.id} item={item} width={width} />}</Static>;
}
