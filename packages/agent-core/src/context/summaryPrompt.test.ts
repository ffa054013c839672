import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../providers/types.ts';
import { buildSummaryPrompt, makeSummaryMessage, waterLevel } from './summaryPrompt.ts';
import { estimatePromptTokens } from './tokens.ts';

describe('summary prompt', () => {
  it('shortens only the longest messages to fit, keeping their start and end', () => {
    expect(waterLevel([10, 20, 1000], 200)).toBe(170);
    expect(waterLevel([10, 20], 200)).toBe(Number.POSITIVE_INFINITY);
    const middle: ChatMessage[] = [
      { role: 'user', content: 'goal-7 find the leak' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'terminal', arguments: '{"command":"ps"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: `START ${'x'.repeat(40_000)} END` },
    ];
    const text = buildSummaryPrompt(middle, { targetTokens: 500, maxTranscriptTokens: 2000 })[1].content ?? '';
    expect(text).toContain('goal-7 find the leak');
    expect(text).toContain('-> calls terminal {"command":"ps"}');
    expect(text).toContain('### tool result (terminal)\nSTART');
    expect(text).toMatch(/characters omitted[^]*END/);
    expect(text.length).toBeLessThan(10_000);
  });

  it('drops the oldest messages, never an earlier summary, when the window is too small for all of them', () => {
    const earlier = makeSummaryMessage('goal-1 was done');
    const middle: ChatMessage[] = [earlier];
    for (let i = 2; i < 400; i += 1) middle.push({ role: 'user', content: `goal-${i} ${'word '.repeat(30)}` });
    const prompt = buildSummaryPrompt(middle, { targetTokens: 200, maxTranscriptTokens: 1500 });
    const text = prompt[1].content ?? '';
    expect(text).toContain('EARLIER SUMMARY');
    expect(text).toContain('goal-1 was done');
    expect(text).toMatch(/\[\d+ older messages omitted/);
    expect(text).toContain('goal-399');
    expect(text).not.toContain('goal-2 ');
    expect(estimatePromptTokens(prompt)).toBeLessThan(1500 + 600);
  });
});
