import { describe, expect, it } from 'vitest';
import type { ApprovalChoice } from '@hermes/rpc-server/protocol';
import { applyApprovalKey, initialApprovalSelection, offeredChoices, type ApprovalCardState, type CommandViewSize } from './approvalKeys.ts';
import { parseKeys, type Key } from './keyParser.ts';

const ALL = offeredChoices(['once', 'session', 'always', 'deny']);
/** A command of 40 rows seen 8 at a time, with nothing found on a line of its own. */
const SIZE: CommandViewSize = { page: 8, total: 40, opensAt: 0 };

/** Presses `input` on a fresh card; returns the answer it produced (if any) and the card's state. */
function pressAll(input: string, choices: ApprovalChoice[] = ALL, size = SIZE): { answer?: ApprovalChoice; card: ApprovalCardState } {
  let card: ApprovalCardState = { selected: initialApprovalSelection(choices) };
  for (const key of parseKeys(input)) {
    const { answer, ...next } = applyApprovalKey(choices, card, key, size);
    if (answer) return { answer, card: next };
    card = next;
  }
  return { card };
}

const press = (input: string, choices?: ApprovalChoice[]) => pressAll(input, choices).answer;

const ctrlC: Key = { type: 'key', name: 'c', ctrl: true, meta: false, shift: false };
const ESC = '\x1b';
const UP = '\x1b[A';
const DOWN = '\x1b[B';
const PGUP = '\x1b[5~';
const PGDN = '\x1b[6~';

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
    expect(press(`${UP}\r`)).toBe('always');
    expect(press(`${UP}${UP}${UP}${UP}${UP}\r`)).toBe('once');
    expect(press(`${DOWN}${DOWN}\r`)).toBe('deny');
  });

  it('denies on Esc and on Ctrl+C, whatever is selected', () => {
    expect(press(`1${ESC}`)).toBe('deny');
    expect(applyApprovalKey(ALL, { selected: 0 }, ctrlC, SIZE).answer).toBe('deny');
  });

  it('ignores digits beyond the list, other letters and pastes', () => {
    const choices = offeredChoices(['once', 'deny']);
    expect(press('3\r', choices)).toBe('deny');
    expect(press('yes\r')).toBe('deny');
    expect(applyApprovalKey(ALL, { selected: 3 }, { type: 'paste', text: '1' }, SIZE)).toEqual({ selected: 3 });
  });

  it('lists only the offered choices, in a fixed order, and always Deny', () => {
    expect(offeredChoices(['deny', 'once'])).toEqual(['once', 'deny']);
    expect(offeredChoices(['always', 'bogus'])).toEqual(['always', 'deny']);
    expect(offeredChoices(undefined)).toEqual(['deny']);
  });
});

describe('the command view', () => {
  it('opens with v at the top of the command and closes with v, Esc or q, answering nothing', () => {
    expect(pressAll('v').card).toEqual({ selected: 3, pager: { top: 0 } });
    expect(pressAll('vv').card).toEqual({ selected: 3 });
    expect(pressAll(`v${ESC}`)).toEqual({ card: { selected: 3 } });
    expect(pressAll('vq')).toEqual({ card: { selected: 3 } });
  });

  it('scrolls by rows and pages, and stops with the last page on screen', () => {
    expect(pressAll(`v${DOWN}${DOWN}j`).card.pager).toEqual({ top: 3 });
    expect(pressAll(`v${DOWN}${DOWN}k${UP}${UP}`).card.pager).toEqual({ top: 0 });
    expect(pressAll(`v${PGDN}`).card.pager).toEqual({ top: 8 });
    expect(pressAll(`v${PGDN}${PGDN} `).card.pager).toEqual({ top: 24 });
    expect(pressAll(`v${PGDN.repeat(10)}`).card.pager).toEqual({ top: SIZE.total - SIZE.page });
    expect(pressAll(`v${PGDN.repeat(10)}${PGUP}`).card.pager).toEqual({ top: 24 });
    expect(pressAll('vG').card.pager).toEqual({ top: 32 });
    expect(pressAll('vGg').card.pager).toEqual({ top: 0 });
  });

  it('opens where the first line holding a finding is on screen, and scrolls from there', () => {
    const size = { ...SIZE, opensAt: 30 };
    expect(pressAll('v', ALL, size).card).toEqual({ selected: 3, pager: { top: 30 } });
    expect(pressAll(`v${PGUP}`, ALL, size).card.pager).toEqual({ top: 22 });
    expect(pressAll(`v${PGDN}`, ALL, size).card.pager).toEqual({ top: 32 });
    expect(pressAll('vg', ALL, size).card.pager).toEqual({ top: 0 });
    // Closed and opened again, it is back at that line.
    expect(pressAll('vgqv', ALL, size).card.pager).toEqual({ top: 30 });
  });

  it('does not scroll a command that fits', () => {
    const { card } = pressAll('v');
    expect(applyApprovalKey(ALL, card, parseKeys(PGDN)[0]!, { page: 8, total: 5, opensAt: 0 }).pager).toEqual({ top: 0 });
  });

  it('takes no answer while open: digits and Enter do nothing, Esc only leaves the view', () => {
    expect(pressAll('v1\r\r')).toEqual({ card: { selected: 3, pager: { top: 0 } } });
    // Esc in the view goes back to the choices; a second Esc is the usual deny.
    expect(press(`v${ESC}`)).toBeUndefined();
    expect(press(`v${ESC}${ESC}`)).toBe('deny');
  });

  it('keeps the selection made before it, so the choice still needs Enter after leaving', () => {
    expect(pressAll('1v').card).toEqual({ selected: 0, pager: { top: 0 } });
    expect(press(`1v${PGDN}v\r`)).toBe('once');
  });

  it('still denies on Ctrl+C', () => {
    expect(applyApprovalKey(ALL, { selected: 0, pager: { top: 5 } }, ctrlC, SIZE).answer).toBe('deny');
  });
});
