/**
 * Which file in $HERMES_HOME holds hermes's sessions. Normally `state.db`; but a home shared with
 * Hermes (the Python agent) has Hermes's own SessionDB there, another schema that hermes must never
 * write to (not even its journal mode). Then hermes keeps its sessions in `hermes-node.db` beside it,
 * and keeps using that file from then on, even if Hermes's state.db goes away later.
 *
 * Hermes's file is told apart by its header alone (read with fs, never opened by SQLite, so it and its
 * -wal/-shm stay byte for byte as they are): every hermes schema sets `user_version`, and sets it in the
 * same transaction that creates its tables, so a database with tables and `user_version` 0 is not
 * hermes's. Hermes's SessionDB keeps its version in a `schema_version` table instead.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export const STATE_DB = 'state.db';
/** hermes's own session database in a home whose state.db is Hermes's (the Python agent's). */
export const OWN_DB = 'hermes-node.db';

/** What is at `$HERMES_HOME/state.db`, as far as its first page tells. */
export type StateDbKind =
  /** No file there. */
  | 'absent'
  /** A hermes database, or one with no tables yet (hermes creates its schema in it), or a file SQLite will explain as broken. */
  | 'hermes'
  /** A SQLite database hermes did not write: Hermes's SessionDB (or another program's). */
  | 'foreign';

export interface StoreLocation {
  /** The file holding hermes's sessions (it may not exist yet). */
  file: string;
  /** Hermes's state.db, left alone, when hermes keeps its sessions beside it. */
  foreign?: string;
}

const SQLITE_MAGIC = 'SQLite format 3\0';
/** The 100-byte database header, then page 1's b-tree header (type byte, then the cell count at +3). */
const FIRST_PAGE_BYTES = 108;
const LEAF_TABLE_PAGE = 0x0d;
const INTERIOR_TABLE_PAGE = 0x05;

function readStart(file: string): Buffer | null {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const buffer = Buffer.alloc(FIRST_PAGE_BYTES);
    const read = fs.readSync(fd, buffer, 0, FIRST_PAGE_BYTES, 0);
    return buffer.subarray(0, read);
  } finally {
    fs.closeSync(fd);
  }
}

const nonEmptyFile = (file: string) => (fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0) > 0;

/** Classifies `file` (a state.db) from its header; `hasTablesInWal` is asked only when the main file cannot tell. */
export function stateDbKind(file: string, hasTablesInWal: (file: string) => boolean = readTablesThroughWal): StateDbKind {
  if (!fs.existsSync(file)) return 'absent';
  const start = readStart(file);
  // Unreadable, short or not SQLite: hermes's usual open says what is wrong with it and the fix.
  if (!start || start.length < FIRST_PAGE_BYTES || start.subarray(0, 16).toString('latin1') !== SQLITE_MAGIC) return 'hermes';
  const userVersion = start.readUInt32BE(60);
  if (userVersion > 0) return 'hermes';
  // Page 1 holds the schema: an interior page means many entries; a leaf counts them.
  if (start[100] === INTERIOR_TABLE_PAGE) return 'foreign';
  if (start[100] !== LEAF_TABLE_PAGE) return 'hermes';
  if (start.readUInt16BE(103) > 0) return 'foreign';
  // No tables in the main file, but a WAL with content: a program running now (hermes or Hermes) may
  // have created its schema only there. Only then is the file read through SQLite (read-only).
  if (nonEmptyFile(`${file}-wal`) && hasTablesInWal(file)) return 'foreign';
  return 'hermes';
}

/** Whether the database, read through its WAL, has tables and no hermes user_version (a read-only reader). */
function readTablesThroughWal(file: string): boolean {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch {
    // Say "not foreign": hermes's usual open then explains the file (or refuses Hermes's schema itself).
    return false;
  }
  try {
    const version = db.pragma('user_version', { simple: true }) as number;
    return version === 0 && db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table'").get() !== undefined;
  } catch {
    return false;
  } finally {
    db.close();
  }
}

/** Where hermes keeps its sessions in `home` (see the module comment). Reads, never writes. */
export function sessionStoreLocation(home: string): StoreLocation {
  const own = path.join(home, OWN_DB);
  const state = path.join(home, STATE_DB);
  if (stateDbKind(state) === 'foreign') return { file: own, foreign: state };
  return { file: fs.existsSync(own) ? own : state };
}
