/**
 * `$HERMES_HOME/.hermes_history`: the prompts sent, in the format Hermes' classic CLI writes through
 * prompt_toolkit's `FileHistory`, so both read the same file. Each entry is a blank line, a
 * `# <timestamp>` comment, then every line of the prompt prefixed with `+`:
 *
 *     \n# 2026-12-01 01:52:13.123456\n+first line\n+second line\n
 *
 * Entries are only ever appended: the file is never rewritten, however long it grows, because it may be
 * a Hermes user's (their old entries and timestamps are theirs to keep). Only the newest `cap` entries are
 * kept in memory. A line that fits none of these forms (a damaged or foreign file) is skipped with a notice.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const HISTORY_FILE_NAME = '.hermes_history';
/** Entries kept in memory (the newest); older ones stay in the file, untouched. */
export const HISTORY_CAP = 1000;

export function historyFile(home: string): string {
  return join(home, HISTORY_FILE_NAME);
}

export interface LoadedHistory {
  /** Oldest first, at most `cap` (the newest). */
  entries: string[];
  /** What was wrong with the file, in words that say what to do; undefined when it read cleanly. */
  problem?: string;
  /** Entries in the file (before the cap). */
  total?: number;
}

/** prompt_toolkit's timestamp: local time, `YYYY-MM-DD HH:MM:SS.ffffff`. */
function timestamp(date: Date): string {
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds() * 1000, 6)}`;
  return `${day} ${time}`;
}

/** Parses the file's text as prompt_toolkit does, counting the lines it cannot read. */
export function parseHistory(text: string, cap = HISTORY_CAP): LoadedHistory {
  const entries: string[] = [];
  let lines: string[] | undefined;
  let bad = 0;
  let firstBad = 0;
  const close = () => {
    if (lines) entries.push(lines.join('\n'));
    lines = undefined;
  };
  const rows = text.split('\n');
  // The file ends with a newline: the empty string after it is no line.
  if (rows.at(-1) === '') rows.pop();
  rows.forEach((row, index) => {
    const line = row.endsWith('\r') ? row.slice(0, -1) : row;
    if (line.startsWith('+')) (lines ??= []).push(line.slice(1));
    else if (line === '' || line.startsWith('#')) close();
    else {
      close();
      bad++;
      firstBad ||= index + 1;
    }
  });
  close();
  const all = entries.filter((entry) => entry.trim() !== '');
  const kept = all.slice(-cap);
  if (!bad) return { entries: kept, total: all.length };
  return {
    entries: kept,
    total: all.length,
    problem: `${bad} line${bad === 1 ? '' : 's'} of the prompt history could not be read (the first is line ${firstBad}) and ${bad === 1 ? 'was' : 'were'} skipped; each entry's lines must start with "+"`,
  };
}

/** Reads the history file; a missing file is an empty history, any other failure a problem to show. */
export function loadHistory(file: string, cap = HISTORY_CAP): LoadedHistory {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { entries: [] };
    return { entries: [], problem: `the prompt history ${file} could not be read (${code ?? (error as Error).message}); ↑ starts empty this time` };
  }
  const loaded = parseHistory(text, cap);
  return loaded.problem ? { ...loaded, problem: `${file}: ${loaded.problem}` } : loaded;
}

/** The text one entry adds to the file. */
export function formatEntry(entry: string, at = new Date()): string {
  return `\n# ${timestamp(at)}\n${entry
    .split('\n')
    .map((line) => `+${line}\n`)
    .join('')}`;
}

/** Appends one entry; throws when the file cannot be written (the caller says so on screen). */
export function appendHistory(file: string, entry: string, at = new Date()): void {
  appendFileSync(file, formatEntry(entry, at), { encoding: 'utf8', mode: 0o600 });
}
