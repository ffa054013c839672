/**
 * Merges streaming deltas into at most one store update per frame, so a fast stream costs one React
 * commit (and one layout) per frame rather than one per token. A frame is Ink's: it paints at most 30
 * times a second (its default `maxFps`, which app/runTui.tsx keeps), so updates between two paints
 * would be laid out and thrown away. The first delta after a quiet frame is applied at once (the
 * leading edge: the first words show without waiting); later ones wait for the frame to end.
 * Anything that is not a delta flushes the pending deltas first, in the same update, so order is
 * preserved, and is never delayed (a key, a tool card, the reply's completion).
 *
 * A frame is also never shorter than FRAME_COST_SHARE times what the last update cost (its render,
 * paint and the paragraphs it printed): on a loaded machine 30 frames a second took most of the
 * TUI's CPU from the backend it shares two cores with, and the reply ended later; on an idle one
 * an update costs a few ms and the frame stays 33 ms.
 */
import type { HermesEvent } from '@hermes/rpc-server/protocol';
import type { ViewInput } from './viewState.ts';

export const DELTA_WINDOW_MS = 33;
/** Render work takes at most this share of the time while a reply streams: a frame lasts at least this many times the last update's cost... */
export const FRAME_COST_SHARE = 4;
/** ...but no longer than this, so the text still moves. */
export const MAX_WINDOW_MS = 200;

/** Calls `done` once the work an update caused is over. */
export type AfterUpdate = (done: () => void) => void;

/**
 * React renders a store change in a microtask queued by the change, Ink paints in it, and the
 * transcript prints finished paragraphs in an immediate queued by that commit: an immediate queued
 * from a later microtask runs after all of it.
 */
const afterRender: AfterUpdate = (done) => queueMicrotask(() => setImmediate(done));

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
  options: { windowMs?: number; schedule?: Scheduler; now?: () => number; afterUpdate?: AfterUpdate } = {},
): DeltaBatcher {
  const minWindowMs = options.windowMs ?? DELTA_WINDOW_MS;
  const schedule = options.schedule ?? timerScheduler;
  const now = options.now ?? (() => performance.now());
  const afterUpdate = options.afterUpdate ?? afterRender;
  let pending: DeltaEvent[] = [];
  let cancel: (() => void) | undefined;
  let appliedAt = -Infinity;
  /** The current frame's length: the minimum, or longer after a costly update. */
  let windowMs = minWindowMs;

  const take = (): ViewInput[] => {
    cancel?.();
    cancel = undefined;
    const taken = pending;
    pending = [];
    return taken;
  };

  const applyNow = (inputs: ViewInput[]) => {
    if (inputs.length === 0) return;
    const start = now();
    appliedAt = start;
    apply(inputs);
    afterUpdate(() => {
      windowMs = Math.min(MAX_WINDOW_MS, Math.max(minWindowMs, (now() - start) * FRAME_COST_SHARE));
    });
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
      if (!isDelta(input)) {
        applyNow([...take(), input]);
        return;
      }
      merge(input);
      if (cancel) return;
      const wait = appliedAt + windowMs - now();
      if (wait <= 0) {
        applyNow(take());
        return;
      }
      cancel = schedule(() => {
        cancel = undefined;
        applyNow(take());
      }, wait);
    },
    flush() {
      applyNow(take());
    },
    dispose() {
      take();
    },
  };
}
