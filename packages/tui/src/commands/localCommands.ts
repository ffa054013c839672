/**
 * Slash commands: which ones the TUI keeps for itself (they are about the screen), how a submitted
 * line is recognised as a command, and the directives the backend's `slash.exec` answers with.
 * Everything else goes to the backend's command registry. Parsing is pure; `sessionActions.ts` acts.
 */

export type LocalCommandName = 'sessions';

/** Commands run without asking the backend. */
export const LOCAL_COMMANDS: readonly { name: LocalCommandName; description: string }[] = [
  { name: 'sessions', description: 'pick a saved session to resume (also Ctrl+X)' },
];

export type ParsedSlash =
  | { kind: 'local'; name: LocalCommandName; args: string }
  /** For the backend: the whole line, as typed. */
  | { kind: 'backend'; name: string; command: string };

/**
 * What a submitted line means: a command (local or for the backend), or (undefined) an ordinary prompt.
 * A path like `/usr/bin/env is missing` is a prompt, not a command.
 */
export function parseSlash(text: string): ParsedSlash | undefined {
  const trimmed = text.trim();
  const match = /^\/([A-Za-z][\w-]*)(?:\s+([\s\S]*))?$/.exec(trimmed);
  if (!match) return undefined;
  const name = match[1].toLowerCase();
  const local = LOCAL_COMMANDS.find((entry) => entry.name === name);
  return local ? { kind: 'local', name: local.name, args: (match[2] ?? '').trim() } : { kind: 'backend', name, command: trimmed };
}

/** What the client does after a command, beyond printing its output (the backend's `CommandDirective`). */
export type SlashDirective =
  | { type: 'prefill'; text: string }
  | { type: 'send'; message: string }
  | { type: 'new'; session_id: string; clear: boolean }
  | { type: 'resume'; session_id?: string; target?: string }
  | { type: 'picker'; picker: 'sessions' | 'model' };

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * Reads a `slash.exec` directive from the wire. Undefined for none, or for one this TUI does not know
 * (a newer backend): the output is still shown, and the caller logs what was skipped.
 */
export function parseDirective(raw: Record<string, unknown> | undefined): SlashDirective | undefined {
  if (!raw) return undefined;
  switch (raw.type) {
    case 'prefill':
      return str(raw.text) !== undefined ? { type: 'prefill', text: str(raw.text)! } : undefined;
    case 'send':
      return str(raw.message) ? { type: 'send', message: str(raw.message)! } : undefined;
    case 'new':
      return str(raw.session_id) ? { type: 'new', session_id: str(raw.session_id)!, clear: raw.clear === true } : undefined;
    case 'resume': {
      const sessionId = str(raw.session_id);
      const target = str(raw.target);
      if (!sessionId && !target) return undefined;
      return { type: 'resume', ...(sessionId ? { session_id: sessionId } : {}), ...(target ? { target } : {}) };
    }
    case 'picker':
      return raw.picker === 'sessions' || raw.picker === 'model' ? { type: 'picker', picker: raw.picker } : undefined;
  }
  return undefined;
}

/** The first line of a text, shortened for a one-line notice. */
export function firstLine(text: string, max = 80): string {
  const line = text.trim().split('\n')[0]?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
