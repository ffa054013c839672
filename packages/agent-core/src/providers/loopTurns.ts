/**
 * Turns of the event loop while a model's stream is read. When its chunks are already buffered (a fast
 * model, a busy machine), `for await` takes them one after another in a single run of microtasks, and
 * nothing scheduled runs until the stream ends: not the event bridge's coalescing timer, not the
 * transport's writes, not a cancel. A reply then reached the client in one piece at its end (40 kB
 * of a 60 kB reply after 400 ms without a turn, under load). Checked per chunk, a turn is taken once
 * `everyMs` have passed since the last one: a few per frame of the client, nothing per chunk.
 */
export const LOOP_TURN_MS = 8;

export class LoopTurns {
  private last: number;

  constructor(
    private readonly everyMs = LOOP_TURN_MS,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.last = now();
  }

  /** A promise to await when a turn is due (it resolves after one), else undefined: no await per chunk. */
  due(): Promise<void> | undefined {
    if (this.now() - this.last < this.everyMs) return undefined;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        this.last = this.now();
        resolve();
      }),
    );
  }
}
