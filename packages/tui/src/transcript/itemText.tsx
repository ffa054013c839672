/**
 * A finished transcript item as the ANSI text the terminal is sent, made without Ink's layout. Prompts
 * and replies (the items that can be any size) are wrapped here, a line at a time, with the same marks,
 * colours and markdown as TranscriptEntry draws them; every other kind is small and is drawn by Ink's
 * own renderToString, so it looks exactly as printed. Used for what is too big for one Ink commit (a
 * 5 MB reply) and for the pager, which shows the whole transcript.
 */
import chalk from 'chalk';
import { renderToString } from 'ink';
import stringWidth from 'string-width';
import { DEFAULT_DETAILS, type DetailsModes } from '../details/detailsMode.ts';
import { inkRows } from '../layout/inkRows.ts';
import { displayText } from '../layout/visibleText.ts';
import { markdownState } from '../markdown/loadMarkdown.ts';
import type { TranscriptItem } from '../state/viewState.ts';
import { TranscriptEntry } from '../components/TranscriptEntry.tsx';

/**
 * Of a reply longer than this, only the last blocks (this many characters at most) are drawn as
 * markdown, the rest as plain wrapped text: markdown takes about 2 s a megabyte.
 */
export const MARKDOWN_LIMIT = 100_000;

/** Characters of text an item holds: what its printing costs, roughly. */
export function itemChars(item: TranscriptItem): number {
  switch (item.kind) {
    case 'user':
    case 'assistant':
      return item.text.length;
    case 'shell':
      return item.stdout.length + item.stderr.length;
    case 'command':
      return (item.output?.length ?? 0) + (item.warning?.length ?? 0) + (item.error?.length ?? 0);
    default:
      return 0;
  }
}

// Printable ASCII: one cell a character, so a line is wrapped by length (most lines of a huge reply).
const ASCII = /^[\x20-\x7e]*$/;

/** A line of printable ASCII wrapped at spaces, a word longer than the row cut: wrap-ansi's rows, at a fraction of its cost. */
function wrapAscii(line: string, width: number, out: string[]): void {
  let row = '';
  for (const word of line.split(' ')) {
    const joined = row === '' ? word : `${row} ${word}`;
    if (joined.length <= width) {
      row = joined;
      continue;
    }
    if (row !== '') out.push(row);
    row = word;
    for (; row.length > width; row = row.slice(width)) out.push(row.slice(0, width));
  }
  out.push(row);
}

/** Lines of plain text wrapped to `width` cells, as Ink wraps a text (hard: a word longer than the row is cut). */
function wrapLines(text: string, width: number): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (ASCII.test(line)) wrapAscii(line, width, out);
    else out.push(...inkRows(line, width));
  }
  return out;
}

/** `first` before the first line and `rest` before every other, as Ink draws a mark beside a text box. */
const besideMark = (first: string, rest: string, lines: readonly string[]) => lines.map((line, index) => `${index === 0 ? first : rest}${line}`).join('\n');

function turnMark(item: Extract<TranscriptItem, { kind: 'assistant' }>): string {
  if (item.status === 'interrupted') return chalk.yellow(' [interrupted]');
  if (item.status === 'error') return chalk.red(` [error${item.error ? `: ${displayText(item.error)}` : ''}]`);
  return '';
}

const FENCE = /^\s*(```|~~~)/;

/**
 * Where the last blocks of `text` within `limit` characters start: the first blank line outside a
 * code fence in its last `limit` characters (`text.length` if there is none).
 */
function lastBlocksStart(text: string, limit: number): number {
  let inFence = false;
  for (let start = 0; start < text.length; ) {
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end < 0 ? text.length : end);
    if (FENCE.test(line)) inFence = !inFence;
    else if (!inFence && start >= text.length - limit && line.trim() === '') return start;
    if (end < 0) break;
    start = end + 1;
  }
  return text.length;
}

/**
 * A reply's rows: markdown, or for one too long for it (a whole batch of a fast stream can be one
 * item), plain text then its last blocks as markdown, so how its end looks never depends on how the
 * stream was batched.
 */
function replyBody(text: string, width: number): string[] {
  const markdown = markdownState();
  if (markdown.status !== 'ready') return wrapLines(displayText(text), width);
  if (text.length <= MARKDOWN_LIMIT) return markdown.module.renderMarkdown(text, width);
  const cut = lastBlocksStart(text, MARKDOWN_LIMIT);
  const tail = text.slice(cut).replace(/^\s*\n/, '');
  if (!tail.trim()) return wrapLines(displayText(text), width);
  return [...wrapLines(displayText(text.slice(0, cut).trimEnd()), width), '', ...markdown.module.renderMarkdown(tail, width)];
}

function replyLines(item: Extract<TranscriptItem, { kind: 'assistant' }>, width: number): string[] {
  const lines = replyBody(item.text, width - 2);
  const mark = turnMark(item);
  if (!mark) return lines;
  // The mark follows the last line, or takes a line of its own when that one is full.
  const last = lines.at(-1) ?? '';
  return stringWidth(last + mark) <= width - 2 ? [...lines.slice(0, -1), last + mark] : [...lines, ...wrapLines(mark, width - 2)];
}

/** The item as printed at `width` columns, without the final newline; a leading empty row is its top margin. */
export function itemText(item: TranscriptItem, width: number, details: DetailsModes = DEFAULT_DETAILS): string {
  switch (item.kind) {
    case 'user':
      return `\n${besideMark(chalk.cyan.bold('❯ '), '  ', wrapLines(displayText(item.text), width - 2).map((line) => chalk.bold(line)))}`;
    case 'assistant':
      return `\n${besideMark(chalk.magenta(item.continued ? '  ' : '● '), '  ', replyLines(item, width))}`;
    default:
      return renderToString(<TranscriptEntry item={item} width={width} details={details} />, { columns: width });
  }
}
