import { describe, expect, it } from 'vitest';
import type { SessionUsage } from './events.ts';
import { addCallUsage, titleFrom } from './sessionMeta.ts';

const response = (input: number, output: number) => ({ text: '', reasoning: '', toolCalls: [], finishReason: 'stop', usage: { input, output, reasoning: 0 } });

describe('session bookkeeping', () => {
  it('titles a session after the first non-empty line of its first prompt, cut at 60 characters', () => {
    expect(titleFrom('\n\n  Fix   the\tbuild  \nplease')).toBe('Fix the build');
    const long = titleFrom('x'.repeat(100));
    expect(long).toHaveLength(60);
    expect(long.endsWith('…')).toBe(true);
    expect(titleFrom('   \n  ')).toBe('');
  });

  it('sums tokens and cost per call, and reports how full the context is', () => {
    const usage: SessionUsage = { model: 'm', input: 0, output: 0, reasoning: 0, total: 0, calls: 0 };
    const pricing = { input: 2, output: 10 };
    expect(addCallUsage(usage, response(100, 20), 1000, pricing)).toEqual({ input: 100, output: 20, reasoning: 0, costUsd: 0.0004 });
    addCallUsage(usage, response(150, 30), 1000, pricing);
    expect(usage).toMatchObject({ input: 250, output: 50, total: 300, calls: 2, context_used: 150, context_max: 1000, context_percent: 15 });
    expect(usage.cost_usd).toBeCloseTo(0.001, 12);
    expect(addCallUsage(usage, { ...response(0, 0), usage: null }, 1000)).toBeNull();
    expect(usage.calls).toBe(3);
  });

  it("counts a side call's tokens (smart approval's guardian) without taking it for the conversation's context", () => {
    const usage: SessionUsage = { model: 'm', input: 0, output: 0, reasoning: 0, total: 0, calls: 0 };
    addCallUsage(usage, response(900, 40), 1000);
    addCallUsage(usage, response(60, 10), 1000, undefined, true);
    expect(usage).toMatchObject({ input: 960, output: 50, total: 1010, calls: 2, context_used: 900, context_percent: 90 });
  });
});
