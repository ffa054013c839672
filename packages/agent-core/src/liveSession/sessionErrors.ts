/** What the session service refuses, each with its wire code and a message that says what to do instead. */
import { ErrorCode } from '../contract/errorCodes.ts';
import { HermesError, UsageError } from '../contract/errors.ts';
import { MODEL_VALUE_HINT } from './modelValue.ts';

/** `/model` or `config.set model` named no model (4004). */
export class ModelValueError extends HermesError {
  override name = 'ModelValueError';
  constructor(value: unknown) {
    super(ErrorCode.UsageError, `"${typeof value === 'string' ? value : JSON.stringify(value)}" is not a model: ${MODEL_VALUE_HINT}.`);
  }
}

/** `/approvals <mode>` or `config.set approvals.mode` with a mode that does not exist (4004). */
export class ApprovalModeError extends HermesError {
  override name = 'ApprovalModeError';
  constructor(mode: string, modes: readonly string[]) {
    super(ErrorCode.UsageError, `Unknown approval mode "${mode}": use one of ${modes.join(', ')}.`);
  }
}

/**
 * `/compress` was stopped (session.interrupt, /stop, close) before its summary came back. 4004: the
 * request did not do what it asked, by the user's own choice; the message says the prompt is unchanged.
 */
export class CompressInterruptedError extends HermesError {
  override name = 'CompressInterruptedError';
  constructor() {
    super(ErrorCode.UsageError, 'Compression interrupted: the conversation was left as it was.');
  }
}

/** A slash command's argument held to the cap its wire param has (`/title` as `session.title`, …): 4004 naming both. */
export function withinLimit(what: string, text: string, cap: number): string {
  if (text.length > cap) throw new UsageError(`${what} is ${text.length} characters long; the limit is ${cap}.`);
  return text;
}
