import stringWidth from 'string-width';
import { beforeAll, describe, expect, it } from 'vitest';
import { inkRows } from '../layout/inkRows.ts';
import { textTail } from '../layout/textTail.ts';
import { displayText } from '../layout/visibleText.ts';
import { liveReplyTail, liveWindow } from './liveReply.ts';
import { loadMarkdown, type MarkdownState } from './loadMarkdown.ts';

let markdown: MarkdownState;
beforeAll(async () => {
  markdown = { status: 'ready', module: await loadMarkdown() };
});

const WIDTH = 60;
const ROWS = 12;
const newlinesIn = (text: string) => text.split('\n').length - 1;

/** A code block still being written, `lines` long, its lines of mixed lengths (some wrap). */
function openFence(lines: number): string {
  const body = Array.from({ length: lines }, (_, i) => (i % 7 === 3 ? `  const long${i} = [${'item, '.repeat(i % 30)}];` : `line ${i}`));
  return ['Here is the file:', '', '```ts', ...body].join('\n');
}

describe('the live reply laid out from its end only', () => {
  it('a long open block shows the same rows and hidden-line count as laying out all of it', () => {
    for (const lines of [200, 5_000, 200_000]) {
      const text = openFence(lines);
      const tail = liveReplyTail(text, markdown, WIDTH, ROWS, newlinesIn(text));
      // The open block is plain while streamed; everything above it is off screen.
      const whole = textTail(displayText(text), WIDTH, ROWS);
      expect(tail, `${lines} lines`).toEqual({ ...whole, text: whole.text.split('\n').flatMap((line) => inkRows(line, WIDTH)).join('\n') });
      expect(liveReplyTail(text, markdown, WIDTH, ROWS), `${lines} lines, newlines counted by the tail`).toEqual(tail);
    }
  });

  it('keeps a bounded end of a long text, whatever its length', () => {
    const budget = WIDTH * ROWS * 4;
    for (const text of [openFence(200_000), 'word '.repeat(1_000_000), `${'x'.repeat(3_000_000)}\nlast line`]) {
      const { start } = liveWindow(text, WIDTH, ROWS);
      expect(start).toBeGreaterThan(0);
      expect(text.length - start).toBeLessThanOrEqual(2 * budget);
    }
  });

  it('a single line longer than the budget shows its end, cut with a mark, and the cut moves in steps', () => {
    const text = 'word '.repeat(200_000);
    const tail = liveReplyTail(text, markdown, WIDTH, ROWS);
    const rows = tail.text.split('\n');
    expect(rows).toHaveLength(ROWS);
    expect(rows[0]!.startsWith('…')).toBe(true);
    expect(tail.text.endsWith('word word ')).toBe(true);
    expect(tail.hiddenLines).toBe(0);
    // A few more characters do not move the cut: the rows above the new text stay where they were.
    expect(liveWindow(`${text}more`, WIDTH, ROWS).start).toBe(liveWindow(text, WIDTH, ROWS).start);
  });

  it('gives Ink rows that fit, so its layout never wraps them again', () => {
    for (const text of [openFence(5_000), openFence(200_000), 'word '.repeat(200_000), '## Plan\n\nStill **writing** a long line '.repeat(30), '数据库 '.repeat(5_000)]) {
      const rows = liveReplyTail(text, markdown, WIDTH, ROWS).text.split('\n');
      expect(rows.length).toBeLessThanOrEqual(ROWS);
      expect(rows.filter((row) => stringWidth(row) > WIDTH)).toEqual([]);
    }
  });

  it('a short reply still draws its closed blocks as markdown', () => {
    const tail = liveReplyTail('## Plan\n\nStill **writ', markdown, WIDTH, ROWS);
    expect(tail.text).not.toContain('##');
    expect(tail.text).toContain('Still **writ');
  });
});
