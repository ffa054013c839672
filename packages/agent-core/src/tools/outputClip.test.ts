import { describe, expect, it } from 'vitest';
import { clipOutput, OutputCapture } from './outputClip.ts';

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('clipOutput', () => {
  it('fits the limits itself, note included', () => {
    const limits = { maxBytes: 1000, maxLines: 7 };
    const out = clipOutput(numbered(500), limits);
    expect(out.split('\n').filter(Boolean)).toHaveLength(7);
    expect(clipOutput(out, limits)).toBe(out);
  });

  it('leaves output within the limits alone', () => {
    expect(clipOutput('a\nb\n', { maxBytes: 100, maxLines: 2 })).toBe('a\nb\n');
  });

  it('keeps the head and the tail by lines and says how much was cut', () => {
    const out = clipOutput(numbered(20), { maxBytes: 10_000, maxLines: 6 });
    expect(out).toBe(
      'line 1\nline 2\n[… output truncated: 15 lines (113 bytes) cut from the middle; 20 lines, 151 bytes in all …]\nline 18\nline 19\nline 20\n',
    );
  });

  it('cuts by bytes without splitting a multi-byte character', () => {
    const text = 'é'.repeat(1000);
    const out = clipOutput(text, { maxBytes: 400, maxLines: 100 });
    const [head, note, tail] = out.split('\n');
    // 400 bytes less 100 for the note: 150 bytes each side, 75 two-byte characters.
    expect(head).toBe('é'.repeat(75));
    expect(tail).toBe('é'.repeat(75));
    expect(note).toBe('[… output truncated: 1700 bytes cut from the middle; 1 line, 2000 bytes in all …]');
  });
});

describe('a line cut by bytes', () => {
  it('loses the word the cut goes through, so no half of a secret is kept', () => {
    const key = 'Zq81xT0pL4mWv9rKe2Ya7cHsQ3nB6dF0';
    const line = `${'x'.repeat(70)} ${key} ${'m'.repeat(300)} ${key} ${'z'.repeat(60)}`;
    const out = clipOutput(line, { maxBytes: 200, maxLines: 10 });
    expect(out.startsWith(`${'x'.repeat(70)} \n[… output truncated`)).toBe(true);
    expect(out.endsWith(` ${'z'.repeat(60)}`)).toBe(true);
    expect(out).not.toContain(key.slice(0, 4));
    expect(out).not.toContain(key.slice(-4));
  });
});

describe('OutputCapture', () => {
  it('gives the same answer as clipping the whole text, without holding all of it', () => {
    const limits = { maxBytes: 200, maxLines: 10 };
    const capture = new OutputCapture(limits);
    const text = numbered(5000);
    for (let i = 0; i < text.length; i += 37) capture.push(text.slice(i, i + 37));
    expect(capture.text()).toBe(clipOutput(text, limits));
    expect(capture.lastLines(2)).toBe('line 4999\nline 5000');
  });

  it('leaves a word still being written out of the preview (it may be the start of a secret)', () => {
    const capture = new OutputCapture({ maxBytes: 1000, maxLines: 10 });
    capture.push('first line\nKEY=sk-proj-abc');
    expect(capture.lastLines(2)).toBe('first line');
    capture.push('defghijklmnopqrstuvw done\n');
    expect(capture.lastLines(2)).toBe('first line\nKEY=sk-proj-abcdefghijklmnopqrstuvw done');
  });
});
