/**
 * Assistant text as markdown: styled rows that fit `width`, cached per text and width. Loaded with a
 * dynamic import (see loadMarkdown.ts) so marked and the grammars stay off the startup path.
 *
 * The text is made safe (`displayText`) BEFORE it is parsed and styled: escape sequences from the model
 * never reach the terminal, and the only ANSI in the result is our own styling.
 */
import chalk from 'chalk';
import type { Token, Tokens } from 'marked';
import stringWidth from 'string-width';
import { displayText } from '../layout/visibleText.ts';
import { wrapStyled } from '../layout/wrapStyled.ts';
import { highlightCode } from './highlightCode.ts';
import { hyperlinksAllowed } from './hyperlinks.ts';
import { inlineText, withHyperlinks } from './inlineText.ts';
import { lexMarkdown } from './markdownTokens.ts';
import { tableLines } from './tableLines.ts';

/** Reached through this module, which is the one loaded lazily (loadMarkdown.ts). */
export { prepareLanguage } from './highlightCode.ts';

/** Rows cached; a long session re-renders its transcript (a resize reprints it) without parsing again. */
const CACHE_LIMIT = 500;
const cache = new Map<string, string[]>();

const wrap = (text: string, width: number): string[] => wrapStyled(text, Math.max(1, width), { hard: true }).split('\n');

/** Rows for `body` drawn `width - prefix` wide, the first behind `first`, the rest behind `rest`. */
function indented(body: string[], first: string, rest: string): string[] {
  return body.map((line, index) => (index === 0 ? first : rest) + line);
}

function listLines(list: Tokens.List, width: number, depth: number): string[] {
  const start = typeof list.start === 'number' ? list.start : 1;
  const markers = list.items.map((item, index) => {
    if (item.task) return item.checked ? '☑' : '☐';
    return list.ordered ? `${start + index}.` : depth % 2 === 0 ? '•' : '◦';
  });
  const markerWidth = Math.max(...markers.map((marker) => stringWidth(marker))) + 1;
  const lines: string[] = [];
  list.items.forEach((item, index) => {
    if (index > 0 && list.loose) lines.push('');
    // A task item's own tokens start with its checkbox; the marker already shows it.
    const tokens = item.tokens.filter((token) => token.type !== 'checkbox');
    const body = blockLines(tokens, width - markerWidth, depth + 1, list.loose);
    const marker = list.ordered ? markers[index].padStart(markerWidth - 1) : markers[index];
    lines.push(...indented(body.length ? body : [''], chalk.yellow(marker) + ' '.repeat(markerWidth - stringWidth(marker)), ' '.repeat(markerWidth)));
  });
  return lines;
}

function codeLines(code: Tokens.Code, width: number): string[] {
  const highlighted = highlightCode(code.text, code.lang ?? '');
  // Code keeps its indentation: wrapped only where a line is wider than the room, never trimmed.
  const lines = highlighted.split('\n').flatMap((line) => wrapStyled(line, Math.max(1, width - 2), { hard: true, trim: false }).split('\n'));
  return lines.map((line) => `  ${line}`);
}

function headingLines(heading: Tokens.Heading, width: number): string[] {
  const text = inlineText(heading.tokens);
  const style = heading.depth === 1 ? chalk.bold.underline : heading.depth === 2 ? chalk.bold : chalk.bold.dim;
  return wrap(style(text), width);
}

function blockLines(tokens: readonly Token[], width: number, depth: number, loose = true): string[] {
  const blocks: string[][] = [];
  for (const token of tokens) {
    const lines = block(token, width, depth);
    if (lines) blocks.push(lines);
  }
  // Blocks are separated by one blank row, except the text of a tight list item and its nested list.
  return blocks.flatMap((lines, index) => (index > 0 && loose ? ['', ...lines] : lines));
}

function block(token: Token, width: number, depth: number): string[] | undefined {
  switch (token.type) {
    case 'space':
    case 'def':
      return undefined;
    case 'heading':
      return headingLines(token as Tokens.Heading, width);
    case 'paragraph':
      return wrap(inlineText((token as Tokens.Paragraph).tokens), width);
    case 'text': {
      const text = token as Tokens.Text;
      return wrap(text.tokens ? inlineText(text.tokens) : text.text, width);
    }
    case 'list':
      return listLines(token as Tokens.List, width, depth);
    case 'blockquote': {
      const inner = blockLines((token as Tokens.Blockquote).tokens, width - 2, depth);
      return inner.map((line) => `${chalk.dim('│')} ${chalk.italic(line)}`);
    }
    case 'code':
      return codeLines(token as Tokens.Code, width);
    case 'table':
      return tableLines(token as Tokens.Table, width).flatMap((line) => wrap(line, width));
    case 'hr':
      return [chalk.dim('─'.repeat(Math.max(1, Math.min(width, 40))))];
    default:
      // html blocks and anything newer marked may add: shown as written.
      return wrap(token.raw.replace(/\n+$/, ''), width);
  }
}

/**
 * `text` from the model as markdown rows no wider than `width` (at least 1); `links` says whether links
 * are OSC 8 hyperlinks (a caller passing text already made safe decides it from the text as received).
 */
export function renderMarkdown(text: string, width: number, links = hyperlinksAllowed(text)): string[] {
  const key = `${chalk.level}\u0000${links}\u0000${width}\u0000${text}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const lines = withHyperlinks(links, () => blockLines(lexMarkdown(displayText(text)), Math.max(1, width), 0));
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, lines);
  return lines;
}

/** A reply with the usual kinds of block and inline markup, in its blocks: what the warm-up draws. */
export const WARM_UP_BLOCKS: readonly string[] = [
  '## Plan',
  'The **cache** key uses `npm ci`, *one* ~~old~~ [link](https://example.com/a) and plain words that wrap across the rows of a terminal.',
  '- first item\n- [x] second item',
  '1. one\n2. two',
  '> a quote',
  '```\nplain code\n```',
];

/**
 * Draws one of WARM_UP_BLOCKS and keeps nothing: V8 compiles marked's regular expressions and the
 * wrapper's code on their first use, which made the first reply's first rows wait 40–100 ms.
 * loadMarkdown.ts draws them one per turn of the event loop (a few ms each), so a key or the model's
 * first words are never held behind the whole warm-up.
 */
export function warmUp(block: string): string[] {
  return withHyperlinks(true, () => blockLines(lexMarkdown(block), 80, 0));
}

export interface OpenBlockSplit {
  /** Whole blocks: they render now. */
  closed: string;
  /** The last block, which more text may still change: it stays plain until it closes. */
  open: string;
}

/** Splits streaming `text` before its last block (`text` is already safe: see `displayText`). */
export function splitOpenBlock(text: string): OpenBlockSplit {
  const tokens = lexMarkdown(text);
  let open = tokens.length - 1;
  while (open >= 0 && tokens[open].type === 'space') open -= 1;
  const closed = tokens
    .slice(0, Math.max(0, open))
    .map((token) => token.raw)
    .join('');
  // marked's raw pieces add up to the text; if a future version normalises them, keep it all plain.
  if (!text.startsWith(closed)) return { closed: '', open: text };
  return { closed, open: text.slice(closed.length).replace(/^\n+/, '') };
}
