import os from 'node:os';
import path from 'node:path';

/** Resolves a path the model wrote: `~/` is the home directory, relative paths start at `cwd`. */
export function resolvePath(cwd: string, p: string): string {
  const expanded = p === '~' ? os.homedir() : p.startsWith('~/') ? path.join(os.homedir(), p.slice(2)) : p;
  return path.resolve(cwd, expanded);
}

/** How to show an absolute path to the model: relative to `cwd` when inside it. */
export function displayPath(cwd: string, absolute: string): string {
  const rel = path.relative(cwd, absolute);
  if (rel === '') return '.';
  return !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : absolute;
}

/** Reads a required non-empty string argument, with a message the model can act on. */
export function requireString(args: Record<string, unknown>, key: string): string {
  const value = args[key];
  if (typeof value !== 'string' || value.trim() === '') throw new Error(`"${key}" must be a non-empty string`);
  return value;
}
