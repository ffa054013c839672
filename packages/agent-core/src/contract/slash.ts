/** `/name args` → its parts. Leading blanks are allowed; the name is lowercased; `/` alone is not a command. */
export interface ParsedSlash {
  name: string;
  args: string;
}

const SLASH = /^\s*\/(\S+)(?:\s+([\s\S]*))?$/;

export function parseSlash(text: string): ParsedSlash | null {
  const match = SLASH.exec(text);
  if (!match) return null;
  const name = match[1];
  // `//x` and `/ x` are not commands; a path like `/usr/bin` is not one either.
  if (name.startsWith('/') || name.includes('/')) return null;
  return { name: name.toLowerCase(), args: (match[2] ?? '').trim() };
}
