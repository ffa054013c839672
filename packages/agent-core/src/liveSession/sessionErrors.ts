/** What the session service refuses, each with a message that says what to do instead. */
import { MODEL_VALUE_HINT } from './modelValue.ts';

/** `/model` or `config.set model` named no model. */
export class ModelValueError extends Error {
  override name = 'ModelValueError';
  constructor(value: unknown) {
    super(`"${typeof value === 'string' ? value : JSON.stringify(value)}" is not a model: ${MODEL_VALUE_HINT}.`);
  }
}

/** `/approvals <mode>` with a mode that does not exist. */
export class ApprovalModeError extends Error {
  override name = 'ApprovalModeError';
  constructor(mode: string, modes: readonly string[]) {
    super(`Unknown approval mode "${mode}": use one of ${modes.join(', ')}.`);
  }
}

/** `/compress` was stopped (session.interrupt, /stop, close) before the summary came back. */
export class CompressInterruptedError extends Error {
  override name = 'CompressInterruptedError';
  constructor() {
    super('Compression interrupted: the conversation was left as it was.');
  }
}
