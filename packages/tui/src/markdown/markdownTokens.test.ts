import { Lexer } from 'marked';
import { describe, expect, it } from 'vitest';
import { lexMarkdown, mayStartSetextHeading } from './markdownTokens.ts';

/** What marked itself makes of `text`, the tokens lexMarkdown must equal. */
const marked = (text: string) => Lexer.lex(text, { gfm: true });

/** Texts around setext headings: where an underline counts, and where it does not. */
const CASES = [
  'Title\n=====',
  'Title\n---',
  'Title\n===\nmore text',
  'two lines\nof title\n-----\n\nthen a paragraph',
  'text\n   ===   \n',
  'text\n    ===\n',
  'text\n===\t\t\n',
  'text\n= = =\n',
  'text\n\n---\n',
  'text\n \t\n===\n',
  'text\n\u00a0\n===\n',
  'para one\n\npara two\n===\n\npara three',
  '> quoted\n> ===\n',
  '> quoted\n---\n',
  '- item\n---\n',
  '- item\n  text\n  ---\n',
  '1. one\n   two\n   ===',
  '| a | b |\n|---|---|\n| 1 | 2 |',
  'text\n| a |\n|---|',
  '```\ncode\n```\n---',
  '# atx\n===',
  '<div>\nhtml\n</div>\n---',
  'line\r\n===\r\n',
  '***bold***\n---\ntail',
  'a'.repeat(2000) + '\n' + '-'.repeat(3),
  'b'.repeat(5000) + '\n===\n\nafter',
  `${'line of text\n'.repeat(300)}===`,
  `${'text\n# heading\n- item\n'.repeat(200)}\nlast\n---`,
  'Paragraph with **bold**, `code` and a [link](https://example.com) that runs on.\nAnd a second line.',
];

/** A small deterministic generator (mulberry32): the same documents every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Lines of the kinds that start, end or underline blocks. */
const LINES = ['words here', 'more *words*', '===', '---', ' --', '   ==', '    ---', '-', '', ' \t', '\u00a0', '> quote', '> ===', '- item', '  - nested', '1. one', '# head', '```', '~~~', '| a | b |', '|---|---|', '<div>', '***', '= =', 'text ==='];

describe('lexMarkdown', () => {
  it.each(CASES)('makes the tokens marked makes of %j', (text) => {
    expect(lexMarkdown(text)).toEqual(marked(text));
  });

  it('makes the tokens marked makes of 3,000 generated documents', () => {
    const next = random(13);
    for (let doc = 0; doc < 3000; doc += 1) {
      const lines = Array.from({ length: 1 + Math.floor(next() * 9) }, () => LINES[Math.floor(next() * LINES.length)]);
      const text = lines.join('\n') + (next() < 0.5 ? '\n' : '');
      expect(lexMarkdown(text), JSON.stringify(text)).toEqual(marked(text));
    }
  });

  it('makes the tokens marked makes of 300 generated documents longer than the window the check reads', () => {
    const next = random(7);
    const long = [...LINES, 'w'.repeat(700), `${'word '.repeat(300)}`];
    for (let doc = 0; doc < 300; doc += 1) {
      const lines = Array.from({ length: 5 + Math.floor(next() * 40) }, () => long[Math.floor(next() * long.length)]);
      const text = lines.join('\n');
      expect(lexMarkdown(text), JSON.stringify(text.slice(0, 200))).toEqual(marked(text));
    }
  });

  it('still finds setext headings', () => {
    expect(lexMarkdown('Title\n=====\n\nbody')[0]).toMatchObject({ type: 'heading', depth: 1, text: 'Title' });
    expect(lexMarkdown('Sub\n---')[0]).toMatchObject({ type: 'heading', depth: 2, text: 'Sub' });
  });
});

describe('mayStartSetextHeading', () => {
  it('is false for a block with no underline before its first blank line', () => {
    expect(mayStartSetextHeading('a paragraph\nof two lines\n\n===\n')).toBe(false);
    expect(mayStartSetextHeading('x'.repeat(1_000))).toBe(false);
    expect(mayStartSetextHeading('text\n    ---\n')).toBe(false);
  });

  it('is true where an underline follows the text', () => {
    expect(mayStartSetextHeading('Title\n===')).toBe(true);
    expect(mayStartSetextHeading('Title\n  ---  \n\nmore')).toBe(true);
  });

  it('leaves a block longer than its window to marked', () => {
    expect(mayStartSetextHeading('x'.repeat(3000))).toBe(true);
  });
});
