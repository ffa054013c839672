import { describe, expect, it } from 'vitest';
import { draftRows, type DrawnComposer } from '../components/Composer.tsx';
import type { ComposerState } from '../input/composerKeys.ts';
import type { Key } from '../input/keyParser.ts';
import { echoBytes, type ShownFrame } from './echoBytes.ts';

const WIDTH = 30;
const text = (char: string): Key => ({ type: 'text', text: char });
const backspace: Key = { type: 'key', name: 'backspace', ctrl: false, meta: false, shift: false };
const atEnd = (draft: string): ComposerState => ({ draft, cursor: draft.length });

/**
 * A frame as Ink writes it with the composer drawing `state`: a live line above, the rule, the draft's
 * rows (the prompt sign in colour, the text dimmed while busy), the status line, the empty row under it.
 */
function frameOf(state: ComposerState, options: { shown?: boolean; dim?: boolean; above?: string[]; width?: number; rows?: number; placeholder?: string } = {}): ShownFrame {
  const width = options.width ?? WIDTH;
  const placeholder = options.placeholder ?? 'Ask hermes';
  const { rows, caret } = draftRows(state.draft, state.cursor, width, placeholder);
  const styled = rows.map((row) => {
    const body = row.startsWith('❯ ') ? `\x1b[36m❯ \x1b[39m${row.slice(2)}` : row;
    return options.dim ? `\x1b[2m${body}\x1b[22m` : body.trimEnd();
  });
  const above = options.above ?? ['● thinking'];
  const lines = [...above, '─'.repeat(width), ...styled, '● ready', ''];
  const composer: DrawnComposer = { ...state, width, dim: options.dim ?? false, caret: true, placeholder };
  const cursor = { x: caret.x, y: above.length + 1 + caret.row };
  return { lines, ...(options.shown === false ? {} : { cursor }), columns: width, rows: options.rows ?? 24, composer };
}

/** What `key` typed at the end of `draft` echoes, the frame showing `draft`. */
function echoOf(draft: string, key: Key, options: Parameters<typeof frameOf>[1] = {}): string | undefined {
  const before = atEnd(draft);
  const after = key.type === 'text' ? atEnd(draft + key.text) : atEnd(draft.slice(0, -1));
  return echoBytes(frameOf(before, options), before, after, key);
}

describe('echoBytes', () => {
  it('writes a character typed at the end of the draft where the cursor is, in the draft’s style', () => {
    expect(echoOf('hello', text('a'))).toBe('a');
    expect(echoOf('hello', text(' '))).toBe(' ');
    expect(echoOf('hello', text('a'), { dim: true })).toBe('\x1b[2ma\x1b[22m');
  });

  it('blanks the last character for Backspace and steps back over it', () => {
    expect(echoOf('hello', backspace)).toBe('\b \b');
    expect(echoOf('hello', backspace, { dim: true })).toBe('\b \b');
  });

  it('with the cursor hidden under the frame, goes up to the cell and back to where the frame left the cursor', () => {
    // Rows: thinking, rule, prompt, status, the cursor's: the prompt is two rows up.
    expect(echoOf('hello', text('a'), { shown: false })).toBe('\x1b[2A\x1b[8Ga\x1b[2B\r');
    expect(echoOf('hello', backspace, { shown: false })).toBe('\x1b[2A\x1b[7G \x1b[2B\r');
    expect(echoOf('hello', text('a'), { shown: false, dim: true })).toBe('\x1b[2A\x1b[8G\x1b[2ma\x1b[22m\x1b[2B\r');
  });

  it('echoes on a wrapped row of a long draft and on the last line of a multi-line draft', () => {
    const long = 'the quick brown fox jumps over';
    expect(draftRows(long, long.length, WIDTH).rows).toHaveLength(2);
    expect(echoOf(long, text('x'))).toBe('x');
    expect(echoOf('first\nsecond', text('x'), { shown: false })).toBe('\x1b[2A\x1b[9Gx\x1b[2B\r');
  });

  it('leaves to the frame a key that is not one printable ASCII character added at the end', () => {
    for (const key of [text('é'), text('你'), text('😀'), text('ab'), text('\t'), { type: 'paste', text: 'x' } as Key]) expect(echoOf('hello', key), JSON.stringify(key)).toBeUndefined();
    for (const name of ['delete', 'left', 'enter']) expect(echoOf('hello', { ...backspace, name })).toBeUndefined();
    expect(echoOf('hello', { ...backspace, meta: true })).toBeUndefined();
    // The caret inside the draft: the text after it moves.
    const before = { draft: 'hello', cursor: 2 };
    expect(echoBytes(frameOf(before), before, { draft: 'heXllo', cursor: 3 }, text('X'))).toBeUndefined();
    // The key changed more than one character (a paste label expanded, say).
    const state = atEnd('hello');
    expect(echoBytes(frameOf(state), state, atEnd('hello [x]a'), text('a'))).toBeUndefined();
  });

  it('trades the placeholder for the first character, erasing it, and back for the Backspace that empties the draft', () => {
    expect(echoOf('', text('h'))).toBe('h\x1b[K');
    expect(echoOf('', text('h'), { dim: true })).toBe('\x1b[2mh\x1b[22m\x1b[K');
    expect(echoOf('', text('h'), { shown: false })).toBe('\x1b[2A\x1b[3Gh\x1b[K\x1b[2B\r');
    expect(echoOf('h', backspace)).toBe('\b\x1b[K');
    expect(echoOf('h', backspace, { shown: false })).toBe('\x1b[2A\x1b[3G\x1b[K\x1b[2B\r');
    // A placeholder longer than its row takes two: the first key shortens the composer.
    const long = 'hermes is answering; Enter queues your next prompt';
    expect(echoOf('', text('h'), { placeholder: long })).toBeUndefined();
    expect(echoOf('h', backspace, { placeholder: long })).toBeUndefined();
    // The frame shows another placeholder than the composer drew.
    const before = atEnd('');
    const frame = frameOf(before);
    expect(echoBytes({ ...frame, composer: { ...frame.composer!, placeholder: 'Ask' } }, before, atEnd('h'), text('h'))).toBeUndefined();
  });

  it('leaves to the frame a command, a shell line, a path and non-ASCII Backspace', () => {
    for (const draft of ['/hel', '!ls', '@src', 'see @fi', '/resume x']) expect(echoOf(draft, text('a')), draft).toBeUndefined();
    for (const char of '/!@') expect(echoOf('', text(char)), char).toBeUndefined();
    expect(echoOf('/', backspace)).toBeUndefined();
    // Backspace that would open the list again, or takes a wide character.
    expect(echoOf('see @x ', backspace)).toBeUndefined();
    expect(echoOf('hello你', backspace)).toBeUndefined();
  });

  it('leaves to the frame a key at the wrap column, a word that wraps, and Backspace at a row’s start', () => {
    // "❯ " and 26 characters, then the caret's block in the last column: one more wraps the block.
    const full = 'a'.repeat(WIDTH - 3);
    expect(echoOf(full.slice(1), text('a'))).toBe('a');
    expect(echoOf(full, text('a'))).toBeUndefined();
    // A word typed past the row's end moves to the next row whole.
    const words = `aaaa ${'b'.repeat(WIDTH - 9)}`;
    expect(echoOf(words, text('b'))).toBe('b');
    expect(echoOf(`${words}b`, text('b'))).toBeUndefined();
    expect(draftRows(`${words}bbb`, words.length + 3, WIDTH).rows).toEqual(['❯ aaaa ', `${'b'.repeat(WIDTH - 6)} `]);
    expect(echoOf(`${words}bb`, text('b'))).toBeUndefined();
    // The caret at the start of a wrapped row: Backspace takes the row back up.
    const filled = `${'a'.repeat(WIDTH - 3)} `;
    expect(draftRows(filled, filled.length, WIDTH)).toEqual({ rows: [`❯ ${filled}`, ' '], caret: { row: 1, x: 0 } });
    expect(echoOf(filled, backspace)).toBeUndefined();
    // One further on, Backspace blanks the row's first cell and the caret stays on that row.
    expect(draftRows(`${filled}b`, filled.length + 1, WIDTH).rows).toEqual([`❯ ${filled}`, 'b ']);
    expect(echoOf(`${filled}b`, backspace)).toBe('\b \b');
  });

  it('leaves to the frame a key when the frame does not show the draft as the composer has it', () => {
    const before = atEnd('hello');
    const after = atEnd('helloa');
    const frame = frameOf(before);
    expect(echoBytes(undefined, before, after, text('a'))).toBeUndefined();
    // A key not drawn yet (two in one read): the frame drew less than the composer holds.
    expect(echoBytes(frameOf(atEnd('hell')), before, after, text('a'))).toBeUndefined();
    expect(echoBytes({ ...frame, composer: { ...frame.composer!, draft: 'hell', cursor: 4 } }, before, after, text('a'))).toBeUndefined();
    // No caret drawn (a card has the keys), or laid out for another width.
    expect(echoBytes({ ...frame, composer: { ...frame.composer!, caret: false } }, before, after, text('a'))).toBeUndefined();
    expect(echoBytes({ ...frame, columns: WIDTH + 1 }, before, after, text('a'))).toBeUndefined();
    // The cursor elsewhere, or the row under it reads otherwise (a composer drawn at its old place).
    expect(echoBytes({ ...frame, cursor: { ...frame.cursor!, x: 6 } }, before, after, text('a'))).toBeUndefined();
    expect(echoBytes({ ...frame, cursor: { ...frame.cursor!, y: 1 } }, before, after, text('a'))).toBeUndefined();
    expect(echoBytes({ ...frame, lines: frame.lines.map((line) => line.replace('hello', 'hallo')) }, before, after, text('a'))).toBeUndefined();
  });

  it('echoes only at the one row that reads like the caret’s, and with the cursor hidden, within reach of a move up', () => {
    // A second row like it (the cursor may have been put back from an old layout): unsure which is the composer's.
    for (const shown of [true, false]) expect(echoOf('hello', text('a'), { shown, above: ['\x1b[36m❯ \x1b[39mhello'] })).toBeUndefined();
    expect(echoOf('hello', text('a'), { above: ['\x1b[36m❯ \x1b[39mhello there'] })).toBe('a');
    const before = atEnd('hello');
    const frame = frameOf(before, { shown: false });
    // A frame that did not end with a newline leaves the cursor at the end of its last row.
    expect(echoBytes({ ...frame, lines: frame.lines.slice(0, -1) }, before, atEnd('helloa'), text('a'))).toBeUndefined();
    // The caret's row must be on the screen: two rows above the cursor's, on a screen of two rows it is not.
    expect(echoBytes({ ...frame, rows: 2 }, before, atEnd('helloa'), text('a'))).toBeUndefined();
    expect(echoBytes({ ...frame, rows: 3 }, before, atEnd('helloa'), text('a'))).toBe('\x1b[2A\x1b[8Ga\x1b[2B\r');
  });
});
