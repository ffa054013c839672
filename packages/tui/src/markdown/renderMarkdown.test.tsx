import { beforeAll, describe, expect, it } from 'vitest';
import { TranscriptEntry } from '../components/TranscriptEntry.tsx';
import type { TranscriptItem } from '../state/viewState.ts';
import { overflowing, renderRows, renderStyled, stylesAt } from '../testing/renderFrame.ts';
import { knownLanguage } from './highlightCode.ts';
import { Lexer } from 'marked';
import { loadMarkdown } from './loadMarkdown.ts';
import { renderMarkdown, warmUp, WARM_UP_BLOCKS } from './renderMarkdown.ts';
import { fitColumns } from './tableLines.ts';

const reply = (text: string): TranscriptItem => ({ kind: 'assistant', id: 1, text, continued: false });
const draw = (text: string, columns = 80) => renderRows(<TranscriptEntry item={reply(text)} width={columns} />, columns);
const styled = (text: string, columns = 80) => renderStyled(<TranscriptEntry item={reply(text)} width={columns} />, columns);

beforeAll(async () => {
  await loadMarkdown();
});

describe('assistant replies as markdown', () => {
  it('warms up on the kinds of markup replies use, a block at a time, drawing each as any reply', () => {
    const kinds = new Set(WARM_UP_BLOCKS.flatMap((block) => Lexer.lex(block, { gfm: true }).map((token) => token.type)));
    for (const kind of ['heading', 'paragraph', 'list', 'blockquote', 'code']) expect(kinds).toContain(kind);
    for (const block of WARM_UP_BLOCKS) {
      expect(Lexer.lex(block, { gfm: true }).filter((token) => token.type !== 'space')).toHaveLength(1);
      expect(warmUp(block)).toEqual(renderMarkdown(block, 80, true));
    }
  });

  it('draws headings without their marks, bold (the first also underlined)', () => {
    expect(draw('# Plan\n\n## Steps\n\n### Detail')).toEqual(['', '● Plan', '', '  Steps', '', '  Detail']);
    expect(stylesAt(styled('# Plan'), 'Plan')).toContain('bold');
    expect(styled('# Plan')).toContain('\x1b[4m');
    expect(stylesAt(styled('## Steps'), 'Steps')).toEqual(['bold']);
  });

  it('draws emphasis, strikethrough and inline code without their marks', () => {
    const text = 'Use **bold**, *italic*, ~~old~~ and `npm test`.';
    expect(draw(text)).toEqual(['', '● Use bold, italic, old and npm test.']);
    expect(stylesAt(styled(text), 'bold,')).toEqual(['bold']);
    expect(stylesAt(styled(text), 'italic')).toEqual(['italic']);
    expect(stylesAt(styled(text), 'npm test')).toEqual(['cyan']);
    expect(styled(text)).toContain('\x1b[9mold');
  });

  it('draws bullet, numbered, nested and task lists, wrapped under their text', () => {
    const text = '- first\n- second item that is long enough to wrap at thirty\n  - nested\n\n3. three\n4. four\n\n- [ ] todo\n- [x] done';
    expect(draw(text, 32)).toEqual([
      '',
      '● • first',
      '  • second item that is long',
      '    enough to wrap at thirty',
      '    ◦ nested',
      '',
      '  3. three',
      '  4. four',
      '',
      '  ☐ todo',
      '  ☑ done',
    ]);
    expect(stylesAt(styled(text), '•')).toEqual(['yellow']);
  });

  it('draws a quote behind a bar, a rule, and a link as its text and address', () => {
    expect(draw('> Measure\n> first.\n\n---\n\nSee [the docs](https://example.com/docs) or <https://example.com>.')).toEqual([
      '',
      '● │ Measure',
      '  │ first.',
      '',
      `  ${'─'.repeat(40)}`,
      '',
      '  See the docs (https://example.com/docs) or https://example.com.',
    ]);
    expect(stylesAt(styled('See [the docs](https://example.com/docs)'), 'the docs')).toEqual(['blue']);
  });

  it('fits a table to the width, wrapping the wide column and keeping the narrow ones whole', () => {
    const text = [
      '| Name | What it does | Size |',
      '|------|--------------|-----:|',
      '| marked | Splits markdown into tokens that the renderer walks one block at a time | 40 |',
      '| lowlight | Highlights code | 9 |',
    ].join('\n');
    const rows = draw(text, 50);
    expect(overflowing(rows, 50)).toEqual([]);
    expect(rows).toEqual([
      '',
      '● ┌──────────┬────────────────────────────┬──────┐',
      '  │ Name     │ What it does               │ Size │',
      '  ├──────────┼────────────────────────────┼──────┤',
      '  │ marked   │ Splits markdown into       │   40 │',
      '  │          │ tokens that the renderer   │      │',
      '  │          │ walks one block at a time  │      │',
      '  │ lowlight │ Highlights code            │    9 │',
      '  └──────────┴────────────────────────────┴──────┘',
    ]);
    // At its natural width when it fits.
    expect(draw('| a | b |\n|---|---|\n| 1 | 2 |')).toEqual(['', '● ┌───┬───┐', '  │ a │ b │', '  ├───┼───┤', '  │ 1 │ 2 │', '  └───┴───┘']);
  });

  it('shares the room among wide columns and never goes below three cells a column', () => {
    expect(fitColumns([4, 30, 30], 40)).toEqual([4, 18, 18]);
    expect(fitColumns([10, 10], 40)).toEqual([10, 10]);
    expect(fitColumns([20, 20, 20], 6)).toEqual([3, 3, 3]);
  });

  it('colours fenced code by its language, for twenty common languages and their usual names', () => {
    const languages = ['ts', 'typescript', 'js', 'javascript', 'python', 'py', 'bash', 'sh', 'shell', 'json', 'yaml', 'go', 'rust', 'java', 'c', 'cpp', 'csharp', 'ruby', 'php', 'sql', 'html', 'xml', 'css', 'kotlin', 'swift', 'diff', 'markdown', 'lua', 'scss', 'ini'];
    expect(languages.filter((language) => !knownLanguage(language))).toEqual([]);
    const fences = [
      ['ts', 'const answer: number = 42;', 'const', 'magenta'],
      ['python', 'def greet(name):\n    return "hi"', 'def', 'magenta'],
      ['go', 'func main() {\n\tfmt.Println("hi")\n}', '"hi"', 'green'],
      ['rust', 'fn main() { let x = 5; }', 'let', 'magenta'],
      ['sql', 'SELECT id FROM users;', 'SELECT', 'magenta'],
      ['bash', '# install\nnpm ci', '# install', 'gray'],
    ] as const;
    for (const [language, code, word, colour] of fences) {
      const text = `Run:\n\n\`\`\`${language}\n${code}\n\`\`\``;
      expect(stylesAt(styled(text), word)).toEqual([colour]);
      // The fence marks are gone; the code is indented under the reply, its own indentation kept.
      expect(draw(text).slice(3)).toEqual(code.replace(/\t/g, '    ').split('\n').map((line) => `    ${line}`));
    }
    // An unknown language stays plain.
    expect(stylesAt(styled('```nosuchlang\nconst x = 1\n```'), 'const')).toEqual([]);
  });

  it('keeps escape sequences from the model off the terminal: only its own styling is written', () => {
    const text = '**red** \x1b[31mnot red\x1b[0m \x1b]0;title\x07 \x1b]52;c;ZXZpbA==\x07`code \x1b[2J`';
    const frame = styled(text);
    expect(frame).not.toContain('\x1b[31m');
    expect(frame).not.toContain('\x1b]');
    expect(frame).not.toContain('\x1b[2J');
    expect(draw(text)).toEqual(['', '● red not red  code']);
  });

  it('never draws a row wider than the terminal', () => {
    const text = `# ${'heading '.repeat(12)}\n\n${'word '.repeat(40)}\n\n\`\`\`js\n${'x'.repeat(120)}\n\`\`\`\n\n> ${'quote '.repeat(20)}\n\n- ${'item '.repeat(20)}`;
    for (const columns of [30, 60, 100]) expect(overflowing(draw(text, columns), columns)).toEqual([]);
  });
});
