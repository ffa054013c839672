/**
 * Pure key dispatch for the composer: `(draft, cursor, key) → (draft, cursor, submit?)`. The cursor
 * is a UTF-16 index that always sits on a grapheme boundary, so an emoji is one step and one Backspace.
 */
import type { Key } from './keyParser.ts';
import { expandPastes, expandTouchedPaste, pasteLabel, type PastedText } from './pastedText.ts';

export interface ComposerState {
  draft: string;
  cursor: number;
  /** Long pastes shown in the draft as a label; present (even empty) turns the folding on. */
  pastes?: readonly PastedText[];
}

export interface ComposerResult extends ComposerState {
  /** Set when Enter submitted the draft: the text to send. */
  submit?: string;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function boundaries(text: string): number[] {
  const points = [0];
  for (const { index, segment } of graphemes.segment(text)) points.push(index + segment.length);
  return points;
}

function previousBoundary(text: string, cursor: number): number {
  const points = boundaries(text);
  for (let i = points.length - 1; i >= 0; i--) if (points[i] < cursor) return points[i];
  return 0;
}

function nextBoundary(text: string, cursor: number): number {
  for (const point of boundaries(text)) if (point > cursor) return point;
  return text.length;
}

function previousWord(text: string, cursor: number): number {
  let index = cursor;
  while (index > 0 && /\s/.test(text[index - 1])) index--;
  while (index > 0 && !/\s/.test(text[index - 1])) index--;
  return index;
}

function nextWord(text: string, cursor: number): number {
  let index = cursor;
  while (index < text.length && /\s/.test(text[index])) index++;
  while (index < text.length && !/\s/.test(text[index])) index++;
  return index;
}

const lineStart = (text: string, cursor: number) => text.lastIndexOf('\n', cursor - 1) + 1;
function lineEnd(text: string, cursor: number): number {
  const end = text.indexOf('\n', cursor);
  return end === -1 ? text.length : end;
}

/** Whether the cursor is on the draft's first line, where ↑ walks back through the prompt history. */
export const onFirstLine = (text: string, cursor: number) => lineStart(text, cursor) === 0;
/** Whether the cursor is on the draft's last line, where ↓ walks forward through the prompt history. */
export const onLastLine = (text: string, cursor: number) => lineEnd(text, cursor) === text.length;

/** Moves to the same column of the line above (-1) or below (+1); stays put at the first/last line. */
function verticalMove(text: string, cursor: number, direction: -1 | 1): number {
  const start = lineStart(text, cursor);
  const column = cursor - start;
  if (direction === -1) {
    if (start === 0) return cursor;
    const previousStart = lineStart(text, start - 1);
    return Math.min(previousStart + column, start - 1);
  }
  const end = lineEnd(text, cursor);
  if (end === text.length) return cursor;
  return Math.min(end + 1 + column, lineEnd(text, end + 1));
}

function insert(state: ComposerState, text: string): ComposerState {
  if (!text) return state;
  const { draft, cursor } = state;
  return { ...state, draft: draft.slice(0, cursor) + text + draft.slice(cursor), cursor: cursor + text.length };
}

function remove(state: ComposerState, from: number, to: number): ComposerState {
  if (from === to) return state;
  return { ...state, draft: state.draft.slice(0, from) + state.draft.slice(to), cursor: from };
}

/** A paste goes in as it is, or, when long and the composer folds pastes, as a label for it. */
function insertPaste(state: ComposerState, pasted: string): ComposerState {
  const text = cleanPaste(pasted);
  const label = state.pastes && pasteLabel(text, state.draft);
  if (!label) return insert(state, text);
  // Pastes whose label left the draft (history recall, Ctrl+C) are dropped, so no old text comes back.
  const kept = (state.pastes ?? []).filter((paste) => state.draft.includes(paste.label));
  return { ...insert(state, label), pastes: [...kept, { label, text }] };
}

/** Pasted text keeps its newlines; carriage returns become newlines and other control bytes go. */
export function cleanPaste(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, '    ')
    // eslint-disable-next-line no-control-regex
    .replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, '')
    // eslint-disable-next-line no-control-regex
    .replace(/[\x00-\x09\x0b-\x1f\x7f]/g, '');
}

export function applyComposerKey(state: ComposerState, key: Key): ComposerResult {
  const moved = applyKey(state, key);
  // Cursor moves return only draft and cursor; the pastes stay as they were.
  const result = state.pastes && !moved.pastes ? { ...moved, pastes: state.pastes } : moved;
  if (result.submit !== undefined) return result;
  // A key that would change a paste's label shows the paste's text instead.
  return expandTouchedPaste(state, result) ?? result;
}

function applyKey(state: ComposerState, key: Key): ComposerResult {
  const { draft, cursor } = state;
  if (key.type === 'text') return insert(state, key.text);
  if (key.type === 'paste') return insertPaste(state, key.text);

  const { name, ctrl, meta } = key;
  if (name === 'enter') {
    // Shift+Enter arrives distinct from Enter only under the kitty or modifyOtherKeys protocols.
    if (meta || key.shift) return insert(state, '\n');
    // A trailing backslash continues the prompt on a new line, as in a shell.
    if (cursor > 0 && draft[cursor - 1] === '\\') return insert(remove(state, cursor - 1, cursor), '\n');
    if (draft.trim() === '') return state;
    return { draft: '', cursor: 0, ...(state.pastes ? { pastes: [] } : {}), submit: expandPastes(draft, state.pastes).trim() };
  }
  if (ctrl) {
    switch (name) {
      case 'a':
        return { draft, cursor: lineStart(draft, cursor) };
      case 'e':
        return { draft, cursor: lineEnd(draft, cursor) };
      case 'b':
        return { draft, cursor: previousBoundary(draft, cursor) };
      case 'f':
        return { draft, cursor: nextBoundary(draft, cursor) };
      case 'd':
        return remove(state, cursor, nextBoundary(draft, cursor));
      case 'h':
        return remove(state, previousBoundary(draft, cursor), cursor);
      case 'u':
        return remove(state, lineStart(draft, cursor), cursor);
      case 'k':
        return remove(state, cursor, lineEnd(draft, cursor));
      case 'w':
        return remove(state, previousWord(draft, cursor), cursor);
      case 'left':
        return { draft, cursor: previousWord(draft, cursor) };
      case 'right':
        return { draft, cursor: nextWord(draft, cursor) };
    }
    return state;
  }
  if (meta) {
    switch (name) {
      case 'backspace':
        return remove(state, previousWord(draft, cursor), cursor);
      case 'b':
      case 'left':
        return { draft, cursor: previousWord(draft, cursor) };
      case 'f':
      case 'right':
        return { draft, cursor: nextWord(draft, cursor) };
      case 'd':
        return remove(state, cursor, nextWord(draft, cursor));
    }
    return state;
  }
  switch (name) {
    case 'backspace':
      return remove(state, previousBoundary(draft, cursor), cursor);
    case 'delete':
      return remove(state, cursor, nextBoundary(draft, cursor));
    case 'left':
      return { draft, cursor: previousBoundary(draft, cursor) };
    case 'right':
      return { draft, cursor: nextBoundary(draft, cursor) };
    case 'home':
      return { draft, cursor: lineStart(draft, cursor) };
    case 'end':
      return { draft, cursor: lineEnd(draft, cursor) };
    case 'up':
      return { draft, cursor: verticalMove(draft, cursor, -1) };
    case 'down':
      return { draft, cursor: verticalMove(draft, cursor, 1) };
  }
  return state;
}

/** Applies keys in order, collecting every submitted text. */
export function applyComposerKeys(state: ComposerState, keys: readonly Key[]): ComposerState & { submitted: string[] } {
  let current: ComposerState = state;
  const submitted: string[] = [];
  for (const key of keys) {
    const result = applyComposerKey(current, key);
    if (result.submit !== undefined) submitted.push(result.submit);
    const { submit: _submit, ...next } = result;
    current = next;
  }
  return { ...current, submitted };
}
