import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { insideBorder, overflowing, renderRows, renderStyled, stylesAt } from '../testing/renderFrame.ts';
import { clarifyPrompt } from '../testing/viewFixtures.ts';
import { ClarifyCard, inputWindow } from './ClarifyCard.tsx';

const QUESTION = 'Which database should the migration target? There are several configured in this project and the choice matters a lot.';
const CHOICES = ['postgres (production)', 'sqlite (local development)', 'mysql'];

describe('ClarifyCard', () => {
  it('cuts CJK choices within the card wherever a wide character falls at its edge, and spells out control characters', () => {
    const cjk = '你想要哪种颜色的主题呢这是一个很长的问题需要换行显示在窄终端上面测试一下宽字符的处理';
    const prompt = clarifyPrompt('Which?', { choices: [cjk, `x${cjk}`, 'a\x1b[31mb'] });
    for (const columns of [57, 58, 59, 60, 61]) {
      const rows = renderRows(<ClarifyCard prompt={prompt} queued={0} width={columns} maxRows={16} />, columns);
      expect(overflowing(rows, columns), `at ${columns} columns`).toEqual([]);
      expect(rows.filter((row) => row.includes('你')).every((row) => /… *│$/.test(row))).toBe(true);
      expect(rows.some((row) => row.includes('3 a\\x1b[31mb'))).toBe(true);
    }
  });

  it('shows the question wrapped, the numbered choices and "Type an answer…", the selected one marked, and the keys', () => {
    const prompt = clarifyPrompt(QUESTION, { choices: CHOICES, selected: 1 });
    expect(insideBorder(renderRows(<ClarifyCard prompt={prompt} queued={1} width={60} maxRows={16} />, 60))).toEqual([
      '? Which database should the migration target? There are',
      '  several configured in this project and the choice',
      '  matters a lot.',
      '',
      '  1 postgres (production)',
      '❯ 2 sqlite (local development)',
      '  3 mysql',
      '  4 Type an answer…',
      '› type to answer in your own words',
      '↑/↓ move · Enter send · Esc decline · 1 more waiting',
    ]);
    const styled = renderStyled(<ClarifyCard prompt={prompt} queued={1} width={60} maxRows={16} />, 60);
    expect(stylesAt(styled, '❯ 2 sqlite')).toEqual(['bold', 'cyan']);
    expect(stylesAt(styled, '3 mysql')).toEqual(['dim']);
  });

  it('folds a long question and scrolls the choices when the card is short', () => {
    const prompt = clarifyPrompt(`${QUESTION} ${QUESTION} ${QUESTION}`, { choices: [...CHOICES, 'oracle', 'mssql'], selected: 4 });
    const rows = renderRows(<ClarifyCard prompt={prompt} queued={0} width={40} maxRows={12} />, 40);
    expect(rows).toHaveLength(12);
    const body = rows.join('\n');
    expect(body).toMatch(/… \+\d+ more lines/);
    expect(body).toContain('❯ 5 mssql');
    expect(body).not.toContain('1 postgres');
  });

  it('while typing shows the answer with the cursor on its character, and no choices when there are none', () => {
    const prompt = clarifyPrompt('Name the branch', { text: 'fix-login', cursor: 4 });
    const rows = renderRows(<ClarifyCard prompt={prompt} queued={0} width={40} maxRows={10} />, 40);
    expect(insideBorder(rows)).toEqual(['? Name the branch', '› fix-login', 'Enter send · Esc decline']);
    const styled = renderStyled(<ClarifyCard prompt={prompt} queued={0} width={40} maxRows={10} />, 40);
    expect(stylesAt(styled, 'l')).toEqual(['inverse']);
    expect(stylesAt(styled, 'fix-')).toEqual([]);
  });

  it('keeps the cursor in view in a long CJK answer and never draws past the border', () => {
    const text = '日本語の名前をここに入力してくださいね、とても長い名前です';
    const at = (cursor: number) => renderRows(<ClarifyCard prompt={clarifyPrompt('Name?', { text, cursor })} queued={0} width={30} maxRows={10} />, 30);
    // 24 columns for the answer: eleven characters of two columns and the cursor after them.
    expect(at(text.length)[2]).toBe('│ › ね、とても長い名前です   │');
    expect(at(0)[2]).toBe('│ › 日本語の名前をここに入力 │');
    for (const cursor of [0, 9, 20, text.length]) expect(overflowing(at(cursor), 30)).toEqual([]);
  });
});

describe('inputWindow', () => {
  it('moves by whole emoji sequences and measures them as two columns each', () => {
    const family = '👨‍👩‍👧';
    const window = inputWindow(family.repeat(20), family.length * 20, 10);
    // Room for 9 columns besides the cursor: four families (8 columns), none split.
    expect(window).toEqual({ before: family.repeat(4), at: ' ', after: '' });
    const middle = inputWindow(`${family}abc${family}`, family.length + 1, 6);
    expect(middle.at).toBe('b');
    expect(stringWidth(middle.before + middle.at + middle.after)).toBeLessThanOrEqual(6);
    expect(middle.after.endsWith('\u200d')).toBe(false);
  });
});
