import { describe, expect, it } from 'vitest';
import type { ApprovalChoice } from '@hermes/rpc-server/protocol';
import { applyApprovalKey, initialApprovalSelection, offeredChoices } from './approvalKeys.ts';
import { parseKeys, type Key } from './keyParser.ts';

const ALL = offeredChoices(['once', 'session', 'always', 'deny']);

/** Presses `input` on a fresh card and returns the answer it produced, if any. */
function press(input: string, choices: ApprovalChoice[] = ALL): ApprovalChoice | undefined {
  let selected = initialApprovalSelection(choices);
  for (const key of parseKeys(input)) {
    const result = applyApprovalKey(choices, selected, key);
    if (result.answer) return result.answer;
    selected = result.selected;
  }
  return undefined;
}

const ctrlC: Key = { type: 'key', name: 'c', ctrl: true, meta: false, shift: false };

describe('approval card keys', () => {
  it('denies on a bare Enter: the selection starts on Deny', () => {
    expect(press('\r')).toBe('deny');
    expect(press('\r', offeredChoices(['once', 'deny']))).toBe('deny');
  });

  it('approves once with 1 then Enter, and for the session with 2 then Enter', () => {
    expect(press('1\r')).toBe('once');
    expect(press('2\r')).toBe('session');
    expect(press('3\r')).toBe('always');
  });

  it('needs Enter to confirm a digit', () => {
    expect(press('1')).toBeUndefined();
  });

  it('moves with the arrows and stops at the ends', () => {
    expect(press('\x1b[A\r')).toBe('always');
    expect(press('\x1b[A\x1b[A\x1b[A\x1b[A\x1b[A\r')).toBe('once');
    expect(press('\x1b[B\x1b[B\r')).toBe('deny');
  });

  it('denies on Esc and on Ctrl+C, whatever is selected', () => {
    expect(press('1\x1b')).toBe('deny');
    expect(applyApprovalKey(ALL, 0, ctrlC).answer).toBe('deny');
  });

  it('ignores digits beyond the list, other letters and pastes', () => {
    const choices = offeredChoices(['once', 'deny']);
    expect(press('3\r', choices)).toBe('deny');
    expect(press('yes\r')).toBe('deny');
    expect(applyApprovalKey(ALL, 3, { type: 'paste', text: '1' })).toEqual({ selected: 3 });
  });

  it('lists only the offered choices, in a fixed order, and always Deny', () => {
    expect(offeredChoices(['deny', 'once'])).toEqual(['once', 'deny']);
    expect(offeredChoices(['always', 'bogus'])).toEqual(['always', 'deny']);
    expect(offeredChoices(undefined)).toEqual(['deny']);
  });
});
