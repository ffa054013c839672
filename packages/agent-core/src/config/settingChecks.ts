/** What each config.yaml setting must be (its kind), how a problem says it, and the value hermes keeps. */
import { APPROVAL_MODES } from '../contract/approvalNames.ts';
import { approvalModeOf } from './approvalMode.ts';
import { parseDuration } from './duration.ts';

export type Kind =
  | 'string'
  | 'positive-int'
  | 'non-negative-int'
  | 'positive-number'
  | 'non-negative-number'
  | 'fraction'
  | 'boolean'
  | 'string-list'
  | 'duration'
  | 'approval-mode';
/** One setting hermes reads: its dotted key and what it must be. */
export type Check = { key: string; kind: Kind; oneOf?: readonly string[] };

/** What a setting must be, as a problem message says it. */
export function describeKind(check: Check): string {
  if (check.oneOf) return `one of ${check.oneOf.join(', ')}`;
  switch (check.kind) {
    case 'string':
      return 'a string';
    case 'positive-int':
      return 'a whole number above 0';
    case 'non-negative-int':
      return 'a whole number, 0 or more';
    case 'positive-number':
      return 'a number above 0';
    case 'non-negative-number':
      return 'a number, 0 or more';
    case 'fraction':
      return 'a number between 0 and 1';
    case 'boolean':
      return 'true or false';
    case 'string-list':
      return 'a list of strings';
    case 'duration':
      return 'a duration: seconds, or a number with a unit (90s, 30m, 2h), 0 for never';
    case 'approval-mode':
      return `one of ${APPROVAL_MODES.join(', ')}`;
  }
}

/** Whether a value from config.yaml is one the setting accepts. */
export function fits(value: unknown, check: Check): boolean {
  switch (check.kind) {
    case 'string':
      return typeof value === 'string' && value.trim().length > 0 && (!check.oneOf || check.oneOf.includes(value.trim()));
    case 'string-list':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
    case 'positive-number':
      return typeof value === 'number' && Number.isFinite(value) && value > 0;
    case 'non-negative-number':
      return typeof value === 'number' && Number.isFinite(value) && value >= 0;
    case 'fraction':
      return typeof value === 'number' && value > 0 && value < 1;
    case 'boolean':
      return typeof value === 'boolean';
    case 'duration':
      return parseDuration(value) !== null;
    case 'approval-mode':
      return approvalModeOf(value) !== undefined;
    default:
      if (typeof value !== 'number' || !Number.isInteger(value)) return false;
      return check.kind === 'positive-int' ? value > 0 : value >= 0;
  }
}

/** The value hermes keeps for a value that fits: trimmed strings, durations in seconds, normalised modes. */
export function cleanValue(value: unknown, check: Check): unknown {
  if (check.kind === 'duration') return parseDuration(value);
  if (check.kind === 'approval-mode') return approvalModeOf(value);
  return typeof value === 'string' ? value.trim() : value;
}
