import chalk from 'chalk';
import hljs from 'highlight.js/lib/core';
import { common, createLowlight } from 'lowlight';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALIASES, highlightCode, knownLanguage } from './highlightCode.ts';

const level = chalk.level;
beforeAll(() => {
  chalk.level = 1;
});
afterAll(() => {
  chalk.level = level;
});

describe('code colouring, a grammar built when first used', () => {
  // First: the test after this one builds every grammar.
  it('colours the languages a grammar embeds: the script and style of HTML, the Python of a REPL session', () => {
    const html = '<style>p { color: red; }</style>\n<script>const answer = 42;</script>';
    // `const` is a JavaScript keyword (magenta) inside the script; `color` a CSS attribute (yellow).
    expect(highlightCode(html, 'html')).toContain(chalk.magenta('const'));
    expect(highlightCode(html, 'html')).toContain(chalk.yellow('color'));
    expect(highlightCode('>>> def f():\n...     return 1', 'pycon')).toContain(chalk.magenta('def'));
  });

  it("knows each common grammar's names as the grammars declare them", () => {
    const declared = Object.fromEntries(
      Object.entries(common).flatMap(([name, build]) => {
        const aliases = build(hljs).aliases ?? [];
        return aliases.length ? [[name, aliases]] : [];
      }),
    );
    expect(ALIASES).toEqual(declared);
    // Every name and alias gets colour, as when all 37 grammars were built at once.
    const all = createLowlight(common);
    for (const name of [...Object.keys(common), ...Object.values(ALIASES).flat()]) expect([name, knownLanguage(name)]).toEqual([name, all.registered(name)]);
    expect(knownLanguage('nosuchlang')).toBe(false);
  });
});
