import { describe, expect, it } from 'vitest';
import { LoopTurns } from './loopTurns.ts';

/** Chunks already buffered: each `next()` resolves at once, so `for await` runs as one chain of microtasks. */
async function* buffered(count: number, onEach: () => void): AsyncGenerator<number> {
  for (let i = 0; i < count; i += 1) {
    onEach();
    yield i;
  }
}

/**
 * Reads `count` buffered chunks (a clock that moves 1 ms a chunk) and says at which chunk a callback
 * queued before reading (as a timer that is due would be) ran.
 */
async function timerRanAt(count: number, takeTurns: boolean): Promise<number> {
  let clock = 0;
  const turns = new LoopTurns(8, () => clock);
  let read = 0;
  let ranAt = -1;
  setImmediate(() => (ranAt = read));
  for await (const _ of buffered(count, () => (clock += 1))) {
    const turn = takeTurns ? turns.due() : undefined;
    if (turn) await turn;
    read += 1;
  }
  await new Promise((resolve) => setTimeout(resolve, 5));
  return ranAt;
}

describe('LoopTurns', () => {
  it('lets queued callbacks run while buffered chunks are read back to back, once the interval has passed', async () => {
    const ranAt = await timerRanAt(200, true);
    expect(ranAt).toBeGreaterThanOrEqual(0);
    expect(ranAt).toBeLessThan(200);
  });

  it('(the same reading without turns holds them until the stream ends)', async () => {
    expect(await timerRanAt(200, false)).toBe(200);
  });

  it('asks for no turn before the interval has passed', () => {
    let clock = 0;
    const turns = new LoopTurns(8, () => clock);
    clock = 7;
    expect(turns.due()).toBeUndefined();
    clock = 8;
    expect(turns.due()).toBeInstanceOf(Promise);
  });
});
