/** The zustand store holding the view state; every change goes through the pure reducer. */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { createDeltaBatcher, type DeltaBatcher, type Scheduler } from './deltaBatcher.ts';
import { reduceAll } from './reducer.ts';
import { initialViewState, type ViewInput, type ViewState } from './viewState.ts';

export interface ViewStore {
  store: StoreApi<ViewState>;
  /** Applies an event or local action; streaming deltas are batched into one update per window. */
  dispatch(input: ViewInput): void;
  /**
   * Applies `input` once this turn of the event loop is over (its output written), or before the next
   * `dispatch`, whichever comes first, so the order of updates is kept. For an update whose render
   * must not hold up what is on its way to the backend: React renders a store change in a microtask,
   * before the transport writes the frames of the tick (see SessionController.sendPrompt).
   */
  dispatchSoon(input: ViewInput): void;
  /** Whether an input given to `dispatchSoon` has not been applied yet. */
  hasSoon(): boolean;
  dispose(): void;
}

export function createViewStore(options: { schedule?: Scheduler; initial?: ViewState } = {}): ViewStore {
  const store = createStore<ViewState>(() => options.initial ?? initialViewState());
  const batcher: DeltaBatcher = createDeltaBatcher(
    (inputs) => store.setState((state) => reduceAll(state, inputs), true),
    { schedule: options.schedule },
  );
  let soon: ViewInput[] = [];
  let timer: NodeJS.Immediate | undefined;
  const applySoon = () => {
    if (timer) clearImmediate(timer);
    timer = undefined;
    const taken = soon;
    soon = [];
    for (const input of taken) batcher.push(input);
  };
  return {
    store,
    dispatch(input) {
      if (soon.length > 0) applySoon();
      batcher.push(input);
    },
    dispatchSoon(input) {
      soon.push(input);
      timer ??= setImmediate(applySoon);
    },
    hasSoon: () => soon.length > 0,
    dispose() {
      if (timer) clearImmediate(timer);
      timer = undefined;
      soon = [];
      batcher.dispose();
    },
  };
}
