import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EventBridge, HOLD_DELTAS_BACKLOG_BYTES } from './eventBridge.ts';

const usage = { model: 'm', input: 1, output: 2, reasoning: 0, total: 3, calls: 1 };

describe('EventBridge', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function bridge() {
    const sent: [string, unknown][] = [];
    const b = new EventBridge((type, payload) => sent.push([type, payload]), 16);
    return { b, sent };
  }

  it('coalesces deltas that arrive within the window into one frame', () => {
    const { b, sent } = bridge();
    for (const t of ['a', 'b', 'c ']) b.handle({ type: 'message.delta', payload: { text: t } });
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(16);
    expect(sent).toEqual([['message.delta', { text: 'abc ' }]]);
    b.handle({ type: 'message.delta', payload: { text: 'd ' } });
    vi.advanceTimersByTime(16);
    expect(sent.at(-1)).toEqual(['message.delta', { text: 'd ' }]);
  });

  it('holds back the word still being streamed, so a secret split across frames is redacted whole', () => {
    const { b, sent } = bridge();
    const key = 'sk-proj-Zq81xT0pL4mWv9rKe2Ya7cHs';
    b.handle({ type: 'message.delta', payload: { text: `the key is ${key.slice(0, 10)}` } });
    vi.advanceTimersByTime(16);
    b.handle({ type: 'message.delta', payload: { text: `${key.slice(10)} and more` } });
    vi.advanceTimersByTime(16);
    // The word being written (`more`) waits for the next blank or the end of the stream.
    expect(sent.map(([, p]) => (p as { text: string }).text)).toEqual(['the key is ', 'sk-[REDACTED] and ']);
    b.handle({ type: 'message.complete', payload: { text: `the key is ${key} and more`, status: 'complete', usage } });
    expect(sent.map(([t, p]) => [t, (p as { text?: string }).text])).toEqual([
      ['message.delta', 'the key is '],
      ['message.delta', 'sk-[REDACTED] and '],
      ['message.delta', 'more'],
      ['message.complete', `the key is ${key} and more`],
    ]);
  });

  it('flushes pending deltas before any other event, keeping order', () => {
    const { b, sent } = bridge();
    b.handle({ type: 'message.start' });
    b.handle({ type: 'message.delta', payload: { text: 'Let me ' } });
    b.handle({ type: 'message.delta', payload: { text: 'look.' } });
    b.handle({ type: 'tool.start', payload: { tool_id: 't1', name: 'read_file', context: 'a.txt' } });
    b.handle({ type: 'reasoning.delta', payload: { text: 'hmm' } });
    b.handle({ type: 'message.delta', payload: { text: 'Done' } });
    b.handle({ type: 'message.complete', payload: { text: 'Let me look.Done', status: 'complete', usage } });
    expect(sent.map(([t]) => t)).toEqual([
      'message.start',
      'message.delta',
      'tool.start',
      'reasoning.delta',
      'message.delta',
      'message.complete',
    ]);
    expect(sent[1]).toEqual(['message.delta', { text: 'Let me look.' }]);
    expect(sent.at(-1)).toEqual(['message.complete', { text: 'Let me look.Done', status: 'complete', usage }]);
  });

  it('sends every other event as agent-core emitted it: wire name and payload unchanged', () => {
    const { b, sent } = bridge();
    const complete = { tool_id: 'u', name: 'patch', duration_s: 0.5, summary: 'ok', result: 'ok', inline_diff: '@@ -1 +1 @@\n-a\n+b' };
    b.handle({ type: 'tool.complete', payload: complete });
    b.handle({ type: 'session.title', payload: { title: 'Notes' } });
    b.handle({ type: 'status.update', payload: { kind: 'warn', text: 'retrying' } });
    expect(sent).toEqual([
      ['tool.complete', complete],
      ['session.title', { title: 'Notes' }],
      ['status.update', { kind: 'warn', text: 'retrying' }],
    ]);
  });

  it('while the client is behind, gathers deltas into one frame and sends it once the client catches up', () => {
    const sent: [string, unknown][] = [];
    let backlog = HOLD_DELTAS_BACKLOG_BYTES + 1;
    const b = new EventBridge((type, payload) => sent.push([type, payload]), 16, () => backlog);
    for (let i = 0; i < 100; i += 1) {
      b.handle({ type: 'message.delta', payload: { text: `w${i} ` } });
      vi.advanceTimersByTime(16);
    }
    expect(sent).toEqual([]);
    backlog = 0;
    vi.advanceTimersByTime(16);
    expect(sent).toEqual([['message.delta', { text: Array.from({ length: 100 }, (_, i) => `w${i} `).join('') }]]);
    // Another event still goes at once, after the held text.
    b.handle({ type: 'message.delta', payload: { text: 'end' } });
    backlog = HOLD_DELTAS_BACKLOG_BYTES + 1;
    b.handle({ type: 'message.complete', payload: { text: 'all', status: 'complete', usage } });
    expect(sent.slice(1).map(([t, p]) => [t, (p as { text: string }).text])).toEqual([
      ['message.delta', 'end'],
      ['message.complete', 'all'],
    ]);
  });
});
