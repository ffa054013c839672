import { Box, Text } from 'ink';
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { renderRows } from '../testing/renderFrame.ts';
import { textTail } from './textTail.ts';

/** The rows Ink draws for `text` in a box `width` columns wide, as the live turn draws its tail. */
const drawn = (text: string, width: number) => renderRows(createElement(Box, { width }, createElement(Text, null, text)), width);

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
    expect(result.text).toBe(`${long}\n${long}`);
    expect(result.hiddenLines).toBe(1);
  });

  it('keeps the end of a single line taller than the space', () => {
    const words = Array.from({ length: 400 }, (_, i) => `w${i}`).join(' ');
    const result = textTail(words, 40, 3);
    expect(result.text.startsWith('…')).toBe(true);
    expect(result.text.endsWith('w399')).toBe(true);
    expect(drawn(result.text, 40)).toHaveLength(3);
  });

  it('keeps every line that fits exactly: the rows are counted as Ink wraps them, not with a safety margin', () => {
    const text = ['x'.repeat(40), 'y'.repeat(40), 'z'.repeat(40)].join('\n');
    expect(textTail(text, 40, 3)).toEqual({ text, hiddenLines: 0 });
  });

  it('counts CJK as two columns and an emoji sequence or an accent as the terminal draws it', () => {
    // Each line is exactly 20 columns wide: it takes one row at 20 columns.
    const lines = ['日本語のテキストです', '👨‍👩‍👧 family pics 👍🏽 ok', 'café '.repeat(4).trim() + 'e\u0301'];
    const text = ['first', ...lines].join('\n');
    expect(textTail(text, 20, 3)).toEqual({ text: lines.join('\n'), hiddenLines: 1 });
  });

  it('never needs more rows than it has, whatever the text: word wrap, wide characters, ANSI colour', () => {
    const samples = [
      Array.from({ length: 60 }, (_, i) => `word${i}`).join(' '),
      '中文字符和English混在一起的句子，'.repeat(6),
      `${'\x1b[31mred\x1b[39m '.repeat(30)}\nend`,
      Array.from({ length: 30 }, () => 'short line').join('\n'),
    ];
    for (const sample of samples)
      for (const [width, rows] of [
        [20, 4],
        [33, 5],
      ]) {
        const tail = textTail(sample, width, rows);
        expect(drawn(tail.text, width).length, `${JSON.stringify(sample.slice(0, 20))} at ${width}`).toBeLessThanOrEqual(rows);
      }
  });
});
