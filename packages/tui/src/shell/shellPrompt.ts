/**
 * The composer's `!cmd`: a prompt that starts with `!` is a shell command for the user, run by the
 * backend (`shell.exec`) through the same approval gate as the model's commands, never sent to the model.
 */

export type ShellPrompt = { kind: 'command'; command: string } | { kind: 'usage' };

/** What to say when `!` comes without a command. */
export const SHELL_USAGE = 'Type a shell command after "!", e.g. !git status — it runs in the session\'s directory and is not sent to the model.';

/** The shell command in a submitted prompt, `usage` for a bare `!`, or undefined for an ordinary prompt. */
export function parseShellPrompt(text: string): ShellPrompt | undefined {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('!')) return undefined;
  const command = trimmed.slice(1).trim();
  return command ? { kind: 'command', command } : { kind: 'usage' };
}
