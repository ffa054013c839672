/**
 * Slash commands: which ones the TUI keeps for itself (they are about the screen), and where a
 * submitted line goes. What counts as a command is the contract's one `parseSlash`, the same the
 * backend's `slash.exec` parses with, so the two never disagree about a line. Everything but the local
 * commands goes to the backend's command registry. Pure; `sessionActions.ts` acts.
 */
import { parseSlash, type CommandDescriptor } from '@hermes/rpc-server/protocol';

export type LocalCommandName = 'sessions' | 'details' | 'transcript';

/** Commands run without asking the backend. */
export const LOCAL_COMMANDS: readonly { name: LocalCommandName; description: string }[] = [
  { name: 'sessions', description: 'pick a saved session to resume (also Ctrl+X)' },
  { name: 'details', description: 'show reasoning and tool output: /details [thinking|tools] [hidden|collapsed|expanded]' },
  { name: 'transcript', description: 'read the whole transcript, from its first message, in your pager ($PAGER, else less -R)' },
];

/** Arguments shown in the completion list for the local commands the backend's catalog does not list. */
const LOCAL_ARGS_HINT: Partial<Record<LocalCommandName, string>> = { details: '[thinking|tools] [hidden|collapsed|expanded]' };

/**
 * The backend's command catalog with the TUI's own commands added (those it does not list itself, as
 * it lists `/sessions`), so the completion list offers every command that runs.
 */
export function withLocalCommands(catalog: readonly CommandDescriptor[]): CommandDescriptor[] {
  const known = new Set(catalog.map((command) => command.name));
  const local = LOCAL_COMMANDS.filter((command) => !known.has(command.name)).map((command) => ({
    name: command.name,
    aliases: [],
    description: command.description,
    category: 'screen',
    args_hint: LOCAL_ARGS_HINT[command.name] ?? '',
    source: 'tui',
  }));
  return [...catalog, ...local];
}

export type SlashRoute =
  | { kind: 'local'; name: LocalCommandName; args: string }
  /** For the backend: the whole line, as typed. */
  | { kind: 'backend'; name: string; command: string };

/**
 * Where a submitted line goes when it is a command (local, or the backend); undefined for an ordinary
 * prompt. A path like `/usr/bin/env is missing` is a prompt, not a command.
 */
export function routeSlash(text: string): SlashRoute | undefined {
  const parsed = parseSlash(text);
  if (!parsed) return undefined;
  const local = LOCAL_COMMANDS.find((entry) => entry.name === parsed.name);
  return local ? { kind: 'local', name: local.name, args: parsed.args } : { kind: 'backend', name: parsed.name, command: text.trim() };
}

/** The first line of a text, shortened for a one-line notice. */
export function firstLine(text: string, max = 80): string {
  const line = text.trim().split('\n')[0]?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
