/**
 * A model's stream events handed on per network read, not per SSE event. A fast model sends many
 * small events per read (the bench's 60 kB reply is 10,000 six-character deltas), and each text event
 * went through the agent loop, the stored row, the event bridge and the redaction one by one: work
 * that the process also had to optimize on its first turn (docs/performance.md, first session of
 * 2026-12-08). What one read brings is the same text either way, so consecutive text (or reasoning)
 * deltas of a read are joined into one event, in order; any other event ends the run before it.
 */
import { LoopTurns } from './loopTurns.ts';
import type { StreamEvent } from './types.ts';

export class EventRuns {
  private type: 'text' | 'reasoning' | null = null;
  private text = '';

  constructor(private readonly onEvent: (event: StreamEvent) => void) {}

  /** Takes one event: text and reasoning are held until `flush`, or until an event of another kind. */
  readonly push = (event: StreamEvent): void => {
    if (event.type === 'text' || event.type === 'reasoning') {
      if (this.type !== event.type) this.flush();
      this.type = event.type;
      this.text += event.text;
      return;
    }
    this.flush();
    this.onEvent(event);
  };

  /** Passes on the run held, if any. */
  flush(): void {
    const type = this.type;
    const text = this.text;
    this.type = null;
    this.text = '';
    if (type && text) this.onEvent({ type, text });
  }
}

/**
 * Reads `batches` (a batch per network read: sseBatches), giving each value to `take`, whose events
 * go to `runs`. The runs are passed on at the end of each batch, and before each turn of the event
 * loop (LoopTurns) so that what was read is sent on while the rest of the batch waits.
 */
export async function readBatches<T>(batches: AsyncIterable<T[]>, runs: EventRuns, take: (value: T) => void, turns = new LoopTurns()): Promise<void> {
  for await (const batch of batches) {
    for (const value of batch) {
      const turn = turns.due();
      if (turn) {
        runs.flush();
        await turn;
      }
      take(value);
    }
    runs.flush();
  }
}
