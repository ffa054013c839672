import { readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import type { CompletionItem, CompletionResult } from '../contract/commands.ts';
import type { CatalogEntry } from './commandTypes.ts';
import { matchCommandWord } from '../contract/commandMatch.ts';

export type { CompletionItem, CompletionResult };

/** Completes the command word of `text`; the matching itself is the contract's, shared with the TUI. */
export function completeSlash(text: string, catalog: readonly CatalogEntry[]): CompletionResult {
  return matchCommandWord(text, catalog);
}

export interface PathCompletionOptions {
  /** At most this many items (default 50). */
  limit?: number;
  /** Where `~` points (default: the user's home). */
  home?: string;
}

/**
 * Files and folders completing `word` (relative to `cwd`; `~` and `@` prefixes understood). Folders end
 * with `/`; hidden entries show only when the name being typed starts with `.`. Each item's `text` replaces
 * the whole word (`replace_from` 0). A folder that does not exist or can't be read gives no items.
 */
export async function completePath(
  word: string,
  cwd: string,
  options: PathCompletionOptions = {},
): Promise<CompletionResult> {
  const limit = options.limit ?? 50;
  const at = word.startsWith('@') ? '@' : '';
  const typed = word.slice(at.length);
  const slash = typed.lastIndexOf('/');
  // `~` alone means the home folder itself.
  const dirPart = typed === '~' ? '~/' : slash >= 0 ? typed.slice(0, slash + 1) : '';
  const base = typed === '~' ? '' : typed.slice(slash + 1);
  const dir = resolveDir(dirPart, cwd, options.home ?? homedir());

  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (isExpectedFsError(error)) return { items: [], replace_from: 0 };
    throw error;
  }
  const showHidden = base.startsWith('.');
  const lowerBase = base.toLowerCase();
  const matched = entries.filter(
    (e) => (showHidden || !e.name.startsWith('.')) && e.name.toLowerCase().startsWith(lowerBase),
  );
  // Exact-case prefix hits before case-insensitive ones, then by name.
  const exactCase = (name: string) => (name.startsWith(base) ? 0 : 1);
  matched.sort((a, b) => exactCase(a.name) - exactCase(b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

  const items: CompletionItem[] = [];
  for (const entry of matched.slice(0, limit)) {
    const isDir = entry.isDirectory() || (entry.isSymbolicLink() && (await isDirectory(path.join(dir, entry.name))));
    const name = isDir ? `${entry.name}/` : entry.name;
    items.push({ text: `${at}${dirPart}${name}`, display: name, meta: isDir ? 'folder' : 'file' });
  }
  return { items, replace_from: 0 };
}

function resolveDir(dirPart: string, cwd: string, home: string): string {
  if (dirPart === '') return cwd;
  if (dirPart.startsWith('~/')) return path.join(home, dirPart.slice(2));
  return path.resolve(cwd, dirPart);
}

async function isDirectory(target: string): Promise<boolean> {
  try {
    return (await stat(target)).isDirectory();
  } catch (error) {
    if (isExpectedFsError(error)) return false; // a dangling link completes as a file
    throw error;
  }
}

function isExpectedFsError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES' || code === 'EPERM';
}
