import { stripVTControlCharacters } from 'node:util';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { createComposerSideStore, createComposerStore, type ComposerSide } from '../state/composerStore.ts';
import { overflowing, renderRows, renderStyled, stylesAt } from '../testing/renderFrame.ts';
import { caretCell, Composer, composerRows, composerSideRows, fitPlaceholder, MAX_COMPOSER_LINES } from './Composer.tsx';

const composer = (draft: string, cursor = draft.length) => {
  const store = createComposerStore();
  store.setState({ draft, cursor });
  return store;
};
const draw = (draft: string, cursor?: number, { busy = false, columns = 80 } = {}) =>
  renderRows(<Composer store={composer(draft, cursor)} busy={busy} placeholder="Ask hermes anything" width={columns} />, columns);
const styled = (draft: string, cursor?: number, busy = false) =>
  renderStyled(<Composer store={composer(draft, cursor)} busy={busy} placeholder="Ask hermes anything" width={80} />, 80);

const withSide = (side: ComposerSide, columns = 60) => {
  const store = createComposerSideStore();
  store.setState(side);
  const rows = renderRows(<Composer store={composer('')} side={store} busy placeholder="Ask hermes anything" width={columns} />, columns);
  return { rows, counted: composerRows('', 0, columns) + composerSideRows(side, columns) };
};

describe('Composer queue and history search', () => {
  it('lists the queued prompts under the draft, oldest first, one line each cut to the width, and counts the rows it takes', () => {
    const { rows, counted } = withSide({ queued: ['first queued', 'a second one that is far too long to fit on one line of this narrow composer', 'three\nlines\nhere'] });
    expect(rows.slice(2)).toEqual([
      '⏵ queued: first queued',
      '⏵ queued: a second one that is far too long to fit on one…',
      '⏵ queued: three lines here',
      '  sent in order when the turn ends · ↑ on an empty prompt…',
    ]);
    expect(rows).toHaveLength(counted);
  });

  it('counts what it does not list when more are queued', () => {
    const { rows, counted } = withSide({ queued: ['a', 'b', 'c', 'd', 'e'] });
    expect(rows.slice(2, 6)).toEqual(['⏵ queued: a', '⏵ queued: b', '⏵ queued: c', '  +2 more queued']);
    expect(rows).toHaveLength(counted);
  });

  it('shows a Ctrl+R search with its match, or that nothing matches', () => {
    expect(withSide({ queued: [], search: { query: 'git', match: { index: 0, text: 'git status' } } }).rows.at(-1)).toBe("(reverse-i-search)`git': git status");
    expect(withSide({ queued: [], search: { query: 'zz' } }).rows.at(-1)).toBe("(reverse-i-search)`zz': (no match)");
    expect(withSide({ queued: [] }).rows).toHaveLength(2);
  });
});

describe('Composer', () => {
  it('under a rule, shows the prompt mark, the cursor and the placeholder when empty', () => {
    const rows = draw('');
    expect(rows).toEqual(['─'.repeat(80), '❯   Ask hermes anything']);
    expect(stylesAt(styled(''), '❯')).toEqual(['bold', 'cyan']);
    expect(stylesAt(styled(''), 'Ask hermes')).toEqual(['dim']);
  });

  it('keeps the placeholder to its one row: without its trailing hints, then cut with an ellipsis', () => {
    const hinted = 'hermes is answering; Enter queues your next prompt · Esc interrupts';
    const rowsAt = (columns: number) => renderRows(<Composer store={composer('')} busy placeholder={hinted} width={columns} />, columns);
    expect(rowsAt(80)[1]).toBe(`❯   ${hinted}`);
    expect(rowsAt(60)).toEqual(['─'.repeat(60), '❯   hermes is answering; Enter queues your next prompt']);
    expect(rowsAt(30)).toEqual(['─'.repeat(30), '❯   hermes is answering; Ente…']);
    for (const columns of [80, 71, 70, 55, 54, 40, 20, 8, 5]) {
      const rows = rowsAt(columns);
      expect(rows, `${columns} columns`).toHaveLength(2);
      expect(stringWidth(rows[1]!), `${columns} columns`).toBeLessThanOrEqual(columns);
    }
  });

  it('fits a placeholder by the cells it takes, hint by hint', () => {
    expect(fitPlaceholder('a · b · c', 4 + 9)).toBe('a · b · c');
    expect(fitPlaceholder('a · b · c', 4 + 8)).toBe('a · b');
    expect(fitPlaceholder('a · b · c', 4 + 1)).toBe('a');
    // Wide characters take two cells each.
    expect(fitPlaceholder('数据库搜索', 4 + 10)).toBe('数据库搜索');
    expect(fitPlaceholder('数据库搜索', 4 + 9)).toBe('数据库搜…');
    expect(fitPlaceholder('anything', 4)).toBe('');
  });

  it('draws the cursor on the character it is on, and after the end as a block', () => {
    expect(draw('hello world', 6)[1]).toBe('❯ hello world');
    expect(stylesAt(styled('hello world', 6), 'world')).toEqual(['inverse']);
    expect(stylesAt(styled('hello world', 6), 'hello')).toEqual([]);
    expect(stylesAt(styled('naïve 👍🏽 ok', 6), '👍🏽')).toEqual(['inverse']);
    const end = styled('hello');
    expect(end).toContain('\x1b[7m \x1b[27m');
  });

  it('shows a multiline draft with the cursor on its line, and at most the lines around the cursor', () => {
    expect(draw('first line\nsecond line\nthird', 14)).toEqual(['─'.repeat(80), '❯ first line', '  second line', '  third']);
    expect(stylesAt(styled('first line\nsecond line\nthird', 14), 'ond line')).toEqual(['inverse']);
    expect(stylesAt(styled('first line\nsecond line\nthird', 14), 'first')).toEqual([]);
    const long = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n');
    const rows = draw(long, long.indexOf('line 12'));
    expect(rows.slice(1)).toEqual(Array.from({ length: MAX_COMPOSER_LINES }, (_, i) => `  line ${i + 5}`));
    expect(composerRows(long, long.indexOf('line 12'), 80)).toBe(MAX_COMPOSER_LINES + 1);
  });

  it('dims the draft while hermes is answering, and keeps it', () => {
    expect(draw('next question', undefined, { busy: true })[1]).toBe('❯ next question');
    expect(stylesAt(styled('next question', undefined, true), 'next')).toEqual(['dim']);
    expect(stylesAt(styled('next question', undefined, true), '❯')).toEqual(['dim', 'gray']);
  });

  it('wraps a long line at 40 columns inside the width', () => {
    const rows = draw('please refactor the parser so that it handles nested quotes', undefined, { columns: 40 });
    expect(overflowing(rows, 40)).toEqual([]);
    expect(rows.slice(1).join(' ').replace(/\s+/g, ' ')).toBe('❯ please refactor the parser so that it handles nested quotes');
  });

  it('takes the rows it says it takes, long and wide lines wrapped included (App budgets the screen with them)', () => {
    const drafts: [string, number][] = [
      ['', 0],
      ['short', 5],
      ['please refactor the parser so that it handles nested quotes', 10],
      ['x'.repeat(38), 38],
      ['日本語の文章をここに書いています。とても長いのでこの幅では折り返されます。', 3],
      [`first\n${'word '.repeat(20)}\nlast 👨‍👩‍👧 ok`, 2],
      [Array.from({ length: 12 }, (_, i) => `${'long line '.repeat(5)}${i}`).join('\n'), 30],
    ];
    for (const [draft, cursor] of drafts)
      for (const columns of [40, 80]) expect(draw(draft, cursor, { columns }), `${JSON.stringify(draft.slice(0, 12))} at ${columns}`).toHaveLength(composerRows(draft, cursor, columns));
  });
});

describe('Composer caret cell', () => {
  // The inverse cell is drawn where caretCell says the terminal cursor goes: the two must agree on every row and column.
  const drawnCaret = (draft: string, cursor: number, columns: number) => {
    const frame = renderStyled(<Composer store={composer(draft, cursor)} busy={false} placeholder="" width={columns} />, columns);
    const rows = frame.split('\n');
    const row = rows.findIndex((text) => text.includes('\x1b[7m'));
    return { row, x: stringWidth(stripVTControlCharacters(rows[row].slice(0, rows[row].indexOf('\x1b[7m')))) };
  };

  it('is where the drawn caret is, in wrapped lines, after wide characters and on later lines', () => {
    const cases: [string, number, number][] = [
      ['', 0, 40],
      ['hello', 5, 40],
      ['hello world', 6, 40],
      ['first line\n你好 wide 世界', 19, 40],
      ['你好世界你好世界你好世界你好世界你好世界你好世界', 23, 20],
      ['a rather long line that wraps over several rows of a narrow composer', 50, 20],
      ['a rather long line that wraps over several rows of a narrow composer', 68, 20],
      ['one\ntwo\n三四五六七八九十一二三四五六', 12, 12],
      ['x'.repeat(18), 18, 20],
    ];
    for (const [draft, cursor, columns] of cases) expect(caretCell(draft, cursor, columns), `${JSON.stringify(draft)} at ${cursor}`).toEqual(drawnCaret(draft, cursor, columns));
  });

  it('draws no inverse cell when the terminal cursor is placed, and none while a card has the keys', () => {
    const frame = (focused: boolean) => renderStyled(<Composer store={composer('hello')} busy={false} placeholder="" width={40} terminalCursor focused={focused} />, 40);
    expect(frame(true)).not.toContain('\x1b[7m');
    expect(frame(false)).not.toContain('\x1b[7m');
    expect(stripVTControlCharacters(frame(true))).toContain('❯ hello');
  });
});
