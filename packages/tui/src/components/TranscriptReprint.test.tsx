import { useSyncExternalStore } from 'react';
import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { loadMarkdown } from '../markdown/loadMarkdown.ts';
import { renderLive } from '../testing/renderFrame.ts';
import { sessionInfo, viewStore } from '../testing/viewFixtures.ts';
import type { TranscriptItem } from '../state/viewState.ts';
import { Transcript } from './Transcript.tsx';

const screen = createStore(() => ({ generation: 0 }));

function Reprinting({ store }: { store: ReturnType<typeof viewStore> }) {
  const { generation } = useSyncExternalStore(screen.subscribe, screen.getState);
  return <Transcript store={store} width={80} generation={generation} />;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('Transcript reprints', () => {
  it('count what they leave out anew, also when a long reply makes them print outside Ink', async () => {
    await loadMarkdown();
    // A reply longer than one Ink layout takes: the tail is printed as text made outside Ink.
    const long = (id: number): TranscriptItem => ({ kind: 'assistant', id, text: `${'word '.repeat(20_000)}END ${id}`, continued: false });
    const prompts = Array.from({ length: 100 }, (_, i): TranscriptItem => ({ kind: 'user', id: 3 + i, text: `prompt ${i + 1}` }));
    const store = viewStore({ transcript: [{ kind: 'header', id: 1, info: sessionInfo() }, { kind: 'notice', id: 2, level: 'info', text: 'resumed' }, ...prompts, long(103)] });
    const live = renderLive(<Reprinting store={store} />, { columns: 80, rows: 30 });
    await settle();
    expect(live.written()).toContain('100 earlier entries not printed');

    // A turn later the screen is printed again at the same width (a resize there and back).
    store.setState((state) => ({ transcript: [...state.transcript, { kind: 'user', id: 104, text: 'again' }, long(105)] }));
    await settle();
    screen.setState({ generation: 1 });
    await settle();
    expect(live.written()).toContain('102 earlier entries not printed');
    live.unmount();
  });
});
