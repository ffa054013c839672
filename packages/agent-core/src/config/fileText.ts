/**
 * Checks of a config file's text that YAML and `.env` parsers pass over silently: bytes that are not
 * UTF-8 (read as U+FFFD, so a setting or a key silently changes) and `.env` lines that set nothing.
 * Messages name the line, never a value: a `.env` value is a secret.
 */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The file's text, and the 1-based line of its first byte that is not UTF-8 (undefined when all is). */
export function decodeConfigText(bytes: Buffer): { text: string; badLine?: number } {
  try {
    return { text: utf8.decode(bytes) };
  } catch {
    const text = bytes.toString('utf8');
    const at = text.indexOf('\uFFFD');
    return { text, badLine: at < 0 ? undefined : text.slice(0, at).split('\n').length };
  }
}

export const NOT_UTF8 = 'is not valid UTF-8 there (those bytes read as "\uFFFD", so what that line sets is changed). Fix: save the file as UTF-8.';

const ASSIGNMENT = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/;
const QUOTES = ['"', "'", '`'];

/** `.env` lines that do not set a variable, or whose quoted value never ends: what hermes silently skips. */
export function envFileProblems(text: string): { line: number; message: string }[] {
  const problems: { line: number; message: string }[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const match = ASSIGNMENT.exec(line);
    if (!match) {
      problems.push({ line: i + 1, message: 'is not NAME=value, so it sets nothing (hermes skips it). Fix: write it as NAME=value, or start it with # to keep it as a comment.' });
      continue;
    }
    const [, name, value] = match as unknown as [string, string, string];
    const quote = QUOTES.find((q) => value.startsWith(q));
    if (!quote || value.indexOf(quote, 1) > 0) continue;
    // A quoted value may go on over several lines; it must end somewhere.
    const end = lines.findIndex((later, j) => j > i && later.includes(quote));
    if (end < 0) {
      problems.push({ line: i + 1, message: `the value of ${name} opens a ${quote} quote that is never closed (hermes takes it as written, quote included). Fix: close the quote.` });
    } else {
      i = end;
    }
  }
  return problems;
}
