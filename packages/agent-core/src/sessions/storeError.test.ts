import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from './schema.ts';
import { SessionStore, StoreError } from './sessionStore.ts';
import { tempDb } from '../testing/tempHome.ts';

const tmpDb = () => tempDb('baddb');

/** A real state.db with some sessions in it, closed (checkpointed into the main file). */
function populatedDb(): string {
  const file = tmpDb();
  const store = SessionStore.open(file);
  store.createSession({ id: 's1' });
  for (let i = 0; i < 200; i += 1) store.appendMessage('s1', { role: 'user', content: `message ${i} `.repeat(40) });
  store.close();
  return file;
}

function openError(file: string): StoreError {
  try {
    SessionStore.open(file).close();
  } catch (error) {
    expect(error).toBeInstanceOf(StoreError);
    return error as StoreError;
  }
  throw new Error(`${file} opened`);
}

/** Every message names the file and says how to get going again. */
function expectMoveAside(error: StoreError, file: string): void {
  expect(error.file).toBe(file);
  expect(error.message).toContain(file);
  expect(error.message).toContain(`mv ${file} ${file}.broken`);
  expect(error.message).toMatch(/creates a new, empty one/);
}

describe('state.db that cannot be used', () => {
  it('a text file: says it is text, names the file and the move-aside fix', () => {
    const file = tmpDb();
    fs.writeFileSync(file, 'these are my notes, not a database\n'.repeat(20));
    const error = openError(file);
    expect(error.problem).toBe('not_a_database');
    expect(error.message).toMatch(/is a text file, not a SQLite database/);
    expectMoveAside(error, file);
    // The broken file is left as it was, for the user to look at.
    expect(fs.readFileSync(file, 'utf8')).toMatch(/^these are my notes/);
  });

  it('a truncated file: says how much is left of what the header promises', () => {
    const file = populatedDb();
    const full = fs.statSync(file).size;
    fs.truncateSync(file, Math.floor(full / 2));
    const error = openError(file);
    expect(error.problem).toBe('truncated');
    expect(error.message).toMatch(new RegExp(`truncated: ${Math.floor(full / 2)} bytes of the ${full}`));
    expectMoveAside(error, file);
  });

  it('a file cut inside its header', () => {
    const file = populatedDb();
    fs.truncateSync(file, 40);
    const error = openError(file);
    expect(error.problem).toBe('truncated');
    expect(error.message).toMatch(/only 40 bytes are left/);
  });

  it('a damaged header', () => {
    const file = populatedDb();
    const fd = fs.openSync(file, 'r+');
    fs.writeSync(fd, Buffer.from('SQLite format 9'), 0, 15, 0);
    fs.closeSync(fd);
    const error = openError(file);
    expect(error.problem).toBe('not_a_database');
    expect(error.message).toMatch(/SQLite header is damaged/);
    expectMoveAside(error, file);
  });

  it('a binary file of another kind', () => {
    const file = tmpDb();
    fs.writeFileSync(file, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(200).fill(0)]));
    const error = openError(file);
    expect(error.message).toMatch(/does not start with a SQLite header/);
    expectMoveAside(error, file);
  });

  it('mentions the -wal file in the fix when there is one', () => {
    const file = tmpDb();
    fs.writeFileSync(file, 'not a database at all, really not');
    fs.writeFileSync(`${file}-wal`, 'stale');
    expect(openError(file).message).toContain(`mv ${file}-wal ${file}-wal.broken`);
  });

  it('a folder where the file should be, and a HERMES_HOME that is a file', () => {
    const file = tmpDb();
    fs.mkdirSync(file);
    expect(openError(file).message).toBe(
      `The session database ${file} is a folder, not a file. Fix: move it aside (mv ${file} ${file}.folder); hermes then creates a new, empty one.`,
    );
    const home = path.join(path.dirname(tmpDb()), 'home');
    fs.writeFileSync(home, 'a file');
    expect(openError(path.join(home, 'state.db')).message).toBe(`${home} is not a folder, so hermes cannot keep ${home}/state.db there. Fix: set HERMES_HOME to a folder (the default is ~/.hermes).`);
  });

  it('a state.db-wal that is a folder: names it and the move-aside fix, not "permission denied"', () => {
    const file = populatedDb();
    fs.mkdirSync(`${file}-wal`);
    expect(openError(file).message).toBe(`${file}-wal, which SQLite needs as a file beside the session database ${file}, is a folder. Fix: move it aside (mv ${file}-wal ${file}-wal.folder).`);
  });

  it('a link to a folder that does not exist: says where it leads and both fixes, not "permission denied"', () => {
    const file = tmpDb();
    const target = path.join(path.dirname(file), 'gone', 'state.db');
    fs.symlinkSync(target, file);
    const error = openError(file);
    expect(error.problem).toBe('broken_link');
    expect(error.message).toBe(
      `The session database ${file} is a link to ${target}, whose folder does not exist. Fix: create that folder (mkdir -p ${path.dirname(target)}), or remove the link (rm ${file}) so hermes creates a new, empty database there.`,
    );
  });

  it('a database from a newer hermes: says so and what to do', () => {
    const file = tmpDb();
    const db = new Database(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
    db.close();
    const error = openError(file);
    expect(error.problem).toBe('newer_schema');
    expect(error.message).toContain(file);
    expect(error.message).toMatch(/newer hermes \(schema \d+; this one knows up to \d+\)\. Upgrade hermes/);
  });

  it("Hermes's own state.db (the Python agent's schema): refused with the fix, and not written to (no WAL switch, no tables)", () => {
    const file = tmpDb();
    const db = new Database(file);
    db.exec(`CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (30);
      CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, started_at REAL NOT NULL);
      INSERT INTO sessions VALUES ('20261130_101010_abc', 'cli', 1);`);
    db.close();
    const bytes = fs.readFileSync(file);
    const error = openError(file);
    expect(error.problem).toBe('hermes_database');
    expect(error.message).toMatch(new RegExp(`^The session database ${file} is Hermes's own .* Fix: give hermes its own home .* or, if you no longer use Hermes, move it aside \\(mv ${file} ${file}\\.hermes\\)\\.$`));
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
  });

  it('a database another program holds locked: says it is locked and what to close', () => {
    const file = tmpDb();
    const holder = new Database(file);
    holder.pragma('locking_mode = EXCLUSIVE');
    holder.exec('CREATE TABLE t (x); BEGIN EXCLUSIVE; INSERT INTO t VALUES (1);');
    try {
      const error = openError(file);
      expect(error.problem).toBe('locked');
      expect(error.message).toContain(file);
      expect(error.message).toMatch(/locked by another program.*close the other hermes/);
    } finally {
      holder.close();
    }
  }, 20_000);
});
