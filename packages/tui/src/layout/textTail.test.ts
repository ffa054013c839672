import { describe, expect, it } from 'vitest';
import { textTail } from './textTail.ts';

describe('textTail', () => {
  it('keeps short text whole', () => {
    expect(textTail('one\ntwo', 80, 5)).toEqual({ text: 'one\ntwo', hiddenLines: 0 });
  });

  it('keeps the last lines that fit and counts the hidden ones', () => {
    const text = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n');
    expect(textTail(text, 80, 3)).toEqual({ text: 'line 18\nline 19\nline 20', hiddenLines: 17 });
  });

  it('counts wrapped rows of long lines', () => {
    const long = 'x'.repeat(100);
    const result = textTail(`first\n${long}\n${long}`, 50, 4);
    expect(result.text).toBe(long);
    expect(result.hiddenLines).toBe(2);
  });

  it('keeps the end of a single line taller than the space', () => {
    const words = Array.from({ length: 400 }, (_, i) => `w${i}`).join(' ');
    const result = textTail(words, 40, 3);
    expect(result.text.startsWith('…')).toBe(true);
    expect(result.text.endsWith('w399')).toBe(true);
    expect([...result.text].length).toBeLessThanOrEqual(3 * 40);
  });
});
