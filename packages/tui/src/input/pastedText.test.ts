import { describe, expect, it } from 'vitest';
import { applyComposerKeys, type ComposerState } from './composerKeys.ts';
import { PASTE_END, PASTE_START, parseKeys } from './keyParser.ts';

const folding: ComposerState = { draft: '', cursor: 0, pastes: [] };
const lines = (count: number, tag = 'line') => Array.from({ length: count }, (_, i) => `${tag} ${i + 1}`).join('\n');
const paste = (text: string) => `${PASTE_START}${text}${PASTE_END}`;
const type = (input: string, state: ComposerState = folding) => applyComposerKeys(state, parseKeys(input));

describe('long pastes in the composer', () => {
  it('shows a paste of more than 10 lines as a label and sends the full text', () => {
    const long = lines(12);
    const typed = type(`see ${paste(long)} here`);
    expect(typed.draft).toBe('see [pasted 12 lines] here');
    expect(type('\r', typed).submitted).toEqual([`see ${long} here`]);
    expect(type('\r', typed).pastes).toEqual([]);
  });

  it('keeps a paste of 10 lines or fewer as it is', () => {
    expect(type(paste(lines(10))).draft).toBe(lines(10));
  });

  it('numbers a second label with the same line count and expands each to its own text', () => {
    const typed = type(`${paste(lines(11, 'a'))} ${paste(lines(11, 'b'))}`);
    expect(typed.draft).toBe('[pasted 11 lines] [pasted 11 lines #2]');
    expect(type('\r', typed).submitted).toEqual([`${lines(11, 'a')} ${lines(11, 'b')}`]);
  });

  it('expands the paste, instead of deleting from its label, when Backspace reaches it', () => {
    const typed = type(`x${paste(lines(12))}`);
    const edited = type('\x7f', typed);
    expect(edited.draft).toBe(`x${lines(12)}`);
    expect(edited.cursor).toBe(edited.draft.length);
    expect(type('\x7f', edited).draft).toBe(`x${lines(12).slice(0, -1)}`);
  });

  it('moves the cursor over a label without expanding it; typing inside the label expands it', () => {
    const moved = type(`${paste(lines(12))}\x1b[D\x1b[D`);
    expect(moved.draft).toBe('[pasted 12 lines]');
    expect(moved.cursor).toBe('[pasted 12 lines]'.length - 2);
    const typed = type('z', moved);
    expect(typed.draft).toBe(lines(12));
    expect(typed.pastes).toEqual([]);
  });

  it('drops a paste whose label left the draft, so its text never comes back', () => {
    const typed = type(paste(lines(12, 'old')));
    const cleared = { ...typed, draft: '', cursor: 0 };
    const again = type(paste(lines(12, 'new')), cleared);
    expect(type('\r', again).submitted).toEqual([lines(12, 'new')]);
  });

  it('leaves pastes unfolded where the state does not ask for folding (a clarify answer)', () => {
    expect(type(paste(lines(12)), { draft: '', cursor: 0 }).draft).toBe(lines(12));
  });
});
