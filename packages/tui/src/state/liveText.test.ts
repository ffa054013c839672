import { describe, expect, it } from 'vitest';
import type { HermesEvent } from '@hermes/rpc-server/protocol';
import { liveWindow } from '../markdown/liveReply.ts';
import { openResult } from '../testing/sessionFixtures.ts';
import { LIVE_PIECE, liveReader, PiecedText, wholeLiveText } from './liveText.ts';
import { reduce } from './reducer.ts';
import { initialViewState, type ViewState } from './viewState.ts';

/** A seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/** `text` cut at random places, with empty pieces among them. */
function cut(text: string, next: () => number): string[] {
  const pieces: string[] = [];
  let at = 0;
  while (at < text.length) {
    const size = next() < 0.1 ? 0 : 1 + Math.floor(next() * 12);
    pieces.push(text.slice(at, at + size));
    at += size;
  }
  return pieces;
}

describe('PiecedText', () => {
  it('reads as the string its pieces join to', () => {
    const next = random(7);
    for (let round = 0; round < 200; round += 1) {
      const text = Array.from({ length: Math.floor(next() * 60) }, () => 'ab\n x'[Math.floor(next() * 5)]).join('');
      const pieces = new PiecedText(cut(text, next));
      expect(pieces.length).toBe(text.length);
      for (let from = -2; from <= text.length + 2; from += 1) {
        expect(pieces.indexOf('\n', from), `indexOf ${JSON.stringify(text)} ${from}`).toBe(text.indexOf('\n', from));
        expect(pieces.lastIndexOf('\n', from), `lastIndexOf ${JSON.stringify(text)} ${from}`).toBe(text.lastIndexOf('\n', from));
        expect(pieces.slice(from < 0 ? 0 : from)).toBe(text.slice(from < 0 ? 0 : from));
        expect(pieces.slice(Math.max(0, from - 3), from + 4)).toBe(text.slice(Math.max(0, from - 3), from + 4));
      }
      expect(pieces.indexOf('\n')).toBe(text.indexOf('\n'));
      expect(pieces.lastIndexOf('\n')).toBe(text.lastIndexOf('\n'));
    }
  });

  it("finds the live window a whole string would, reading only the text's end", () => {
    const next = random(11);
    const lines = Array.from({ length: 400 }, (_, index) => `line ${index} ${'word '.repeat(Math.floor(next() * 30))}`);
    const long = `${'x'.repeat(5_000)}\n${lines.join('\n')}\n${'y'.repeat(9_000)}`;
    for (const text of [lines.join('\n'), long, long.slice(0, 4_000)]) {
      const pieces = new PiecedText(cut(text, next));
      const newlines = text.split('\n').length - 1;
      for (const [width, rows] of [[80, 10], [40, 3], [200, 40]] as const) {
        expect(liveWindow(pieces, width, rows, newlines)).toEqual(liveWindow(text, width, rows, newlines));
        expect(liveWindow(pieces, width, rows)).toEqual(liveWindow(text, width, rows));
      }
    }
  });
});

describe('the live text of a long reply', () => {
  const ev = (type: string, payload?: unknown): HermesEvent => ({ type, session_id: 's1', payload }) as HermesEvent;

  function streamed(reply: string, size: number): { states: ViewState[]; done: ViewState } {
    let state = reduce(initialViewState(), { type: 'local.sessionOpened', result: openResult('s1', []) });
    state = reduce(state, ev('message.start'));
    const states: ViewState[] = [];
    for (let at = 0; at < reply.length; at += size) {
      state = reduce(state, ev('message.delta', { text: reply.slice(at, at + size) }));
      states.push(state);
    }
    return { states, done: reduce(state, ev('message.complete', { text: '', status: 'complete' })) };
  }

  const assistantTexts = (state: ViewState) => state.transcript.flatMap((item) => (item.kind === 'assistant' ? [item.text] : []));

  it('grows only its last piece while a code block stays open, and commits all of it', () => {
    const code = Array.from({ length: 12_000 }, (_, index) => `  const value${index} = compute(${index});`).join('\n');
    const reply = `Here it is:\n\n\`\`\`ts\n${code}\n\`\`\`\n\nThat is all.`;
    const { states, done } = streamed(reply, 997);
    const open = states.filter((state) => state.live?.scan?.inFence).at(-1)!.live!;
    expect(open.earlier!.length).toBeGreaterThan(reply.length / LIVE_PIECE / 2);
    for (const state of states) expect(state.live!.text.length).toBeLessThanOrEqual(LIVE_PIECE + 997);
    expect(wholeLiveText(open)).toBe(reply.slice('Here it is:\n\n'.length, wholeLiveText(open).length + 'Here it is:\n\n'.length));
    expect(liveReader(open).length).toBe(wholeLiveText(open).length);
    expect(open.scan).toMatchObject({ inFence: true, fenceInfo: 'ts', newlines: wholeLiveText(open).split('\n').length - 1 });
    expect(assistantTexts(done)).toEqual(['Here it is:', `\`\`\`ts\n${code}\n\`\`\``, 'That is all.']);
  });

  it('commits whole paragraphs, all of the text, whatever the size of its deltas', () => {
    const block = (index: number) => ['Paragraph', index, ...Array<string>(index * 50).fill('is long')].join(' ');
    const reply = Array.from({ length: 40 }, (_, index) => block(index)).join('\n\n');
    for (const size of [1_000, 7_919, 40_000, reply.length]) {
      const texts = assistantTexts(streamed(reply, size).done);
      expect(texts.join('\n\n'), `deltas of ${size}`).toBe(reply);
      expect(texts.every((text) => text.startsWith('Paragraph ')), `deltas of ${size}`).toBe(true);
      if (size < 10_000) expect(texts.length, `deltas of ${size}`).toBeGreaterThan(20);
    }
  });
});
