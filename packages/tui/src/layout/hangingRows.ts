/**
 * Command output (`/help`, `/tools`, `/status`…) is written as columns: a name, two or more spaces, a
 * description. Wrapped as plain text, a long description's next row starts at the left edge, under the
 * names. Here a line too long for the screen keeps its rows in the description's column (a hanging
 * indent); on a screen too narrow for that column the description goes under its name, indented; a
 * line without a column keeps its own indentation; whatever is too narrow for all that wraps plainly.
 */
import stringWidth from 'string-width';
import { wrapStyled } from './wrapStyled.ts';

/** Columns a description needs beside its hanging indent; with fewer it wraps under its own indentation instead. */
const MIN_HANG_COLUMNS = 24;
/** Where a description goes under its name when the column is too wide for the screen: this much past the name's indentation. */
const DESCRIPTION_INDENT = 4;

/** `text` as the rows it takes at `width` columns, every row at most `width` wide. */
export function hangingRows(text: string, width: number): string {
  const columns = Math.max(1, width);
  return text
    .split('\n')
    .map((line) => hangLine(line, columns))
    .join('\n');
}

function hangLine(line: string, width: number): string {
  if (stringWidth(line) <= width) return line;
  // The description column: after the first gap of two or more spaces that follows some text.
  const column = /^(\s*\S(?:.*?\S)?)( {2,})(?=\S)/.exec(line);
  const indent = /^\s*/.exec(line)![0];
  if (column) {
    const head = column[1]! + column[2]!;
    const rest = line.slice(head.length);
    if (width - stringWidth(head) >= MIN_HANG_COLUMNS) return rowsUnder(head, rest, width);
    // The name column is too wide for this screen: the name on its row, the description below it, indented.
    const under = `${indent}${' '.repeat(DESCRIPTION_INDENT)}`;
    if (stringWidth(column[1]!) <= width && width - stringWidth(under) >= MIN_HANG_COLUMNS) return `${column[1]}\n${rowsUnder(under, rest, width)}`;
  }
  if (indent && width - stringWidth(indent) >= MIN_HANG_COLUMNS) return rowsUnder(indent, line.slice(indent.length), width);
  return wrapStyled(line, width, { hard: true, trim: false });
}

/** `rest` wrapped beside `head`, its later rows indented to the same column. */
function rowsUnder(head: string, rest: string, width: number): string {
  const hang = stringWidth(head);
  const rows = wrapStyled(rest, width - hang, { hard: true, trim: true }).split('\n');
  const pad = ' '.repeat(hang);
  return rows.map((row, index) => `${index === 0 ? head : pad}${row}`).join('\n');
}
