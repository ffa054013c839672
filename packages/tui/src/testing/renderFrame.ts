/**
 * The component test tier: renders a component in memory, as Ink draws it at a given width, and reads
 * the rows the user would see. `renderRows` is one synchronous frame (Ink's `renderToString`);
 * `renderLive` mounts with Ink's `render` on an in-memory stdout, for what needs effects, timers or a
 * terminal size (App, the spinner). Colour is off unless asked for with `renderStyled`, and `stylesAt`
 * reads the SGR styles that apply to a piece of text.
 */
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import chalk from 'chalk';
import { render, renderToString } from 'ink';
import type { ReactNode } from 'react';
import stringWidth from 'string-width';

/** The rows drawn at `columns`, colour stripped, trailing spaces dropped. */
export function renderRows(node: ReactNode, columns = 80): string[] {
  return toRows(renderToString(node, { columns }));
}

/** The frame with basic colours forced on (tests run without a TTY, so chalk would leave them out). */
export function renderStyled(node: ReactNode, columns = 80): string {
  const level = chalk.level;
  chalk.level = 1;
  try {
    return renderToString(node, { columns });
  } finally {
    chalk.level = level;
  }
}

export const toRows = (frame: string): string[] => stripVTControlCharacters(frame).split('\n').map((row) => row.trimEnd());

/** The text inside a bordered box: each row without its side borders and the one column of padding; the top and bottom borders dropped. */
export const insideBorder = (rows: readonly string[]): string[] =>
  rows.slice(1, -1).map((row) => row.replace(/^[│║┃] ?/u, '').replace(/ ?[│║┃]$/u, '').trimEnd());

/** Rows wider than `columns`, as the terminal counts cells: a row here would be wrapped by the terminal and break Ink's row count. */
export const overflowing = (rows: readonly string[], columns: number): string[] => rows.filter((row) => stringWidth(row) > columns);

const SGR_NAMES: Record<number, string> = {
  1: 'bold',
  2: 'dim',
  3: 'italic',
  7: 'inverse',
  31: 'red',
  32: 'green',
  33: 'yellow',
  34: 'blue',
  35: 'magenta',
  36: 'cyan',
  37: 'white',
  90: 'gray',
};
/** What each SGR reset code turns off. */
const COLORS = ['red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white', 'gray'];
const SGR_RESETS: Record<number, string[]> = { 0: Object.values(SGR_NAMES), 22: ['bold', 'dim'], 23: ['italic'], 27: ['inverse'], 39: COLORS };

/**
 * The styles (`red`, `bold`, `dim`, `inverse`…) in force at the first character of `text` in a styled
 * frame; throws when the frame does not show `text`, so a test cannot pass by looking at nothing.
 */
export function stylesAt(styled: string, text: string): string[] {
  const plain = stripVTControlCharacters(styled);
  const target = plain.indexOf(text);
  if (target < 0) throw new Error(`the frame does not show ${JSON.stringify(text)}:\n${plain}`);
  const active = new Set<string>();
  let shown = 0;
  // eslint-disable-next-line no-control-regex
  for (const token of styled.match(/\x1b\[[0-9;]*m|[\s\S]/gu) ?? []) {
    const sgr = /^\x1b\[([0-9;]*)m$/.exec(token);
    if (!sgr) {
      if (shown === target) break;
      shown += token.length;
      continue;
    }
    for (const code of sgr[1].split(';').map(Number)) {
      const name = SGR_NAMES[code];
      // A colour replaces the one before it.
      for (const off of [...(SGR_RESETS[code] ?? []), ...(name && COLORS.includes(name) ? COLORS : [])]) active.delete(off);
      if (name) active.add(name);
    }
  }
  return [...active].sort();
}

/**
 * A styled frame as rows of runs, each run `[styles]text` for the characters that share those styles:
 * two frames that look the same compare equal, whatever order or grouping their SGR codes were written
 * in. Trailing spaces are left out, as Ink leaves them.
 */
export function styledRuns(styled: string): string[] {
  const active = new Set<string>();
  return styled.split('\n').map((row) => {
    const runs: { styles: string; text: string }[] = [];
    // eslint-disable-next-line no-control-regex
    for (const token of row.match(/\x1b\[[0-9;]*m|[\s\S]/gu) ?? []) {
      const sgr = /^\x1b\[([0-9;]*)m$/.exec(token);
      if (sgr) {
        for (const code of sgr[1].split(';').map(Number)) {
          const name = SGR_NAMES[code];
          for (const off of [...(SGR_RESETS[code] ?? []), ...(name && COLORS.includes(name) ? COLORS : [])]) active.delete(off);
          if (name) active.add(name);
        }
        continue;
      }
      const styles = [...active].sort().join(',');
      if (runs.at(-1)?.styles === styles) runs.at(-1)!.text += token;
      else runs.push({ styles, text: token });
    }
    while (runs.length && /^ *$/.test(runs.at(-1)!.text)) runs.pop();
    if (runs.length) runs.at(-1)!.text = runs.at(-1)!.text.trimEnd();
    return runs.map((run) => `[${run.styles}]${run.text}`).join('');
  });
}

/** An in-memory terminal for Ink: a size, and every frame Ink writes (debug mode writes each one whole). */
class FakeStdout extends EventEmitter {
  readonly frames: string[] = [];
  isTTY = false;
  constructor(
    public columns: number,
    public rows: number,
  ) {
    super();
  }
  write(data: string): boolean {
    this.frames.push(data);
    return true;
  }
  resize(columns: number, rows: number): void {
    this.columns = columns;
    this.rows = rows;
    this.emit('resize');
  }
}

export interface LiveRender {
  /** The newest frame's rows, colour stripped (the transcript's static rows first). */
  rows(): string[];
  text(): string;
  /** Everything written so far (every frame, and text written above them), colour stripped. */
  written(): string;
  resize(columns: number, rows: number): void;
  unmount(): void;
}

/** Mounts `node` with Ink's `render` on a terminal of `columns` × `rows` that lives in memory. */
export function renderLive(node: ReactNode, { columns = 80, rows = 24 }: { columns?: number; rows?: number } = {}): LiveRender {
  const stdout = new FakeStdout(columns, rows);
  const stdin = new PassThrough();
  const instance = render(node, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: new PassThrough() as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  const rowsNow = () => toRows(stdout.frames.at(-1) ?? '');
  return {
    rows: rowsNow,
    text: () => rowsNow().join('\n'),
    written: () => stripVTControlCharacters(stdout.frames.join('')),
    resize: (c, r) => stdout.resize(c, r),
    unmount: () => {
      instance.unmount();
      instance.cleanup();
      stdin.destroy();
    },
  };
}
