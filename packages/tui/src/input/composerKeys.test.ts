import { describe, expect, it } from 'vitest';
import { applyComposerKey, applyComposerKeys, type ComposerState } from './composerKeys.ts';
import { parseKeys } from './keyParser.ts';

const empty: ComposerState = { draft: '', cursor: 0 };

/** Types raw terminal input into a composer. */
function type(input: string, state: ComposerState = empty) {
  return applyComposerKeys(state, parseKeys(input));
}

/** Shows the cursor as `|`. */
const show = (s: ComposerState) => `${s.draft.slice(0, s.cursor)}|${s.draft.slice(s.cursor)}`;

describe('composer keys', () => {
  it('types, erases and submits a batched read', () => {
    const result = type('abc\x7fd\r');
    expect(result.submitted).toEqual(['abd']);
    expect(result.draft).toBe('');
  });

  it('does not submit an empty or blank draft', () => {
    expect(type('\r   \r').submitted).toEqual([]);
  });

  it('keeps typing after a submit in the same read', () => {
    const result = type('one\rtwo');
    expect(result.submitted).toEqual(['one']);
    expect(show(result)).toBe('two|');
  });

  it('erases a whole emoji with one Backspace', () => {
    expect(show(type('ok 👍🏽\x7f'))).toBe('ok |');
  });

  it('edits in the middle with arrows, Home and End', () => {
    expect(show(type('helo\x1b[D\x1b[Dl'))).toBe('hel|lo');
    expect(show(type('world\x1b[Hhello \x1b[F!'))).toBe('hello world!|');
    expect(show(type('abc\x1b[D\x1b[D\x1b[3~'))).toBe('a|c');
  });

  it('supports Ctrl+U, Ctrl+K, Ctrl+W and Alt+Backspace', () => {
    expect(show(type('hello world\x17'))).toBe('hello |');
    expect(show(type('hello world\x1b\x7f'))).toBe('hello |');
    expect(show(type('hello world\x01\x1b[C\x0b'))).toBe('h|');
    expect(show(type('hello world\x15'))).toBe('|');
  });

  it('keeps the newlines of a paste in the draft instead of submitting', () => {
    const result = type('\x1b[200~first\r\nsecond\x1b[201~');
    expect(result.submitted).toEqual([]);
    expect(result.draft).toBe('first\nsecond');
    expect(type('\r', result).submitted).toEqual(['first\nsecond']);
  });

  it('inserts a newline for Alt+Enter and for a backslash before Enter', () => {
    expect(show(type('a\x1b\rb'))).toBe('a\nb|');
    expect(show(type('a\\\rb'))).toBe('a\nb|');
  });

  it('inserts a newline for Shift+Enter in the kitty and modifyOtherKeys encodings', () => {
    const result = type('a\x1b[13;2ub\x1b[27;2;13~c');
    expect(show(result)).toBe('a\nb\nc|');
    expect(result.submitted).toEqual([]);
  });

  it('moves between lines of a multi-line draft', () => {
    const state = { draft: 'abcd\nxy', cursor: 7 };
    expect(show(applyComposerKey(state, { type: 'key', name: 'up', ctrl: false, meta: false, shift: false }))).toBe('ab|cd\nxy');
    expect(show(type('\x1b[A\x1b[B', { draft: 'abcd\nxy', cursor: 4 }))).toBe('abcd\nxy|');
  });
});
