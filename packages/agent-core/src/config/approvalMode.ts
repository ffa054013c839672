/**
 * `approvals.mode` as written in config.yaml, normalised as Hermes does: `false` or "off" → off,
 * "smart" → smart, "manual" → manual (any case, any surrounding blanks); `true` and "" → manual.
 * Anything else is not a mode (undefined): the caller reports it and keeps manual.
 */
import { APPROVAL_MODES } from '../contract/approvalNames.ts';
import type { ApprovalMode } from '../contract/approvals.ts';

export function approvalModeOf(value: unknown): ApprovalMode | undefined {
  if (value === false) return 'off';
  if (value === true) return 'manual';
  if (typeof value !== 'string') return undefined;
  const word = value.trim().toLowerCase();
  if (word === '') return 'manual';
  return (APPROVAL_MODES as readonly string[]).includes(word) ? (word as ApprovalMode) : undefined;
}
