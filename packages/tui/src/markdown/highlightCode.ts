/**
 * Fenced code coloured by highlight.js grammars (through lowlight, which gives a tree rather than
 * HTML): the 37 languages of lowlight's `common` set. An unknown or missing language stays plain;
 * guessing the language is slow and often wrong.
 */
import chalk, { type ChalkInstance } from 'chalk';
import type { ElementContent, Root } from 'hast';
import { common, createLowlight } from 'lowlight';

const lowlight = createLowlight(common);

/** The colour of each highlight.js scope; scopes not listed keep the default colour. */
const SCOPE_STYLE: Record<string, ChalkInstance> = {
  keyword: chalk.magenta,
  'selector-tag': chalk.magenta,
  literal: chalk.yellow,
  number: chalk.yellow,
  string: chalk.green,
  regexp: chalk.red,
  'template-variable': chalk.green,
  comment: chalk.gray,
  quote: chalk.gray,
  meta: chalk.gray,
  title: chalk.blue,
  section: chalk.blue,
  name: chalk.blue,
  tag: chalk.blue,
  built_in: chalk.cyan,
  type: chalk.cyan,
  attr: chalk.yellow,
  attribute: chalk.yellow,
  variable: chalk.red,
  symbol: chalk.yellow,
  bullet: chalk.yellow,
  addition: chalk.green,
  deletion: chalk.red,
};

/** The language names and aliases that get colour, e.g. `ts`, `py`, `sh`. */
export const knownLanguage = (language: string): boolean => language !== '' && lowlight.registered(language);

function paint(nodes: readonly ElementContent[]): string {
  let out = '';
  for (const node of nodes) {
    if (node.type === 'text') out += node.value;
    else if (node.type === 'element') {
      const inner = paint(node.children);
      const classes = node.properties.className;
      const first = Array.isArray(classes) ? String(classes[0] ?? '') : '';
      const style = SCOPE_STYLE[first.replace(/^hljs-/, '')];
      // Styles are applied per line by the caller's split, so a multi-line comment stays coloured on each line.
      out += style ? inner.split('\n').map((line) => (line ? style(line) : line)).join('\n') : inner;
    }
  }
  return out;
}

/** The grammar's name in a fence's info string (`ts title="x"` → `ts`). */
const languageName = (language: string): string => language.trim().split(/\s+/)[0]?.toLowerCase() ?? '';

const prepared = new Set<string>();

/**
 * Compiles the grammar of `language` now: highlight.js compiles one on its first use (30 ms or more
 * for TypeScript), so a code block still being streamed gets its grammar ready before it closes.
 */
export function prepareLanguage(language: string): void {
  const name = languageName(language);
  if (prepared.has(name) || !knownLanguage(name)) return;
  prepared.add(name);
  lowlight.highlight(name, '');
}

/** `code` (already made safe to show) with colour, when `language` is one we know. */
export function highlightCode(code: string, language: string): string {
  const name = languageName(language);
  if (!knownLanguage(name)) return code;
  const tree: Root = lowlight.highlight(name, code);
  return paint(tree.children as ElementContent[]);
}
