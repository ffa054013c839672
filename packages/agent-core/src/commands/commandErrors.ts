/** Typed failures of the slash-command layer, each with its wire code. */
import { ErrorCode } from '../contract/errorCodes.ts';
import { HermesError } from '../contract/errors.ts';

/** Not a command, or no such command (wire code 4018; 4004 for an empty one). */
export class UnknownCommandError extends HermesError {
  override name = 'UnknownCommandError';
  constructor(
    readonly command: string,
    readonly suggestion: string | undefined,
  ) {
    super(
      // An empty command is a usage mistake (4004), not an unknown name.
      command === '' ? ErrorCode.UsageError : ErrorCode.NotACommand,
      command === ''
        ? 'Not a slash command: type `/` followed by a command name (see /help).'
        : `/${command} is not a command.` +
            (suggestion ? ` Did you mean /${suggestion}?` : ' Type /help to see the commands.'),
    );
  }
}

/** The command may not run while a turn is running (wire code 4009). */
export class CommandBusyError extends HermesError {
  override name = 'CommandBusyError';
  constructor(readonly command: string) {
    super(ErrorCode.SessionBusy, `/${command} can't run while a turn is running: wait for it to finish, or /stop it first.`);
  }
}

/** A registration was refused: bad name, or a name/alias already taken (a plugin's bug: internal). */
export class CommandRegistrationError extends HermesError {
  override name = 'CommandRegistrationError';
  constructor(message: string) {
    super(ErrorCode.InternalError, message);
  }
}

/** A command's handler threw; `cause` holds the original error, whose wire code it keeps (else internal). */
export class CommandFailedError extends HermesError {
  override name = 'CommandFailedError';
  constructor(
    readonly command: string,
    readonly source: string,
    cause: unknown,
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      cause instanceof HermesError ? cause.code : ErrorCode.InternalError,
      source === 'builtin'
        ? `/${command} failed: ${reason}`
        : `/${command} (plugin ${source}) failed: ${reason}`,
      { cause },
    );
  }
}
