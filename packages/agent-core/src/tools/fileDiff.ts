import fs from 'node:fs';
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';

/** A unified diff of one file's change, `a/`/`b/` prefixed like git's; '' when nothing changes. */
export function unifiedDiff(displayPath: string, before: string, after: string): string {
  if (before === after) return '';
  const name = displayPath.replace(/^\/+/, '');
  return createTwoFilesPatch(`a/${name}`, `b/${name}`, before, after, undefined, undefined, {
    context: 3,
    headerOptions: FILE_HEADERS_ONLY,
  });
}

/**
 * The current text of a file, or null when it does not exist. Refuses directories and binary files.
 * Synchronous: approvals compute their diff without awaiting, and the handler must see the same text.
 */
export function readTextIfExists(file: string): string | null {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'EISDIR') throw new Error(`${file} is a directory, not a file`);
    throw new Error(`Cannot read ${file}: ${(error as Error).message}`);
  }
  if (bytes.subarray(0, 8192).includes(0)) throw new Error(`${file} looks like a binary file; only text files can be edited`);
  return bytes.toString('utf8');
}
