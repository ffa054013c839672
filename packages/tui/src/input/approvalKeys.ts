/**
 * Pure key dispatch for the approval card. The selection starts on Deny and every way out of the
 * card that is not an explicit choice (Esc, Ctrl+C) denies, so no stray key can approve a command.
 * `v` opens the command view, where the whole command can be read, at the first line holding a
 * finding; Esc there only closes the view.
 */
import type { ApprovalChoice } from '@hermes/rpc-server/protocol';
import type { Key } from './keyParser.ts';
import { scrollKey, type PagerSize } from './pagerKeys.ts';

const ORDER: readonly ApprovalChoice[] = ['once', 'session', 'always', 'deny'];

export const APPROVAL_LABELS: Record<ApprovalChoice, string> = {
  once: 'Allow once',
  session: 'Allow for this session',
  always: 'Always allow (saved to config)',
  deny: 'Deny',
};

/** The choices to list, in a fixed order; Deny is always offered whatever the backend sent. */
export function offeredChoices(choices: readonly unknown[] | undefined): ApprovalChoice[] {
  return ORDER.filter((choice) => choice === 'deny' || (choices ?? []).includes(choice));
}

export function initialApprovalSelection(choices: readonly ApprovalChoice[]): number {
  return Math.max(0, choices.indexOf('deny'));
}

/** The card's own state: the selected choice, and where the command view is while it is open. */
export interface ApprovalCardState {
  selected: number;
  /** Set while the command view is open: the first row of the command on screen. */
  pager?: { top: number };
}

export interface ApprovalKeyResult extends ApprovalCardState {
  /** Set when the key answered the card. */
  answer?: ApprovalChoice;
}

/** The key that opens the command view, and closes it again. */
export const VIEW_COMMAND_KEY = 'v';

const isViewKey = (key: Key) => key.type === 'text' && key.text.toLowerCase() === VIEW_COMMAND_KEY;

/** The command view's window, and the row it opens at (so the first line holding a finding is on screen). */
export interface CommandViewSize extends PagerSize {
  opensAt: number;
}

/**
 * One key at the card. `size` is the command view's window (rows shown, rows in all, where it opens).
 * In the command view the keys scroll; Esc, `q` and `v` go back to the choices, and only Ctrl+C still
 * answers (deny).
 */
export function applyApprovalKey(choices: readonly ApprovalChoice[], card: ApprovalCardState, key: Key, size: CommandViewSize): ApprovalKeyResult {
  const { selected, pager } = card;
  if (key.type === 'key' && key.ctrl && key.name === 'c') return { selected, answer: 'deny' };
  if (pager) {
    if (isViewKey(key) || (key.type === 'text' && key.text === 'q') || (key.type === 'key' && key.name === 'escape' && !key.ctrl && !key.meta))
      return { selected };
    const top = scrollKey(pager.top, key, size);
    return { selected, pager: { top: top ?? pager.top } };
  }
  if (isViewKey(key)) return { selected, pager: { top: size.opensAt } };
  if (key.type === 'text') {
    // Digits pick the numbered row; Enter still has to confirm it.
    const digit = /^[1-9]$/.test(key.text) ? Number(key.text) : 0;
    return digit >= 1 && digit <= choices.length ? { selected: digit - 1 } : { selected };
  }
  if (key.type === 'paste') return { selected };
  if (key.ctrl || key.meta) return { selected };
  switch (key.name) {
    case 'up':
      return { selected: Math.max(0, selected - 1) };
    case 'down':
      return { selected: Math.min(choices.length - 1, selected + 1) };
    case 'enter':
      return { selected, answer: choices[selected] ?? 'deny' };
    case 'escape':
      return { selected, answer: 'deny' };
  }
  return { selected };
}
