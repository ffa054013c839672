/** The zustand store holding the view state; every change goes through the pure reducer. */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { createDeltaBatcher, type DeltaBatcher, type Scheduler } from './deltaBatcher.ts';
import { reduceAll } from './reducer.ts';
import { initialViewState, type ViewInput, type ViewState } from './viewState.ts';

export interface ViewStore {
  store: StoreApi<ViewState>;
  /** Applies an event or local action; streaming deltas are batched into one update per window. */
  dispatch(input: ViewInput): void;
  dispose(): void;
}

export function createViewStore(options: { schedule?: Scheduler; initial?: ViewState } = {}): ViewStore {
  const store = createStore<ViewState>(() => options.initial ?? initialViewState());
  const batcher: DeltaBatcher = createDeltaBatcher(
    (inputs) => store.setState((state) => reduceAll(state, inputs), true),
    { schedule: options.schedule },
  );
  return { store, dispatch: (input) => batcher.push(input), dispose: () => batcher.dispose() };
}
