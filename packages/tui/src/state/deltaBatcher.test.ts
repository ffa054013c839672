import { describe, expect, it } from 'vitest';
import type { HermesEvent } from '@hermes/rpc-server/protocol';
import { createDeltaBatcher, DELTA_WINDOW_MS, FRAME_COST_SHARE, MAX_WINDOW_MS, type Scheduler } from './deltaBatcher.ts';
import type { ViewInput } from './viewState.ts';

/** A clock and scheduler the test advances by hand: no real time involved. */
function manualClock() {
  let time = 1_000;
  const queued: { run: () => void; at: number }[] = [];
  const schedule: Scheduler = (run, ms) => {
    const entry = { run, at: time + ms };
    queued.push(entry);
    return () => {
      const index = queued.indexOf(entry);
      if (index >= 0) queued.splice(index, 1);
    };
  };
  /** Moves time on by `ms`, running what falls due. */
  const advance = (ms: number) => {
    time += ms;
    for (const entry of queued.filter((e) => e.at <= time)) {
      queued.splice(queued.indexOf(entry), 1);
      entry.run();
    }
  };
  /** Moves time on without running what falls due (the event loop is busy). */
  const spend = (ms: number) => {
    time += ms;
  };
  return { schedule, now: () => time, advance, spend, get size() { return queued.length; } };
}

const delta = (text: string, type = 'message.delta'): HermesEvent => ({ type, session_id: 's', payload: { text } }) as HermesEvent;

/** `costMs`: how long each update takes to apply and paint (the clock moves that much while it runs). */
function setup(costMs: (inputs: ViewInput[]) => number = () => 0) {
  const updates: ViewInput[][] = [];
  const clock = manualClock();
  const batcher = createDeltaBatcher(
    (inputs) => {
      updates.push(inputs);
      clock.spend(costMs(inputs));
    },
    { schedule: clock.schedule, now: clock.now, afterUpdate: (done) => done() },
  );
  return { updates, clock, batcher };
}

const texts = (inputs: ViewInput[]) => inputs.map((i) => ('payload' in i && i.payload && 'text' in i.payload ? `${i.type}:${i.payload.text}` : i.type));

describe('delta batcher', () => {
  it('applies the first delta after a quiet frame at once, and merges the rest of the frame into one update', () => {
    const { updates, clock, batcher } = setup();
    for (const piece of ['Hel', 'lo', ', ', 'world']) batcher.push(delta(piece));
    expect(updates.map(texts)).toEqual([['message.delta:Hel']]);
    expect(clock.size).toBe(1);
    clock.advance(DELTA_WINDOW_MS - 1);
    expect(updates).toHaveLength(1);
    clock.advance(1);
    expect(updates.map(texts)).toEqual([['message.delta:Hel'], ['message.delta:lo, world']]);
  });

  it('a stream of 10,000 deltas, one every 0.1 ms, is at most one update per frame, complete and in order', () => {
    const { updates, clock, batcher } = setup();
    const pieces = Array.from({ length: 10_000 }, (_, i) => `${i} `);
    for (const piece of pieces) {
      batcher.push(delta(piece));
      clock.advance(0.1);
    }
    batcher.push({ type: 'message.complete', session_id: 's', payload: { text: '', status: 'complete' } });
    // 1,000 ms of deltas: one update per 33 ms frame (the first at once), then the completion.
    expect(updates.length).toBeLessThanOrEqual(Math.ceil(1_000 / DELTA_WINDOW_MS) + 2);
    expect(updates.length).toBeGreaterThan(1_000 / DELTA_WINDOW_MS - 2);
    const streamed = updates.flat().filter((input) => input.type === 'message.delta').map((input) => (input as HermesEvent & { payload: { text: string } }).payload.text);
    expect(streamed.join('')).toBe(pieces.join(''));
    expect(updates.at(-1)!.at(-1)!.type).toBe('message.complete');
  });

  it('flushes pending deltas before a non-delta event, in the same update and in order', () => {
    const { updates, clock, batcher } = setup();
    batcher.push(delta('first'));
    batcher.push(delta('partial'));
    batcher.push({ type: 'message.complete', session_id: 's', payload: { text: 'firstpartial', status: 'complete' } });
    expect(updates.map(texts)).toEqual([['message.delta:first'], ['message.delta:partial', 'message.complete:firstpartial']]);
    clock.advance(DELTA_WINDOW_MS);
    expect(updates).toHaveLength(2);
  });

  it('keeps reasoning and reply deltas apart and in arrival order', () => {
    const { updates, clock, batcher } = setup();
    batcher.push({ type: 'local.status', text: 'busy' });
    batcher.push(delta('think', 'reasoning.delta'));
    batcher.push(delta('ing', 'reasoning.delta'));
    batcher.push(delta('Answer'));
    clock.advance(DELTA_WINDOW_MS);
    expect(updates.map(texts)).toEqual([['local.status'], ['reasoning.delta:thinking', 'message.delta:Answer']]);
  });

  it('stretches the frame after a costly update (render work at most a quarter of the time), and shortens it again after a cheap one', () => {
    let cost = 20;
    const { updates, clock, batcher } = setup(() => cost);
    batcher.push(delta('a'));
    expect(updates).toHaveLength(1);
    // The update took 20 ms: the next frame is 80 ms from its start, not 33.
    batcher.push(delta('b'));
    clock.advance(20 * FRAME_COST_SHARE - 20 - 1);
    expect(updates).toHaveLength(1);
    cost = 1;
    clock.advance(1);
    expect(updates.map(texts)).toEqual([['message.delta:a'], ['message.delta:b']]);
    // That one cost 1 ms: back to the usual frame.
    batcher.push(delta('c'));
    clock.advance(DELTA_WINDOW_MS - 1);
    expect(updates.map(texts).at(-1)).toEqual(['message.delta:c']);
  });

  it('never stretches a frame past MAX_WINDOW_MS, and applies the completion at once whatever the frame', () => {
    let cost = MAX_WINDOW_MS / 2;
    const { updates, clock, batcher } = setup(() => cost);
    batcher.push(delta('a'));
    cost = 0;
    // A 100 ms update would ask for a 400 ms frame: it lasts 200 ms from the update's start.
    batcher.push(delta('b'));
    clock.advance(MAX_WINDOW_MS - MAX_WINDOW_MS / 2 - 1);
    expect(updates).toHaveLength(1);
    clock.advance(1);
    expect(updates.map(texts)).toEqual([['message.delta:a'], ['message.delta:b']]);
    batcher.push(delta('c'));
    batcher.push({ type: 'message.complete', session_id: 's', payload: { text: 'abc', status: 'complete' } });
    expect(updates.map(texts).at(-1)).toEqual(['message.delta:c', 'message.complete:abc']);
  });

  it('applies a local action at once', () => {
    const { updates, batcher } = setup();
    batcher.push({ type: 'local.submitted', text: 'hi' });
    expect(updates.map(texts)).toEqual([['local.submitted']]);
  });
});
