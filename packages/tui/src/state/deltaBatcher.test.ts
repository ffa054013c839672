import { describe, expect, it } from 'vitest';
import type { HermesEvent } from '@hermes/rpc-server/protocol';
import { createDeltaBatcher, type Scheduler } from './deltaBatcher.ts';
import type { ViewInput } from './viewState.ts';

/** A scheduler the test advances by hand: no clocks involved. */
function manualScheduler() {
  const queued: (() => void)[] = [];
  const schedule: Scheduler = (run) => {
    queued.push(run);
    return () => {
      const index = queued.indexOf(run);
      if (index >= 0) queued.splice(index, 1);
    };
  };
  return { schedule, fire: () => queued.splice(0).forEach((run) => run()), get size() { return queued.length; } };
}

const delta = (text: string, type = 'message.delta'): HermesEvent => ({ type, session_id: 's', payload: { text } }) as HermesEvent;

function setup() {
  const updates: ViewInput[][] = [];
  const clock = manualScheduler();
  const batcher = createDeltaBatcher((inputs) => updates.push(inputs), { schedule: clock.schedule });
  return { updates, clock, batcher };
}

const texts = (inputs: ViewInput[]) => inputs.map((i) => ('payload' in i && i.payload && 'text' in i.payload ? `${i.type}:${i.payload.text}` : i.type));

describe('delta batcher', () => {
  it('merges deltas arriving within one window into a single update', () => {
    const { updates, clock, batcher } = setup();
    for (const piece of ['Hel', 'lo', ', ', 'world']) batcher.push(delta(piece));
    expect(updates).toEqual([]);
    expect(clock.size).toBe(1);
    clock.fire();
    expect(updates.map(texts)).toEqual([['message.delta:Hello, world']]);
  });

  it('flushes pending deltas before a non-delta event, in the same update and in order', () => {
    const { updates, clock, batcher } = setup();
    batcher.push(delta('partial'));
    batcher.push({ type: 'message.complete', session_id: 's', payload: { text: 'partial', status: 'complete' } });
    expect(updates.map(texts)).toEqual([['message.delta:partial', 'message.complete:partial']]);
    clock.fire();
    expect(updates).toHaveLength(1);
  });

  it('keeps reasoning and reply deltas apart and in arrival order', () => {
    const { updates, clock, batcher } = setup();
    batcher.push(delta('think', 'reasoning.delta'));
    batcher.push(delta('ing', 'reasoning.delta'));
    batcher.push(delta('Answer'));
    clock.fire();
    expect(updates.map(texts)).toEqual([['reasoning.delta:thinking', 'message.delta:Answer']]);
  });

  it('applies a local action at once', () => {
    const { updates, batcher } = setup();
    batcher.push({ type: 'local.submitted', text: 'hi' });
    expect(updates.map(texts)).toEqual([['local.submitted']]);
  });
});
