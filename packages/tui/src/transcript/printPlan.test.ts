import { describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../state/viewState.ts';
import { sessionInfo } from '../testing/viewFixtures.ts';
import { fitsInk, omittedText, printedOf, printsOutsideInk, STATIC_BUDGET, TAIL_ITEMS, tailStart, TURN_BUDGET, turnChars } from './printPlan.ts';

const header: TranscriptItem = { kind: 'header', id: 1, info: sessionInfo() };
const resumed: TranscriptItem = { kind: 'notice', id: 2, level: 'info', text: 'resumed "x" · 5000 messages' };
const prompts = (count: number, from = 3): TranscriptItem[] => Array.from({ length: count }, (_, i) => ({ kind: 'user', id: from + i, text: `prompt ${i + 1}` }));
const ids = (items: readonly TranscriptItem[]) => items.map((item) => item.id);

describe('printPlan', () => {
  it('prints a resumed session as its header, the notices after it, and a bounded tail; the rest is counted', () => {
    const history = prompts(5_000);
    const { preamble, omitted, tail } = printedOf([header, resumed, ...history], { width: 100, rows: 100 }, false);
    expect(ids(preamble)).toEqual([1, 2]);
    expect(tail.length).toBe(TAIL_ITEMS);
    expect(ids(tail)).toEqual(ids(history.slice(-TAIL_ITEMS)));
    expect(omitted).toBe(5_000 - TAIL_ITEMS);
    expect(omittedText(omitted)).toBe('4,940 earlier entries not printed · /transcript shows them all');
    expect(omittedText(omitted, 9_500)).toBe('9,500 earlier messages and 4,940 entries not printed · /transcript shows them all');
    expect(omittedText(0, 1)).toBe('1 earlier message not printed · /transcript shows them all');
  });

  it('stops the tail at a few screens of rows, and prints the last item whatever its length', () => {
    const long: TranscriptItem[] = Array.from({ length: 10 }, (_, i) => ({ kind: 'assistant', id: 10 + i, text: 'a line\n'.repeat(40), continued: false }));
    // 41 rows each: 3 of them fill 120 rows.
    expect(tailStart(long, 100, 130)).toBe(7);
    expect(tailStart(long, 100, 90)).toBe(8);
    const huge: TranscriptItem = { kind: 'assistant', id: 99, text: 'x\n'.repeat(100_000), continued: false };
    expect(tailStart([...long, huge], 100, 90)).toBe(long.length);
  });

  it('fits the tail to the screens of the terminal it prints on', () => {
    // A prompt takes two rows (its top margin and its line): two screens of 20 rows hold 20 of them.
    expect(printedOf([header, ...prompts(200)], { width: 100, rows: 20 }, true).tail.length).toBe(20);
  });

  it('prints a batch of live items whole, however many, when it opens no session', () => {
    const live = prompts(500);
    expect(printedOf(live, { width: 100 }, false)).toEqual({ preamble: [], omitted: 0, tail: live });
  });

  it('prints everything when the tail reaches the header', () => {
    const short = [header, resumed, ...prompts(3)];
    expect(printedOf(short, { width: 100 }, true)).toEqual({ preamble: [header, resumed], omitted: 0, tail: short.slice(2) });
  });

  it('reprints (from scratch) only the tail of a live session that grew long', () => {
    const { omitted, tail } = printedOf([header, ...prompts(200)], { width: 100, rows: 100 }, true);
    expect(omitted).toBe(200 - TAIL_ITEMS);
    expect(tail.length).toBe(TAIL_ITEMS);
  });

  it('counts the text of a turn printed so far, from its prompt, so a reply arriving in many small pieces is bounded too', () => {
    const piece = (id: number): TranscriptItem => ({ kind: 'assistant', id, text: 'z'.repeat(1_000), continued: id > 1 });
    const pieces = Array.from({ length: 200 }, (_, i) => piece(i + 1));
    let chars = turnChars(0, [{ kind: 'user', id: 0, text: 'write a lot' }]);
    for (const item of pieces) chars = turnChars(chars, [item]);
    expect(chars).toBe(200_000);
    expect(chars).toBeGreaterThan(TURN_BUDGET);
    // The next prompt starts the count again.
    expect(turnChars(chars, [{ kind: 'user', id: 300, text: 'thanks' }, piece(301)])).toBe(1_000);
  });

  it("gives Ink a batch only while its text fits one layout's budget", () => {
    expect(fitsInk(prompts(50))).toBe(true);
    expect(fitsInk([{ kind: 'assistant', id: 1, text: 'x'.repeat(STATIC_BUDGET + 1), continued: false }])).toBe(false);
    const many: TranscriptItem[] = Array.from({ length: 100 }, (_, i) => ({ kind: 'assistant', id: i, text: 'y'.repeat(STATIC_BUDGET / 50), continued: true }));
    expect(fitsInk(many)).toBe(false);
  });

  it("prints a streamed reply's paragraphs outside Ink, and the generation's first batch through it unless it is too big", () => {
    const reply: TranscriptItem = { kind: 'assistant', id: 2, text: 'A paragraph of the reply.', continued: false };
    const notice: TranscriptItem = { kind: 'notice', id: 3, level: 'info', text: 'session saved' };
    // The first batch (a header, a resumed tail) is drawn by Ink, replies included.
    expect(printsOutsideInk([...prompts(3), reply], 100, true)).toBe(false);
    // Later, a reply's paragraphs are text made outside Ink; other small items stay in Ink.
    expect(printsOutsideInk([reply], 100, false)).toBe(true);
    expect(printsOutsideInk([{ ...reply, continued: true }, notice], 100, false)).toBe(true);
    expect(printsOutsideInk([notice, ...prompts(2)], 100, false)).toBe(false);
    // Too big for one layout, or past the turn's budget: outside, first batch or not.
    expect(printsOutsideInk([{ ...reply, text: 'x'.repeat(STATIC_BUDGET + 1) }], 0, true)).toBe(true);
    expect(printsOutsideInk([notice], TURN_BUDGET + 1, true)).toBe(true);
  });
});
