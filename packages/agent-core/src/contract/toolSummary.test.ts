import { describe, expect, it } from 'vitest';
import { summarizeResult } from './toolSummary.ts';

describe('summarizeResult', () => {
  it('keeps a one-line result as it is', () => {
    expect(summarizeResult('ok')).toBe('ok');
  });

  it('gives the first line and how many lines follow', () => {
    expect(summarizeResult('1|a\n2|b\n3|c')).toBe('1|a (+2 lines)');
  });

  it('shortens a long first line to 60 characters', () => {
    expect(summarizeResult(`${'x'.repeat(80)}\nmore`)).toBe(`${'x'.repeat(59)}… (+1 lines)`);
  });
});
