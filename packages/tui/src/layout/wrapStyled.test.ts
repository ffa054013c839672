// wrap-ansi's own dependency (the one copy installed), read here to hold rowStyles.ts's table to it.
import ansiStyles from 'ansi-styles';
import { Chalk, type ChalkInstance } from 'chalk';
import stringWidth from 'string-width';
import { afterEach, describe, expect, it, vi } from 'vitest';
import wrapAnsi from 'wrap-ansi';
import { seededRandom as random } from '../../../../scripts/testing/seededRandom.ts';
import { hyperlink } from '../markdown/hyperlinks.ts';
import { MODIFIER_CLOSE } from './rowStyles.ts';
import { charWidth, wrapStyled, type WrapOptions } from './wrapStyled.ts';

/** wrap-ansi, counted: wrapStyled calls it only for text its fast path refuses. */
const fallbacks = vi.hoisted(() => ({ count: 0 }));
vi.mock('wrap-ansi', async (importOriginal) => {
  const actual = (await importOriginal<typeof import('wrap-ansi')>()).default;
  return {
    default: (...args: Parameters<typeof actual>) => {
      fallbacks.count++;
      return actual(...args);
    },
  };
});

const OPTIONS: WrapOptions[] = [{ hard: true }, { hard: true, trim: false }];

/** wrap-ansi's answer, not counted as a fallback. */
function reference(text: string, columns: number, options: WrapOptions): string {
  const before = fallbacks.count;
  const wrapped = wrapAnsi(text, columns, options);
  fallbacks.count = before;
  return wrapped;
}

/** wrapStyled's answer, and whether it took the fast path. */
function ours(text: string, columns: number, options: WrapOptions): { wrapped: string; fast: boolean } {
  const before = fallbacks.count;
  const wrapped = wrapStyled(text, columns, options);
  return { wrapped, fast: fallbacks.count === before };
}

const WORDS = ['the', 'cache', 'key', 'uses', 'npm', 'ci,', 'and', 'plain', 'words', '(see', 'below).', 'a', 'x=1;', '—', '“quoted”', 'café', 'naïve', 'Straße', 'ελληνικά', 'кириллица'];
const WIDE = ['日本語', 'のテキスト', '中文字符', '한국어', '漢字かな', '😀', '🚀🚀', '⚡', '表'];
const URLS = ['https://example.com/a', 'https://example.com/path?q=1&r=two#frag', 'mailto:someone@example.com'];

/** Styled text the way inlineText makes it: nested chalk styles, links, wide characters, odd spacing, newlines. */
function styledText(next: () => number, chalk: ChalkInstance, depth = 0): string {
  const pick = <T,>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  const styles = [
    chalk.bold,
    chalk.italic,
    chalk.strikethrough,
    chalk.dim,
    chalk.underline,
    chalk.cyan,
    chalk.blue.underline,
    chalk.yellow,
    chalk.bold.underline,
    chalk.bold.dim,
    chalk.bgBlue,
    chalk.inverse,
    chalk.hex('#2a7fff'),
    chalk.bgHex('#203040').white,
    chalk.ansi256(208),
  ];
  const parts: string[] = [];
  const count = 1 + Math.floor(next() * (depth === 0 ? 14 : 4));
  for (let index = 0; index < count; index++) {
    const roll = next();
    if (roll < 0.35) parts.push(pick(WORDS));
    else if (roll < 0.45) parts.push(pick(WIDE));
    else if (roll < 0.5) parts.push('abcdefghijklmnopqrstuvwxyz0123456789'.repeat(1 + Math.floor(next() * 5)).slice(0, 5 + Math.floor(next() * 150)));
    else if (roll < 0.55) parts.push(pick(WIDE).repeat(1 + Math.floor(next() * 30)));
    else if (roll < 0.7 && depth < 3) parts.push(pick(styles)(styledText(next, chalk, depth + 1)));
    else if (roll < 0.76 && depth < 3) {
      const text = chalk.blue.underline(styledText(next, chalk, depth + 1));
      const url = pick(URLS);
      parts.push(next() < 0.7 ? hyperlink(text, url) : `\x1b]8;id=${index};${url}\x07${text}\x1b]8;;\x07`);
    } else if (roll < 0.8) parts.push(pick(['\x1b[0m', '\x1b[m', '\x1b[1;31m', '\x1b[22;39m', '\x1b[38;5m', '\x1b[4;38;2;1;2;3m', '\x1b[53m', '\x1b[59m', '\x1b[58;5;9m']));
    else if (roll < 0.85) parts.push('\n');
    else if (roll < 0.9) parts.push(' '.repeat(1 + Math.floor(next() * 4)));
    else parts.push(pick(WORDS) + pick(WIDE));
    parts.push(next() < 0.8 ? ' ' : '');
  }
  const text = parts.join('');
  // Leading and trailing spaces, and lines of nothing but spaces, are where trimming differs.
  const roll = next();
  return roll < 0.1 ? `  ${text}` : roll < 0.2 ? `${text}   ` : roll < 0.25 ? `${text}\n   \n` : text;
}

describe('wrapStyled', () => {
  it('equals wrap-ansi on thousands of styled texts at widths 1 to 120, both option sets, by its fast path', () => {
    const chalks = [new Chalk({ level: 1 }), new Chalk({ level: 2 }), new Chalk({ level: 3 })];
    let fast = 0;
    let cases = 0;
    for (let seed = 1; seed <= 3000; seed++) {
      const next = random(seed);
      const text = styledText(next, chalks[seed % 3]);
      const columns = seed % 10 === 0 ? 1 + (seed % 4) : 1 + Math.floor(next() * 120);
      for (const options of OPTIONS) {
        const result = ours(text, columns, options);
        cases++;
        if (result.fast) fast++;
        if (result.wrapped !== reference(text, columns, options)) {
          expect({ seed, columns, options, text, wrapped: result.wrapped }).toEqual({ seed, columns, options, text, wrapped: reference(text, columns, options) });
        }
      }
    }
    // Every generated text is of the kinds the fast path takes; if it fell back, the comparison would prove nothing.
    expect(fast).toBe(cases);
  });

  it('takes the fast path for hand-picked rows and keeps their bytes', () => {
    const chalk = new Chalk({ level: 3 });
    const link = hyperlink(chalk.blue.underline('a link whose text wraps'), 'https://example.com/x');
    const cases: [string, number, WrapOptions, string][] = [
      ['one two three', 7, { hard: true }, 'one two\nthree'],
      ['  lead  trail  ', 20, { hard: true }, 'lead  trail'],
      ['  lead  trail  ', 20, { hard: true, trim: false }, '  lead  trail  '],
      ['abcdefghij', 4, { hard: true }, 'abcd\nefgh\nij'],
      ['日本語です', 5, { hard: true }, '日本\n語で\nす'],
      [chalk.bold('bold words here'), 10, { hard: true }, '\x1b[1mbold words\x1b[22m\n\x1b[1mhere\x1b[22m'],
      [link, 12, { hard: true }, `\x1b]8;;https://example.com/x\x1b\\\x1b[34m\x1b[4ma link whose\x1b]8;;\x07\x1b[24m\x1b[39m\n\x1b[34m\x1b[4m\x1b]8;;https://example.com/x\x07text wraps\x1b[24m\x1b[39m\x1b]8;;\x1b\\`],
    ];
    for (const [text, columns, options, expected] of cases) {
      expect(reference(text, columns, options)).toBe(expected);
      expect(ours(text, columns, options)).toEqual({ wrapped: expected, fast: true });
    }
  });

  it('leaves to wrap-ansi what its fast path does not take, with the same result', () => {
    const refused = [
      'a\ttab',
      'a line\r\nand the next',
      'cafe\u0301 combining',
      '👩‍👩‍👧 family',
      '🇩🇪 flag',
      'non\u00a0breaking',
      'ideographic\u3000space',
      '\u212B angstrom sign',
      '\x1b[31mred\x1b[K erased',
      '\x1b]0;title\x07 titled',
      '\x1b[38:2:1:2:3m colon colour',
      '\x9b1m C1 CSI',
      'lone \x1b escape',
      'a bell \x07 here',
      '\x1b]8;;https://a.example unterminated',
    ];
    for (const text of refused) {
      for (const columns of [1, 3, 8, 40]) {
        for (const options of OPTIONS) {
          const result = ours(text, columns, options);
          expect(result.fast, JSON.stringify(text)).toBe(false);
          expect(result.wrapped).toBe(reference(text, columns, options));
        }
      }
    }
    expect(ours('same', 0, { hard: true }).fast).toBe(false);
  });

  it('takes only characters that are graphemes of their own, NFC-stable and as wide as string-width says', () => {
    const segmenter = new Intl.Segmenter();
    const taken: number[] = [];
    for (let code = 0; code < 0x32400; code++) if (charWidth(code) > 0) taken.push(code);
    // Letters, box drawing, CJK and emoji are what replies hold; all must be taken.
    for (const char of 'éß—“”…•◦☑☐─│┌日本語한😀🚀') expect(charWidth(char.codePointAt(0) as number), char).toBeGreaterThan(0);
    const next = random(7);
    const shuffled = taken.map((code) => [next(), code]).sort((a, b) => a[0] - b[0]).map(([, code]) => code);
    // In code point order (neighbours of one script side by side) and shuffled: every character stays one grapheme.
    for (const order of [taken, shuffled]) {
      for (let start = 0; start < order.length; start += 400) {
        const codes = order.slice(start, start + 400);
        const text = String.fromCodePoint(...codes);
        expect([...segmenter.segment(text)].length).toBe(codes.length);
        expect(text.normalize()).toBe(text);
        expect(stringWidth(text)).toBe(codes.reduce((sum, code) => sum + charWidth(code), 0));
      }
    }
    // …and wrapped among spaces and styles at narrow widths, still wrap-ansi's bytes.
    for (let start = 0; start < shuffled.length; start += 2000) {
      const text = shuffled
        .slice(start, start + 60)
        .map((code, index) => (index % 7 === 0 ? `\x1b[1m${String.fromCodePoint(code)} ` : String.fromCodePoint(code)))
        .join('');
      for (const columns of [1, 2, 3, 11]) {
        for (const options of OPTIONS) expect(ours(text, columns, options)).toEqual({ wrapped: reference(text, columns, options), fast: true });
      }
    }
  });

  it('knows the modifiers and close codes wrap-ansi reads from ansi-styles', () => {
    // rowStyles.ts keeps them as a table; this holds the table to the map wrap-ansi 10 uses.
    const modifiers = [...ansiStyles.codes].filter(([open, close]) => open !== 0 && close !== 39 && close !== 49);
    expect(modifiers).toEqual([...MODIFIER_CLOSE]);
    expect(new Set([...ansiStyles.codes.values()].filter((close) => close !== 0))).toEqual(new Set([...MODIFIER_CLOSE.values(), 39, 49]));
  });
});

describe('markdown drawn with wrapStyled', () => {
  afterEach(() => {
    vi.doUnmock('./wrapStyled.ts');
    vi.resetModules();
  });

  /** renderMarkdown from a fresh module graph, wrapping with wrap-ansi itself when `withWrapAnsi`. */
  async function renderer(withWrapAnsi: boolean) {
    vi.resetModules();
    if (withWrapAnsi) vi.doMock('./wrapStyled.ts', async () => ({ wrapStyled: reference }));
    else vi.doUnmock('./wrapStyled.ts');
    const chalk = (await import('chalk')).default;
    chalk.level = 3;
    const { renderMarkdown } = await import('../markdown/renderMarkdown.ts');
    return renderMarkdown;
  }

  const SAMPLES = [
    '## Plan\n\nThe **cache** key uses `npm ci`, *one* ~~old~~ [link](https://example.com/a) and plain words that wrap across the rows of a terminal.',
    '- first item with **bold text that runs long enough to wrap** twice over\n  - nested *italic* item, also long enough to wrap at narrow widths\n- [x] done\n\n1. one\n2. two',
    '> a quote with `code` and a [link](https://example.com/quoted/path) that wraps\n> over two lines',
    '```ts\nconst value = compute(1, "two"); // a comment long enough to be cut at the width of the row\n    indented();\n```',
    '| name | value |\n|---|---|\n| **alpha** | a cell with several words that must wrap |\n| 日本語 | 😀 emoji |',
    '# 見出し\n\n日本語の段落はスペースなしで長く続くので、幅で切られます。**太字**も含む。',
    'averyveryveryverylongwordwithoutanyspacesatallthatmustbecutbythehardwrap and then https://example.com/a/very/long/url/that/goes/on',
  ];

  it('draws the same rows as with wrap-ansi, without falling back', async () => {
    const withWrapAnsi = await renderer(true);
    const expected = SAMPLES.flatMap((text) => [12, 31, 60, 98].flatMap((width) => [true, false].map((links) => withWrapAnsi(text, width, links))));
    const renderMarkdown = await renderer(false);
    const before = fallbacks.count;
    const drawn = SAMPLES.flatMap((text) => [12, 31, 60, 98].flatMap((width) => [true, false].map((links) => renderMarkdown(text, width, links))));
    expect(drawn).toEqual(expected);
    expect(drawn.flat().join('\n')).toContain('\x1b]8;;https://example.com/a');
    expect(fallbacks.count).toBe(before);
  });
});
