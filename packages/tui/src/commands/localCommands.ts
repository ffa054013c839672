/**
 * Slash commands the TUI runs itself, kept in one table until the backend's command registry takes
 * them over. Parsing is pure; `sessionActions.ts` carries them out.
 */

export type LocalCommandName = 'sessions' | 'undo' | 'branch' | 'title' | 'new';

export interface LocalCommand {
  name: LocalCommandName;
  args: string;
  description: string;
}

export const LOCAL_COMMANDS: readonly LocalCommand[] = [
  { name: 'sessions', args: '', description: 'pick a saved session to resume (also Ctrl+X)' },
  { name: 'undo', args: '', description: 'drop the last prompt and its reply; the prompt goes back into the composer' },
  { name: 'branch', args: '[name]', description: 'continue in a copy of this session, leaving the original as it is' },
  { name: 'title', args: '[text]', description: 'show or set the session title' },
  { name: 'new', args: '', description: 'start a fresh session' },
];

export type ParsedSlash =
  | { kind: 'command'; name: LocalCommandName; args: string }
  | { kind: 'unknown'; name: string };

/**
 * What a submitted line means: a local command, an unknown `/word`, or (undefined) an ordinary prompt.
 * A path like `/usr/bin/env is missing` is a prompt, not a command.
 */
export function parseSlash(text: string): ParsedSlash | undefined {
  const match = /^\/([A-Za-z][\w-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match) return undefined;
  const name = match[1].toLowerCase();
  const args = (match[2] ?? '').trim();
  const command = LOCAL_COMMANDS.find((entry) => entry.name === name);
  return command ? { kind: 'command', name: command.name, args } : { kind: 'unknown', name };
}

export function unknownCommandNotice(name: string): string {
  return `unknown command /${name} — available here: ${LOCAL_COMMANDS.map((command) => `/${command.name}`).join(' ')}`;
}

/** The first line of a prompt, shortened for a one-line notice. */
export function firstLine(text: string, max = 80): string {
  const line = text.trim().split('\n')[0]?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
