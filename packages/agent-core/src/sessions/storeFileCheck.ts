import fs from 'node:fs';
import type Database from 'better-sqlite3';
import { StoreError } from './storeError.ts';

/** Which file an open database is: a different one (or none) at its path means it was deleted or replaced. */
export interface FileIdentity {
  dev: number;
  ino: number;
}

export function identityOf(file: string): FileIdentity | null {
  try {
    const { dev, ino } = fs.statSync(file);
    return { dev, ino };
  } catch {
    return null;
  }
}

export type FileChange = 'same' | 'deleted' | 'replaced';

export function fileChange(file: string, opened: FileIdentity | null): FileChange {
  if (!opened) return 'same';
  const now = identityOf(file);
  if (!now) return fs.existsSync(file) ? 'same' : 'deleted';
  return now.dev === opened.dev && now.ino === opened.ino ? 'same' : 'replaced';
}

/**
 * Writes what `db` holds, consistent, to a new file `target` (SQLite's VACUUM INTO; it also works on a
 * database whose file was deleted, which SQLite keeps open until it closes).
 */
export function copyDatabase(db: Database.Database, target: string): void {
  fs.rmSync(target, { force: true });
  db.prepare('VACUUM INTO ?').run(target);
  fs.chmodSync(target, 0o600);
}

export function replacedError(file: string, kept: string): StoreError {
  return new StoreError(
    `The session database ${file} was replaced by another file while hermes ran; hermes did not write to the new one. The sessions this hermes held are saved in ${kept}. Fix: quit hermes and start it again to use the new ${file} (or, to keep using the saved sessions, move ${kept} to ${file} first).`,
    'replaced',
    file,
  );
}

export const deletedNotice = (file: string) =>
  `The session database ${file} was deleted while hermes ran; hermes wrote back the sessions it held, so nothing is lost. To start afresh, quit hermes first, then move it aside.`;
