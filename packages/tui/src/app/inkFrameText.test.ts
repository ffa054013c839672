/**
 * The cell-to-text step of Ink's frames as patched for hermes (patches/@alcalzone+ansi-tokenize+0.2.5.patch):
 * neighbouring cells with the same styles are joined without computing a style difference. The text
 * must be exactly what the unpatched step wrote (the difference of every pair of neighbours).
 */
import chalk from 'chalk';
import { describe, expect, it } from 'vitest';

interface StyledChar {
  type: 'char';
  value: string;
  fullWidth: boolean;
  styles: { code: string; endCode: string }[];
}
interface AnsiTokenize {
  tokenize(text: string): unknown[];
  styledCharsFromTokens(tokens: unknown[]): StyledChar[];
  styledCharsToString(chars: StyledChar[]): string;
  diffAnsiCodes(from: StyledChar['styles'], to: StyledChar['styles']): StyledChar['styles'];
  ansiCodesToString(codes: StyledChar['styles']): string;
}

async function ansiTokenize(): Promise<AnsiTokenize> {
  // Ink's dependency (one copy, hoisted), not hermes's own: the one the bundle takes.
  return (await import('@alcalzone/ansi-tokenize')) as unknown as AnsiTokenize;
}

/** The unpatched step: the difference of styles between every two neighbours, and a reset at the end. */
function unpatched(lib: AnsiTokenize, chars: StyledChar[]): string {
  let out = '';
  chars.forEach((char, index) => {
    out += lib.ansiCodesToString(index === 0 ? char.styles : lib.diffAnsiCodes(chars[index - 1]!.styles, char.styles));
    out += char.value;
    if (index === chars.length - 1) out += lib.ansiCodesToString(lib.diffAnsiCodes(char.styles, []));
  });
  return out;
}

const blank = (): StyledChar => ({ type: 'char', value: ' ', fullWidth: false, styles: [] });
const link = (url: string, text: string) => `\u001B]8;;${url}\u0007${text}\u001B]8;;\u0007`;

describe('Ink frame text (ansi-tokenize, patched)', () => {
  it('writes each row exactly as before the patch: plain runs, nested and intensity styles, links, wide characters, blank cells', async () => {
    const lib = await ansiTokenize();
    const level = chalk.level;
    chalk.level = 3;
    try {
      const lines = [
        'plain words only, as most rows of a streamed reply are',
        `Paragraph 7 explains ${chalk.bold('one point')} with ${chalk.cyan('inline code')}, a ${link('https://example.com/7', 'link')} and more`,
        chalk.bold(`bold ${chalk.dim('and dim')} then bold`) + ' after',
        chalk.red(`red ${chalk.blue('blue')} red`) + chalk.bgBlue(' on blue ') + chalk.italic.underline('both'),
        `漢字 ${chalk.green('😀 wide')} text`,
        chalk.dim.italic('thinking: the last words'),
      ];
      for (const line of lines) {
        const chars = lib.styledCharsFromTokens(lib.tokenize(line));
        // As Ink lays out a row: the text, then blank cells of their own (equal styles, other arrays).
        const row = [...chars, blank(), blank(), ...chars, blank()];
        expect(lib.styledCharsToString(row)).toBe(unpatched(lib, row));
        expect(lib.styledCharsToString(chars)).toBe(unpatched(lib, chars));
      }
    } finally {
      chalk.level = level;
    }
  });
});
