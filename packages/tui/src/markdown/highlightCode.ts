/**
 * Fenced code coloured by highlight.js grammars (through lowlight, which gives a tree rather than
 * HTML): the 37 languages of lowlight's `common` set, each built when a reply first uses it. An
 * unknown or missing language stays plain; guessing the language is slow and often wrong.
 */
import chalk, { type ChalkInstance } from 'chalk';
import type { ElementContent, Root } from 'hast';
import { common, createLowlight } from 'lowlight';

const lowlight = createLowlight();

/**
 * The names each `common` grammar also answers to, as the grammars declare them (a test checks this
 * against them): knowing them without building every grammar keeps the 37 builds (40 ms and more,
 * when the renderer loads as a reply starts) to the few a reply uses.
 */
export const ALIASES: Readonly<Record<string, readonly string[]>> = {
  arduino: ['ino'],
  bash: ['sh', 'zsh'],
  c: ['h'],
  cpp: ['cc', 'c++', 'h++', 'hpp', 'hh', 'hxx', 'cxx'],
  csharp: ['cs', 'c#'],
  diff: ['patch'],
  go: ['golang'],
  graphql: ['gql'],
  ini: ['toml'],
  java: ['jsp'],
  javascript: ['js', 'jsx', 'mjs', 'cjs'],
  json: ['jsonc', 'json5'],
  kotlin: ['kt', 'kts'],
  lua: ['pluto'],
  makefile: ['mk', 'mak', 'make'],
  markdown: ['md', 'mkdown', 'mkd'],
  objectivec: ['mm', 'objc', 'obj-c', 'obj-c++', 'objective-c++'],
  perl: ['pl', 'pm'],
  plaintext: ['text', 'txt'],
  python: ['py', 'gyp', 'ipython'],
  'python-repl': ['pycon'],
  ruby: ['rb', 'gemspec', 'podspec', 'thor', 'irb'],
  rust: ['rs'],
  shell: ['console', 'shellsession'],
  typescript: ['ts', 'tsx', 'mts', 'cts'],
  vbnet: ['vb'],
  xml: ['html', 'xhtml', 'rss', 'atom', 'xjb', 'xsd', 'xsl', 'plist', 'wsf', 'svg'],
  yaml: ['yml'],
};

const grammarOf = new Map<string, string>(Object.keys(common).map((name) => [name, name]));
for (const [name, aliases] of Object.entries(ALIASES)) for (const alias of aliases) grammarOf.set(alias, name);

/** The grammars a grammar embeds (`subLanguage`: HTML's CSS and JavaScript), found in its modes. */
function embedded(grammar: unknown, found: Set<string>, seen = new Set<object>()): Set<string> {
  if (typeof grammar !== 'object' || grammar === null || seen.has(grammar) || grammar instanceof RegExp) return found;
  seen.add(grammar);
  const sub = (grammar as { subLanguage?: unknown }).subLanguage;
  for (const name of typeof sub === 'string' ? [sub] : Array.isArray(sub) ? sub : []) if (typeof name === 'string') found.add(name);
  for (const value of Object.values(grammar)) embedded(value, found, seen);
  return found;
}

/** Builds the `common` grammar `name` and those it embeds, once. */
function register(name: string): void {
  const build = (common as Record<string, (typeof common)[keyof typeof common]>)[name];
  if (!build || lowlight.registered(name)) return;
  const inner = new Set<string>();
  lowlight.register({ [name]: (hljs) => { const grammar = build(hljs); embedded(grammar, inner); return grammar; } });
  for (const other of inner) register(other);
}

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
export function knownLanguage(language: string): boolean {
  const name = grammarOf.get(language);
  if (name) register(name);
  return name !== undefined;
}

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

/** The languages prepareLanguage has built the grammar of. */
export const languagesPrepared = (): ReadonlySet<string> => prepared;

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
