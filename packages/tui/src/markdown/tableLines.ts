/**
 * A markdown table drawn with box lines and fitted to the width: columns keep their natural width
 * while the table fits; otherwise narrow columns keep theirs and the wide ones share what is left,
 * their cells wrapped onto more rows.
 */
import chalk from 'chalk';
import type { Tokens } from 'marked';
import stringWidth from 'string-width';
import { wrapStyled } from '../layout/wrapStyled.ts';
import { inlineText } from './inlineText.ts';

/** A column is never narrower than this, even when the table cannot fit. */
const MIN_COLUMN = 3;

/** Column widths for cells of `natural` widths within `available` cells of content. */
export function fitColumns(natural: readonly number[], available: number): number[] {
  const total = natural.reduce((sum, width) => sum + width, 0);
  if (total <= available) return [...natural];
  const widths = natural.map(() => 0);
  let open = natural.map((_, index) => index);
  let left = available;
  // Columns narrower than an equal share keep their width; repeat until every remaining column is wider.
  for (;;) {
    const share = Math.floor(left / Math.max(1, open.length));
    const fitting = open.filter((index) => natural[index] <= share);
    if (fitting.length === 0) break;
    for (const index of fitting) {
      widths[index] = natural[index];
      left -= natural[index];
    }
    open = open.filter((index) => natural[index] > share);
  }
  const share = Math.floor(left / Math.max(1, open.length));
  let extra = left - share * open.length;
  for (const index of open) {
    widths[index] = Math.max(MIN_COLUMN, share + (extra > 0 ? 1 : 0));
    extra -= 1;
  }
  return widths;
}

function pad(text: string, width: number, align: Tokens.TableCell['align']): string {
  const room = Math.max(0, width - stringWidth(text));
  if (align === 'right') return ' '.repeat(room) + text;
  if (align === 'center') return ' '.repeat(Math.floor(room / 2)) + text + ' '.repeat(Math.ceil(room / 2));
  return text + ' '.repeat(room);
}

function rowLines(cells: readonly string[], widths: readonly number[], aligns: Tokens.Table['align']): string[] {
  const wrapped = cells.map((cell, index) => wrapStyled(cell, widths[index], { hard: true }).split('\n'));
  const height = Math.max(1, ...wrapped.map((lines) => lines.length));
  const bar = chalk.dim('│');
  const lines: string[] = [];
  for (let row = 0; row < height; row += 1) {
    const parts = widths.map((width, index) => pad(wrapped[index]?.[row] ?? '', width, aligns[index]));
    lines.push(`${bar} ${parts.join(` ${bar} `)} ${bar}`);
  }
  return lines;
}

export function tableLines(table: Tokens.Table, width: number): string[] {
  const header = table.header.map((cell) => chalk.bold(inlineText(cell.tokens)));
  const rows = table.rows.map((row) => row.map((cell) => inlineText(cell.tokens)));
  const columns = header.length;
  const natural = header.map((cell, index) => Math.max(1, stringWidth(cell), ...rows.map((row) => stringWidth(row[index] ?? ''))));
  // Each column costs its content plus " │ "; the table one more for its left edge.
  const widths = fitColumns(natural, width - (columns * 3 + 1));
  const rule = (left: string, middle: string, right: string) => chalk.dim(left + widths.map((w) => '─'.repeat(w + 2)).join(middle) + right);
  return [
    rule('┌', '┬', '┐'),
    ...rowLines(header, widths, table.align),
    rule('├', '┼', '┤'),
    ...rows.flatMap((row) => rowLines(row, widths, table.align)),
    rule('└', '┴', '┘'),
  ];
}
