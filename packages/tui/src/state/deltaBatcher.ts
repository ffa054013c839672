/**
 * Merges streaming deltas that arrive within one window (~16 ms) into a single store update, so a
 * fast stream repaints the screen once per frame rather than once per token. Anything that is not a
 * delta flushes the pending deltas first, in the same update, so order is preserved.
 */
import type { HermesEvent } from '@hermes/rpc-server/protocol';
import type { ViewInput } from './viewState.ts';

export const DELTA_WINDOW_MS = 16;

export type Scheduler = (run: () => void, ms: number) => () => void;

const timerScheduler: Scheduler = (run, ms) => {
  const timer = setTimeout(run, ms);
  return () => clearTimeout(timer);
};

type DeltaEvent = Extract<HermesEvent, { type: 'message.delta' | 'reasoning.delta' }>;

function isDelta(input: ViewInput): input is DeltaEvent {
  return input.type === 'message.delta' || input.type === 'reasoning.delta';
}

export interface DeltaBatcher {
  push(input: ViewInput): void;
  /** Applies pending deltas now. */
  flush(): void;
  dispose(): void;
}

export function createDeltaBatcher(
  apply: (inputs: ViewInput[]) => void,
  options: { windowMs?: number; schedule?: Scheduler } = {},
): DeltaBatcher {
  const windowMs = options.windowMs ?? DELTA_WINDOW_MS;
  const schedule = options.schedule ?? timerScheduler;
  let pending: DeltaEvent[] = [];
  let cancel: (() => void) | undefined;

  const take = (): ViewInput[] => {
    cancel?.();
    cancel = undefined;
    const taken = pending;
    pending = [];
    return taken;
  };

  const merge = (event: DeltaEvent) => {
    const last = pending[pending.length - 1];
    if (last && last.type === event.type && last.session_id === event.session_id) {
      const text = last.payload.text + event.payload.text;
      pending[pending.length - 1] = { ...last, seq: event.seq ?? last.seq, payload: { text } };
    } else {
      pending.push(event);
    }
  };

  return {
    push(input) {
      if (isDelta(input)) {
        merge(input);
        cancel ??= schedule(() => {
          cancel = undefined;
          const inputs = take();
          if (inputs.length > 0) apply(inputs);
        }, windowMs);
        return;
      }
      apply([...take(), input]);
    },
    flush() {
      const inputs = take();
      if (inputs.length > 0) apply(inputs);
    },
    dispose() {
      take();
    },
  };
}
