/** Typed failures of the slash-command layer; the wire maps them to protocol codes. */

/** Not a command, or no such command (wire code 4018). */
export class UnknownCommandError extends Error {
  override name = 'UnknownCommandError';
  constructor(
    readonly command: string,
    readonly suggestion: string | undefined,
  ) {
    super(
      command === ''
        ? 'Not a slash command: type `/` followed by a command name (see /help).'
        : `/${command} is not a command.` +
            (suggestion ? ` Did you mean /${suggestion}?` : ' Type /help to see the commands.'),
    );
  }
}

/** The command may not run while a turn is running (wire code 4009). */
export class CommandBusyError extends Error {
  override name = 'CommandBusyError';
  constructor(readonly command: string) {
    super(`/${command} can't run while a turn is running: wait for it to finish, or /stop it first.`);
  }
}

/** A registration was refused: bad name, or a name/alias already taken. */
export class CommandRegistrationError extends Error {
  override name = 'CommandRegistrationError';
}

/** A command's handler threw; `cause` holds the original error. */
export class CommandFailedError extends Error {
  override name = 'CommandFailedError';
  constructor(
    readonly command: string,
    readonly source: string,
    cause: unknown,
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      source === 'builtin'
        ? `/${command} failed: ${reason}`
        : `/${command} (plugin ${source}) failed: ${reason}`,
      { cause },
    );
  }
}
