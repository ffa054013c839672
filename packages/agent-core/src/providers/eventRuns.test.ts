import { describe, expect, it } from 'vitest';
import { EventRuns, readBatches } from './eventRuns.ts';
import { LoopTurns } from './loopTurns.ts';
import type { StreamEvent } from './types.ts';

const text = (t: string): StreamEvent => ({ type: 'text', text: t });
const reasoning = (t: string): StreamEvent => ({ type: 'reasoning', text: t });
const tool = (name: string): StreamEvent => ({ type: 'tool_generating', name });

async function* batches(...reads: StreamEvent[][]): AsyncGenerator<StreamEvent[]> {
  for (const read of reads) yield read;
}

/** No turn of the event loop is ever due: what is joined does not depend on how fast the machine is. */
const NEVER = () => new LoopTurns(Number.POSITIVE_INFINITY);

/** What `onEvent` hears when each read's events go through EventRuns. */
async function heard(reads: StreamEvent[][], turns: LoopTurns = NEVER()): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  const runs = new EventRuns((event) => out.push(event));
  await readBatches(batches(...reads), runs, runs.push, turns);
  return out;
}

describe('EventRuns and readBatches', () => {
  it('joins the text deltas of one read into one event', async () => {
    expect(await heard([[text('ab'), text('cd'), text('ef')]])).toEqual([text('abcdef')]);
  });

  it('keeps reads apart: what one read brought is passed on before the next is read', async () => {
    expect(await heard([[text('a'), text('b')], [text('c')], [], [text('d')]])).toEqual([text('ab'), text('c'), text('d')]);
  });

  it('keeps the order of kinds: reasoning, text and a tool call each end the run before them', async () => {
    const events = await heard([[reasoning('th'), reasoning('ink'), text('so '), text('yes'), tool('read_file'), text('x'), reasoning('r')]]);
    expect(events).toEqual([reasoning('think'), text('so yes'), tool('read_file'), text('x'), reasoning('r')]);
  });

  it('passes nothing on for empty deltas', async () => {
    expect(await heard([[text(''), text('')], [tool('t')]])).toEqual([tool('t')]);
  });

  it('passes on what it holds before each turn of the event loop', async () => {
    // A turn due before every value: each value's text goes on alone.
    expect(await heard([[text('a'), text('b'), text('c')]], new LoopTurns(0))).toEqual([text('a'), text('b'), text('c')]);
  });

  it('loses no text over many reads of many small deltas', async () => {
    const reads = Array.from({ length: 50 }, (_, r) => Array.from({ length: 40 }, (__, i) => text(`${r}.${i} `)));
    const events = await heard(reads);
    expect(events).toHaveLength(50);
    expect(events.map((e) => (e as { text: string }).text).join('')).toBe(reads.flat().map((e) => (e as { text: string }).text).join(''));
  });
});
