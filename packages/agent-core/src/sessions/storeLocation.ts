/**
 * Which file in $HERMES_HOME holds hermes's sessions. Normally `state.db`; but a home shared with
 * Hermes (the Python agent) has Hermes's own SessionDB there, another schema that hermes must never
 * write to (not even its journal mode). Then hermes keeps its sessions in `hermes-node.db` beside it,
 * and keeps using that file from then on, even if Hermes's state.db goes away later.
 *
 * Hermes's file is told apart by its schema: a readable SQLite database with Hermes's `schema_version`
 * table and a `sessions` table with a `source` column. Everything else (hermes's own file, an empty
 * one, a truncated or damaged one, a text file) is hermes's: its usual open fills it or says what is
 * wrong and the fix. The header answers the common cases alone (every hermes schema sets
 * `user_version`, in the transaction that creates its tables); otherwise the bytes are read with fs and
 * the schema through an in-memory copy, so Hermes's file and its -wal/-shm stay byte for byte as they
 * are (SQLite's own read-only open would create -wal/-shm beside a WAL database).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';

export const STATE_DB = 'state.db';
/** hermes's own session database in a home whose state.db is Hermes's (the Python agent's). */
export const OWN_DB = 'hermes-node.db';

/** What is at `$HERMES_HOME/state.db`. */
export type StateDbKind =
  /** No file there. */
  | 'absent'
  /** Anything but Hermes's SessionDB: a hermes database, one with no tables yet (hermes creates its schema in it), or a broken file hermes's open explains. */
  | 'hermes'
  /** A readable SQLite database with Hermes's schema: the Python agent's SessionDB. */
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

/** Classifies `file` (a state.db); `hasHermesSchemaInWal` is asked only when the main file has no tables but a WAL does. */
export function stateDbKind(file: string, hasHermesSchemaInWal: (file: string) => boolean = readSchemaThroughWal): StateDbKind {
  if (!fs.existsSync(file)) return 'absent';
  const start = readStart(file);
  // Unreadable, short or not SQLite: hermes's usual open says what is wrong with it and the fix.
  if (!start || start.length < FIRST_PAGE_BYTES || start.subarray(0, 16).toString('latin1') !== SQLITE_MAGIC) return 'hermes';
  if (start.readUInt32BE(60) > 0) return 'hermes';
  // Page 1 holds the schema: an interior page means many entries; a leaf counts them.
  const hasTables = start[100] === INTERIOR_TABLE_PAGE || (start[100] === LEAF_TABLE_PAGE && start.readUInt16BE(103) > 0);
  if (hasTables) return hasHermesSchemaInFile(file) ? 'foreign' : 'hermes';
  // No tables in the main file, but a WAL with content: a program running now (hermes or Hermes) may
  // have created its schema only there. Only then is the file read through SQLite (read-only).
  if (nonEmptyFile(`${file}-wal`) && hasHermesSchemaInWal(file)) return 'foreign';
  return 'hermes';
}

/** Hermes's SessionDB (shared/reference/hermes-core.md §8.2): its `schema_version` table and `sessions.source`. */
function hasHermesSchema(db: Database.Database): boolean {
  const versionTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'").get();
  return versionTable !== undefined && db.prepare("SELECT 1 FROM pragma_table_info('sessions') WHERE name = 'source'").get() !== undefined;
}

/** Whether the database `open` gives has Hermes's schema; a file SQLite cannot read (truncated, damaged) is not Hermes's: hermes's usual open explains it. */
function schemaCheck(open: () => Database.Database): boolean {
  let db: Database.Database;
  try {
    db = open();
  } catch {
    return false;
  }
  try {
    return hasHermesSchema(db);
  } catch {
    return false;
  } finally {
    db.close();
  }
}

/** Past this size the schema is read from a copy on disk, not in memory (a Hermes state.db of a long history is large). */
const IN_MEMORY_COPY_BYTES = 32 * 1024 * 1024;

/**
 * The main file's schema, from a copy of its bytes (the file itself is never opened by SQLite): in
 * memory, or for a large file a temporary copy on disk, removed at once. A copy of a part would not do:
 * SQLite checks every table's root page when it reads the schema.
 */
function hasHermesSchemaInFile(file: string): boolean {
  if (fs.statSync(file).size <= IN_MEMORY_COPY_BYTES) {
    return schemaCheck(() => {
      const bytes = fs.readFileSync(file);
      // Header bytes 18/19 = 2 mark WAL mode, which an in-memory copy cannot use: read it as a rollback-journal file.
      if (bytes[18] === 2) bytes[18] = 1;
      if (bytes[19] === 2) bytes[19] = 1;
      return new Database(bytes, { readonly: true });
    });
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-state-db-'));
  try {
    const copy = path.join(dir, STATE_DB);
    fs.copyFileSync(file, copy);
    return schemaCheck(() => new Database(copy, { readonly: true, fileMustExist: true }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The schema as seen through the WAL of a program running now (which keeps its -wal/-shm there itself). */
function readSchemaThroughWal(file: string): boolean {
  return schemaCheck(() => new Database(file, { readonly: true, fileMustExist: true }));
}

/** Where hermes keeps its sessions in `home` (see the module comment). Reads, never writes. */
export function sessionStoreLocation(home: string): StoreLocation {
  const own = path.join(home, OWN_DB);
  const state = path.join(home, STATE_DB);
  // hermes-node.db is made only beside Hermes's state.db: once it exists, no start reads Hermes's file again.
  if (fs.existsSync(own)) return fs.existsSync(state) ? { file: own, foreign: state } : { file: own };
  if (stateDbKind(state) === 'foreign') return { file: own, foreign: state };
  return { file: state };
}
