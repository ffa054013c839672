import fs from 'node:fs';
import path from 'node:path';
import { deciding, errorCode as code, shellPath } from '../config/hermesHome.ts';
import { ErrorCode } from '../contract/errorCodes.ts';
import { HermesError } from '../contract/errors.ts';

/** What is wrong with state.db (or its folder), so front ends can word it or react to it. */
export type StoreProblem =
  | 'not_a_database'
  | 'corrupt'
  | 'truncated'
  | 'locked'
  | 'permission'
  | 'read_only'
  | 'disk_full'
  | 'io'
  | 'broken_link'
  | 'replaced'
  | 'newer_schema'
  | 'hermes_database';

/**
 * A session-store failure with a message the user can act on. With a `problem`, the file, the disk
 * or SQLite failed (wire code 5007, storage error); without one, the caller asked for something the
 * store refuses, such as a title another session has (4004, usage error).
 */
export class StoreError extends HermesError {
  override name = 'StoreError';
  constructor(
    message: string,
    readonly problem?: StoreProblem,
    readonly file?: string,
  ) {
    super(problem === undefined ? ErrorCode.UsageError : ErrorCode.StorageError, message);
  }
}

const SQLITE_MAGIC = 'SQLite format 3\0';
const HEADER_BYTES = 100;

/** The "move it aside" fix, including the -wal/-shm files next to it (a stale WAL must not meet a new database). */
function moveAsideFix(file: string): string {
  const moves = [file, `${file}-wal`, `${file}-shm`]
    .filter((f, i) => i === 0 || fs.existsSync(f))
    .map((f) => `mv ${shellPath(f)} ${shellPath(`${f}.broken`)}`);
  return `Fix: move it aside (${moves.join(' && ')}); hermes then creates a new, empty one. Your old sessions stay in the moved file.`;
}

/** Reads the first bytes of `file` to say how it is broken (called only once SQLite refused it). */
function diagnoseHeader(file: string): { problem: StoreProblem; what: string } | null {
  let size: number;
  let header: Buffer;
  try {
    size = fs.statSync(file).size;
    const fd = fs.openSync(file, 'r');
    try {
      header = Buffer.alloc(Math.min(size, HEADER_BYTES));
      fs.readSync(fd, header, 0, header.length, 0);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
  const start = header.subarray(0, 16).toString('latin1');
  if (size >= 16 && start !== SQLITE_MAGIC) {
    if (SQLITE_MAGIC.startsWith(start.slice(0, 6)) || start.startsWith('SQLite')) {
      return { problem: 'not_a_database', what: 'its SQLite header is damaged' };
    }
    const printable = [...header].every((b) => b === 9 || b === 10 || b === 13 || (b >= 32 && b < 127) || b >= 0xc2);
    return printable
      ? { problem: 'not_a_database', what: 'it is a text file, not a SQLite database' }
      : { problem: 'not_a_database', what: 'it does not start with a SQLite header (the header is damaged or this is another kind of file)' };
  }
  if (size < HEADER_BYTES) return { problem: 'truncated', what: `it is truncated: only ${size} bytes are left` };
  // Bytes 16-17: page size (1 means 65536); bytes 28-31: the database size in pages.
  const rawPageSize = header.readUInt16BE(16);
  const pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
  const pages = header.readUInt32BE(28);
  if (pages > 0 && pageSize * pages > size) {
    return { problem: 'truncated', what: `it is truncated: ${size} bytes of the ${pageSize * pages} its header promises` };
  }
  return null;
}

/** True for an error SQLite raised (better-sqlite3 puts its code, `SQLITE_…`, on the error). */
export function isSqliteFailure(error: unknown): boolean {
  return code(error).startsWith('SQLITE_');
}

/** True for the failures that mean "no room left on the disk" or "the disk failed the write". */
export function isDiskWriteFailure(error: unknown): boolean {
  const c = code(error);
  return c === 'SQLITE_FULL' || c.startsWith('SQLITE_IOERR') || c === 'ENOSPC' || c === 'EIO';
}

/**
 * Turns a failure to open or use state.db into a StoreError naming the file, what is wrong and the
 * fix. `error` is what better-sqlite3 or fs threw; anything not recognized keeps its own words.
 */
export function explainStoreFailure(file: string, error: unknown): StoreError {
  if (error instanceof StoreError) return error;
  const c = code(error);
  const said = (error as Error)?.message ?? String(error);
  const dir = path.dirname(file);
  const make = (problem: StoreProblem, text: string) => new StoreError(text, problem, file);
  if (c === 'ENOTDIR' || c === 'EEXIST') {
    // state.db's folder is HERMES_HOME itself: a file there is the user's (HERMES_HOME=/etc/passwd), never hermes's to move.
    return make('not_a_database', `${dir} is not a folder, so hermes cannot keep ${file} there. Fix: set HERMES_HOME to a folder (the default is ~/.hermes).`);
  }
  const folderBeside = [`${file}-wal`, `${file}-shm`].find(isFolder);
  if (folderBeside) {
    return make('not_a_database', `${folderBeside}, which SQLite needs as a file beside the session database ${file}, is a folder. Fix: move it aside (mv ${shellPath(folderBeside)} ${shellPath(`${folderBeside}.folder`)}).`);
  }
  if (isFolder(file)) {
    return make('not_a_database', `The session database ${file} is a folder, not a file. Fix: move it aside (mv ${shellPath(file)} ${shellPath(`${file}.folder`)}); hermes then creates a new, empty one.`);
  }
  if (c === 'ENOENT' && (error as NodeJS.ErrnoException).syscall === 'mkdir') {
    const folder = String((error as NodeJS.ErrnoException).path ?? dir);
    return make('io', `hermes cannot create the folder ${folder} for ${file}: the file system there refuses new folders. Fix: set HERMES_HOME to a folder you can create or write.`);
  }
  const target = danglingLinkTarget(file);
  if (target !== null) {
    return make(
      'broken_link',
      `The session database ${file} is a link to ${target}, whose folder does not exist. Fix: create that folder (mkdir -p ${shellPath(path.dirname(path.resolve(dir, target)))}), or remove the link (rm ${shellPath(file)}) so hermes creates a new, empty database there.`,
    );
  }
  if (c === 'SQLITE_NOTADB' || c.startsWith('SQLITE_CORRUPT')) {
    const diagnosis = diagnoseHeader(file);
    const problem = diagnosis?.problem ?? (c === 'SQLITE_NOTADB' ? 'not_a_database' : 'corrupt');
    const what = diagnosis?.what ?? (c === 'SQLITE_NOTADB' ? 'it is not a SQLite database' : 'it is damaged (SQLite: "database disk image is malformed")');
    return make(problem, `The session database ${file} cannot be used: ${what}. ${moveAsideFix(file)}`);
  }
  if (c.startsWith('SQLITE_BUSY') || c.startsWith('SQLITE_LOCKED')) {
    return make(
      'locked',
      `The session database ${file} is locked by another program (SQLite: "${said}"). Fix: close the other hermes (or whatever holds it open: fuser ${shellPath(file)}), then start hermes again.`,
    );
  }
  if (c === 'SQLITE_FULL' || c === 'ENOSPC') {
    return make('disk_full', `The disk holding ${dir} is full: ${file} cannot be written. Fix: free some space on that disk (df -h ${shellPath(dir)}), then try again.`);
  }
  const denied = c.startsWith('SQLITE_READONLY') || c.startsWith('SQLITE_CANTOPEN') || c === 'SQLITE_PERM' || c === 'EACCES' || c === 'EPERM';
  if (c === 'EROFS' || (denied && isReadOnlyFs(dir))) {
    return make('read_only', `${dir} is on a read-only file system, so ${file} cannot be written. Fix: set HERMES_HOME to a folder on a writable disk.`);
  }
  if (denied && !fs.existsSync(dir)) {
    const parent = deciding(file);
    return make(
      'permission',
      `Permission denied: hermes cannot create the folder ${dir} for the session database ${file} (it needs to write in ${parent}). Fix: chmod u+rwx ${shellPath(parent)} (as the owner), or set HERMES_HOME to a folder you can write.`,
    );
  }
  if (denied) {
    return make(
      'permission',
      `Permission denied: hermes cannot write the session database ${file} (it needs to write the file and create files next to it in ${dir}). Fix: chmod u+rwx ${shellPath(dir)}${fs.existsSync(file) ? ` && chmod u+rw ${shellPath(file)}` : ''} (as the owner), or set HERMES_HOME to a folder you can write.`,
    );
  }
  if (c.startsWith('SQLITE_IOERR') || c === 'EIO') {
    return make('io', `The disk reported an error while hermes used ${file} (SQLite: "${said}"). Fix: check the disk (free space: df -h ${shellPath(dir)}; kernel log: dmesg), then try again.`);
  }
  return make('io', `The session database ${file} cannot be used: ${said}`);
}

/** Where `file` links to when it is a symbolic link that leads nowhere (SQLite says only "unable to open"). */
function danglingLinkTarget(file: string): string | null {
  try {
    if (!fs.lstatSync(file).isSymbolicLink()) return null;
    const target = fs.readlinkSync(file);
    return fs.existsSync(path.dirname(path.resolve(path.dirname(file), target))) ? null : target;
  } catch {
    return null;
  }
}

function isFolder(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}

/** Whether `dir` sits on a file system mounted read-only (root ignores permission bits, never this). */
function isReadOnlyFs(dir: string): boolean {
  try {
    const probe = path.join(dir, `.hermes-write-probe-${process.pid}`);
    fs.writeFileSync(probe, '');
    fs.rmSync(probe, { force: true });
    return false;
  } catch (error) {
    return code(error) === 'EROFS';
  }
}

/**
 * A state.db Hermes (the Python agent) wrote, opened as hermes's store: another schema, never written to.
 * The runtime never gets here (sessions/storeLocation.ts keeps hermes's sessions beside such a file);
 * this guards a direct SessionStore.open.
 */
export function hermesDatabaseError(file: string): StoreError {
  const dir = path.dirname(file);
  return new StoreError(
    `The session database ${file} is Hermes's own (the Python agent's schema, not this hermes's), so hermes leaves it untouched and cannot keep its sessions there. Fix: give hermes its own home (mkdir ~/.hermes-ts && cp -r ${shellPath(path.join(dir, 'config.yaml'))} ${shellPath(path.join(dir, '.env'))} ${shellPath(path.join(dir, 'skills'))} ${shellPath(path.join(dir, 'memories'))} ~/.hermes-ts/, then HERMES_HOME=~/.hermes-ts), or, if you no longer use Hermes, move it aside (mv ${shellPath(file)} ${shellPath(`${file}.hermes`)}).`,
    'hermes_database',
    file,
  );
}

/** The refusal of a database written by a newer hermes. */
export function newerSchemaError(file: string, version: number, known: number): StoreError {
  return new StoreError(
    `The session database ${file} was written by a newer hermes (schema ${version}; this one knows up to ${known}). Upgrade hermes to open it, or set HERMES_HOME to another folder to start afresh with this version.`,
    'newer_schema',
    file,
  );
}
