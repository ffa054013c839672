import { describe, expect, it } from 'vitest';
import { scanParagraphs, splitFinishedParagraphs, type ParagraphScan } from './paragraphSplit.ts';

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

/** Streams `text` in `pieces`-sized deltas through the incremental scan, as the reducer does. */
function streamScan(text: string, piece: number) {
  const heads: string[] = [];
  let live = '';
  let scan: ParagraphScan | undefined;
  for (let at = 0; at < text.length; at += piece) {
    live += text.slice(at, at + piece);
    const result = scanParagraphs(live, scan);
    scan = result.scan;
    if (result.split) {
      heads.push(result.split.head);
      live = result.split.rest;
    }
  }
  return { heads, live, scan: scan! };
}

/** The same, rescanning the whole live text each time: what the incremental scan must match. */
function streamWhole(text: string, piece: number) {
  const heads: string[] = [];
  let live = '';
  for (let at = 0; at < text.length; at += piece) {
    live += text.slice(at, at + piece);
    const split = splitFinishedParagraphs(live);
    if (split) {
      heads.push(split.head);
      live = split.rest;
    }
  }
  return { heads, live };
}

describe('scanParagraphs (incremental)', () => {
  const TEXT = ['Intro line', '', '  ', 'Second\nstill second', '', '```sh', 'echo a', '', '', 'echo b', '```', '', '~~~', 'x', '~~~', 'Tail', '', '', 'last'].join('\n');

  it('commits exactly what a rescan of the whole live text would, whatever the delta size', () => {
    for (const piece of [1, 2, 3, 5, 7, 16, TEXT.length]) {
      const incremental = streamScan(TEXT, piece);
      expect({ heads: incremental.heads, live: incremental.live }, `deltas of ${piece}`).toEqual(streamWhole(TEXT, piece));
      expect(incremental.scan.newlines, `deltas of ${piece}`).toBe(incremental.live.split('\n').length - 1);
    }
  });

  it('reads each line once: a grown text is read from where the last scan stopped', () => {
    const first = scanParagraphs('```\na\n\nb\npart');
    expect(first.split).toBeUndefined();
    expect(first.scan).toEqual({ lineStart: 9, inFence: true, newlines: 4, fenceInfo: '' });
    const grown = scanParagraphs('```\na\n\nb\npartial\n\nmore', first.scan);
    expect(grown.split).toBeUndefined();
    expect(grown.scan).toEqual({ lineStart: 18, inFence: true, newlines: 6, fenceInfo: '' });
    // What was read is not read again: told the first line opened a fence, the scan believes it.
    const text = 'plain\n\nmore';
    expect(scanParagraphs(text).split).toEqual({ head: 'plain', rest: 'more' });
    expect(scanParagraphs(text, { lineStart: 6, inFence: true, newlines: 1 }).split).toBeUndefined();
  });

  it("keeps the open fence's info string (its language), from the line that opened it", () => {
    const info = (text: string) => {
      const { scan } = scanParagraphs(text);
      return scan.inFence ? scan.fenceInfo : undefined;
    };
    expect(info('Here:\n```ts\nconst a = 1;')).toBe('ts');
    expect(info('```py\nx = 1\n```\nand then\n  ~~~ sh title="run"\nls -la')).toBe('sh title="run"');
    expect(info('```ts\r\nconst a = 1;\r\n')).toBe('ts');
    expect(info('```\nplain')).toBe('');
    expect(info('```py\nx = 1\n```\nno fence open')).toBeUndefined();
    // Read as it streams: the info survives a split and later lines of the block.
    const streamed = streamScan('Intro.\n\n```rust\nfn main() {}\n\nlet x = 1;\n', 3);
    expect(streamed.scan).toMatchObject({ inFence: true, fenceInfo: 'rust' });
  });
});
