/**
 * Pure key dispatch for the approval card. The selection starts on Deny and every way out of the
 * card that is not an explicit choice (Esc, Ctrl+C) denies, so no stray key can approve a command.
 */
import type { ApprovalChoice } from '@hermes/rpc-server/protocol';
import type { Key } from './keyParser.ts';

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

export interface ApprovalKeyResult {
  selected: number;
  /** Set when the key answered the card. */
  answer?: ApprovalChoice;
}

export function applyApprovalKey(choices: readonly ApprovalChoice[], selected: number, key: Key): ApprovalKeyResult {
  if (key.type === 'text') {
    // Digits pick the numbered row; Enter still has to confirm it.
    const digit = /^[1-9]$/.test(key.text) ? Number(key.text) : 0;
    return digit >= 1 && digit <= choices.length ? { selected: digit - 1 } : { selected };
  }
  if (key.type === 'paste') return { selected };
  if (key.ctrl && key.name === 'c') return { selected, answer: 'deny' };
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
