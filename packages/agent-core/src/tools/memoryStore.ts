import fs from 'node:fs';
import path from 'node:path';
import { makeDirs } from '../config/hermesHome.ts';

export type MemoryTarget = 'memory' | 'user';

/** Character budgets as in Hermes: memory is injected into every prompt, so it must stay small. */
export const MEMORY_LIMITS: Readonly<Record<MemoryTarget, number>> = { memory: 2200, user: 1375 };
const FILES: Readonly<Record<MemoryTarget, string>> = { memory: 'MEMORY.md', user: 'USER.md' };
/** Entries are separated by a line holding only "§" (Hermes' format, so files can be shared). */
export const ENTRY_DELIMITER = '\n§\n';

export interface MemoryState {
  file: string;
  entries: string[];
  used: number;
  limit: number;
}

const join = (entries: string[]) => entries.join(ENTRY_DELIMITER);

export function memoryFile(home: string, target: MemoryTarget): string {
  return path.join(home, 'memories', FILES[target]);
}

/**
 * Synchronous on purpose: a read-modify-write with no await in between cannot interleave with
 * another session's write in this process.
 */
export function readMemory(home: string, target: MemoryTarget): MemoryState {
  const file = memoryFile(home, target);
  let text = '';
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`Cannot read ${file}: ${(error as Error).message}`);
  }
  const entries = text
    .split(/\n\u00a7\n/)
    .map((e) => e.trim())
    .filter(Boolean);
  return { file, entries, used: join(entries).length, limit: MEMORY_LIMITS[target] };
}

/** Writes the entries, refusing (with the current usage) if they exceed the target's limit. */
export function writeMemory(home: string, target: MemoryTarget, entries: string[], change: string): MemoryState {
  const current = readMemory(home, target);
  const next = join(entries).length;
  if (next > current.limit) {
    throw new Error(
      `${FILES[target]} would hold ${next} of its ${current.limit} characters (${current.used} used now; ${change}). ` +
        'Remove or replace entries first, or say it in fewer words.',
    );
  }
  makeDirs(path.dirname(current.file));
  // Write then rename, so a crash never leaves half a memory file.
  const temp = `${current.file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, entries.length ? `${join(entries)}\n` : '', 'utf8');
  fs.renameSync(temp, current.file);
  return { ...current, entries, used: next };
}
