import { describe, expect, it } from 'vitest';
import { splitFinishedParagraphs } from './paragraphSplit.ts';

describe('splitFinishedParagraphs', () => {
  it('commits finished paragraphs and keeps the one being written', () => {
    expect(splitFinishedParagraphs('First.\n\nSecond.\n\nThird is stre')).toEqual({
      head: 'First.\n\nSecond.',
      rest: 'Third is stre',
    });
  });

  it('keeps a single unfinished paragraph live', () => {
    expect(splitFinishedParagraphs('Only one line so far')).toBeUndefined();
    expect(splitFinishedParagraphs('Line one\nline two')).toBeUndefined();
  });

  it('never splits inside a code fence', () => {
    const text = 'Look:\n\n```js\nconst a = 1;\n\nconst b = 2;\n';
    expect(splitFinishedParagraphs(text)).toEqual({ head: 'Look:', rest: '```js\nconst a = 1;\n\nconst b = 2;\n' });
  });

  it('splits after a closed code fence', () => {
    const text = '```\ncode\n\nmore\n```\n\nAfter';
    expect(splitFinishedParagraphs(text)).toEqual({ head: '```\ncode\n\nmore\n```', rest: 'After' });
  });

  it('does not commit leading blank lines alone', () => {
    expect(splitFinishedParagraphs('\n\nHello')).toBeUndefined();
  });
});
