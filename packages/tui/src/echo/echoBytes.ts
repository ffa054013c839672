/**
 * Local echo, as mosh and fast editors do it: a key typed at the end of the draft is written to the
 * terminal at once, at the caret, before React, layout and Ink's diff have drawn the frame that shows it
 * (most of a key's echo time). The frame still follows for every key and rewrites the same cell.
 *
 * Only a key whose frame is certain is echoed. What the terminal shows is known from the last frame Ink
 * wrote (its rows, and where it left the cursor), given nothing was written after it and the terminal
 * still has the size it was laid out for. The key must be a printable ASCII character added at the end
 * of the draft, or Backspace there, and the composer's rows after it must be those before it with that
 * one cell changed: same rows, same caret row, no wrap, no completion list or styled draft (the first
 * key into an empty draft, and the Backspace that empties it, trade the placeholder for the character
 * on its one row: the echo erases the placeholder, and the frame draws it back). Then the next frame
 * writes the new character (or the blank) in that cell itself, since the composer's caret row changed
 * there, and it returns the cursor from the caret with a move down and a move to column 0, which does
 * not depend on the column the echo left the cursor at.
 */
import { completionQuery } from '../commands/slashCompletion.ts';
import { draftRows, type DrawnComposer } from '../components/Composer.tsx';
import type { ComposerState } from '../input/composerKeys.ts';
import type { Key } from '../input/keyParser.ts';

/** The last frame on the terminal. */
export interface ShownFrame {
  /** Its rows as Ink wrote them, escape codes and all; the last is the empty row under the frame. */
  lines: readonly string[];
  /** Where it left the terminal cursor, shown; undefined: hidden, at column 0 of the row under the frame. */
  cursor?: { x: number; y: number };
  /** The terminal's size it was laid out for. */
  columns: number;
  rows: number;
  /** The composer as this frame drew it. */
  composer?: DrawnComposer;
}

/** A draft whose first character changes how it is drawn or opens a list (commands, shell, paths). */
const SPECIAL_START = /^[/!@]/;

const CSI = '\x1b[';
const DIM = `${CSI}2m`;
const UNDIM = `${CSI}22m`;
const ERASE_LINE_END = `${CSI}K`;
// eslint-disable-next-line no-control-regex
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;

/** A frame's row as it reads on the screen. */
const plain = (line: string) => line.replace(ESCAPES, '').trimEnd();

/** Typed text that goes into a cell as it is: one printable ASCII character. */
const isPrintableAscii = (text: string) => text.length === 1 && text >= ' ' && text <= '~';

/** The one character `key` added to the end of the draft, or Backspace took from it; else undefined. */
function plainEdit(before: ComposerState, after: ComposerState, key: Key): { kind: 'insert' | 'delete'; char: string } | undefined {
  if (before.cursor !== before.draft.length || after.cursor !== after.draft.length) return undefined;
  if (key.type === 'text' && isPrintableAscii(key.text) && after.draft === before.draft + key.text) return { kind: 'insert', char: key.text };
  if (key.type !== 'key' || key.name !== 'backspace' || key.ctrl || key.meta || key.shift) return undefined;
  const char = before.draft.slice(-1);
  return isPrintableAscii(char) && after.draft === before.draft.slice(0, -1) ? { kind: 'delete', char } : undefined;
}

/** A draft drawn as plain text with no list under it (or empty, showing a placeholder). */
const quietDraft = (state: ComposerState) => !SPECIAL_START.test(state.draft) && completionQuery(state) === undefined;

/**
 * The bytes that show `key` on the terminal at once, or undefined when the frame alone must show it.
 * `before` is the composer when the key came, `after` what the key made of it.
 */
export function echoBytes(frame: ShownFrame | undefined, before: ComposerState, after: ComposerState, key: Key): string | undefined {
  const drawn = frame?.composer;
  if (!frame || !drawn?.caret || drawn.draft !== before.draft || drawn.cursor !== before.cursor || drawn.width !== frame.columns) return undefined;
  const edit = plainEdit(before, after, key);
  if (!edit || !quietDraft(before) || !quietDraft(after)) return undefined;

  // The composer's rows must stay as they are but for the caret's row, which gains or loses one cell
  // (or, from or to an empty draft, trades the placeholder for the character, on one row).
  const now = draftRows(before.draft, before.cursor, drawn.width, drawn.placeholder);
  const next = draftRows(after.draft, after.cursor, drawn.width, drawn.placeholder);
  const row = now.caret.row;
  if (next.caret.row !== row || next.rows.length !== now.rows.length || now.rows.some((text, at) => at !== row && text !== next.rows[at])) return undefined;
  const [longer, shorter] = edit.kind === 'insert' ? [next, now] : [now, next];
  const placeholder = before.draft === '' || after.draft === '';
  const grown = placeholder
    ? longer.rows.length === 1 && longer.rows[0] === `❯ ${edit.char} `
    : shorter.rows[row].endsWith(' ') && longer.rows[row] === `${shorter.rows[row].slice(0, -1)}${edit.char} `;
  if (!grown || longer.caret.x !== shorter.caret.x + 1) return undefined;

  // The caret's row in the frame: the one row that reads like it (the composer's, which the frame holds;
  // a second would make it unsure which), where the frame left the cursor if it showed it. A cursor
  // placed from an old layout (Ink puts it back where the composer last said after printing above the
  // frame) is not at that row.
  const caretText = now.rows[row].trimEnd();
  const found = frame.lines.flatMap((line, at) => (plain(line) === caretText ? [at] : []));
  if (found.length !== 1) return undefined;
  const y = found[0];
  const bottom = frame.lines.length - 1;
  if (frame.cursor && (frame.cursor.y !== y || frame.cursor.x !== now.caret.x)) return undefined;
  // Hidden under the frame (it ended with a newline), the caret's row must be within the screen's reach of a move up.
  if (!frame.cursor && (frame.lines[bottom] !== '' || bottom - y >= frame.rows)) return undefined;

  // The cell that changes and what it shows: the character in the draft's style, or a blank. The
  // placeholder is erased with the rest of the row; the frame draws it back when the draft empties.
  const cell = edit.kind === 'insert' ? now.caret.x : now.caret.x - 1;
  const char = drawn.dim ? `${DIM}${edit.char}${UNDIM}` : edit.char;
  const shown = edit.kind === 'insert' ? `${char}${placeholder ? ERASE_LINE_END : ''}` : placeholder ? ERASE_LINE_END : ' ';
  if (frame.cursor) return edit.kind === 'insert' ? shown : `\b${shown}${placeholder ? '' : '\b'}`;
  const up = bottom - y;
  // To the cell, then back to where the frame left the cursor, which the next frame starts from.
  return `${CSI}${up}A${CSI}${cell + 1}G${shown}${CSI}${up}B\r`;
}
