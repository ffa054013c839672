import { describe, expect, it } from 'vitest';
import { TranscriptEntry } from '../components/TranscriptEntry.tsx';
import { loadMarkdown } from '../markdown/loadMarkdown.ts';
import type { TranscriptItem } from '../state/viewState.ts';
import { renderStyled, styledRuns, toRows } from '../testing/renderFrame.ts';
import { sessionInfo, tool } from '../testing/viewFixtures.ts';
import chalk from 'chalk';
import { itemText, MARKDOWN_LIMIT } from './itemText.tsx';

/** The text made outside Ink, with basic colours on as renderStyled has them. */
function styledText(item: TranscriptItem, width: number): string {
  const level = chalk.level;
  chalk.level = 1;
  try {
    return itemText(item, width);
  } finally {
    chalk.level = level;
  }
}

const REPLY = [
  'The **build** fails because `npm ci` runs before the cache is restored:',
  '',
  '1. The cache key changed when the lock file moved, so nothing was restored.',
  '2. See 数据库迁移方案 in the notes — 日本語のテキスト wraps by cells.',
  '',
  '```ts',
  "const key = hash('package-lock.json');",
  '```',
  '',
  'Fix the key and it passes.',
].join('\n');

describe('itemText', () => {
  it('draws prompts and replies as TranscriptEntry does: the same rows and styles, markdown and CJK included', async () => {
    await loadMarkdown();
    const items: TranscriptItem[] = [
      { kind: 'user', id: 1, text: 'please explain why the build fails on CI but passes locally on my machine' },
      { kind: 'user', id: 2, text: '请检查配置文件是否正确，这个函数的性能有问题，我们需要一个数据库迁移方案' },
      { kind: 'assistant', id: 3, text: REPLY, continued: false },
      { kind: 'assistant', id: 4, text: 'So it rebuilt.', continued: true },
      { kind: 'assistant', id: 5, text: 'I was saying', continued: false, status: 'interrupted' },
      { kind: 'assistant', id: 6, text: 'Partial', continued: false, status: 'error', error: 'rate limited' },
    ];
    for (const width of [40, 80]) {
      for (const item of items) {
        const ink = renderStyled(<TranscriptEntry item={item} width={width} />, width);
        expect(toRows(styledText(item, width))).toEqual(toRows(ink));
        expect(styledRuns(styledText(item, width))).toEqual(styledRuns(ink));
      }
    }
  });

  it('draws other kinds through Ink itself', () => {
    const items: TranscriptItem[] = [
      { kind: 'header', id: 1, info: sessionInfo() },
      { kind: 'tool', id: 2, tool: tool() },
      { kind: 'notice', id: 3, level: 'warn', text: 'context is 90% full' },
    ];
    for (const item of items) expect(styledText(item, 60)).toBe(renderStyled(<TranscriptEntry item={item} width={60} />, 60));
  });

  it('wraps a reply too long for markdown as plain text, every line kept', () => {
    const lines = Array.from({ length: 2_000 }, (_, i) => `line ${i} **not bold** ${'x'.repeat(90)}`);
    const text = itemText({ kind: 'assistant', id: 1, text: lines.join('\n'), continued: false }, 50);
    expect(lines.join('\n').length).toBeGreaterThan(MARKDOWN_LIMIT);
    const rows = toRows(text);
    expect(rows[1]).toBe('● line 0 **not bold**');
    expect(rows.every((row) => row.length <= 50)).toBe(true);
    expect(rows.join('').replace(/[ ●]/g, '')).toBe(lines.join('').replace(/ /g, ''));
  });

  it("draws the last blocks of a reply too long for markdown as markdown: its end looks the same however the stream was batched", async () => {
    await loadMarkdown();
    const paragraphs = Array.from({ length: 4_000 }, (_, i) => `paragraph ${i} with **bold** words`);
    const text = `${paragraphs.join('\n\n')}\n\n\`\`\`\ninside the fence is code\n\`\`\`\n\nthe **last** words`;
    expect(text.length).toBeGreaterThan(MARKDOWN_LIMIT);
    const rows = toRows(itemText({ kind: 'assistant', id: 1, text, continued: false }, 80));
    // The head is plain text...
    expect(rows[1]).toBe('● paragraph 0 with **bold** words');
    // ...the end is markdown: no fence marks, no asterisks, the same rows as the end drawn alone.
    expect(rows.slice(-5)).toEqual(['  paragraph 3999 with bold words', '', '    inside the fence is code', '', '  the last words']);
    // Every paragraph once, in order.
    expect(rows.filter((row) => /paragraph \d+/.test(row)).map((row) => Number(/paragraph (\d+)/.exec(row)![1]))).toEqual(paragraphs.map((_, i) => i));
  });
});
