import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { addHermesStateDb, fileHash } from '../../../../scripts/testing/hermesHomeFixture.ts';
import { tempDir } from '../testing/tempHome.ts';
import { SessionStore } from './sessionStore.ts';
import { inspectSessionStore } from './storeInspection.ts';
import { sessionStoreLocation, stateDbKind } from './storeLocation.ts';

const filesIn = (dir: string) => fs.readdirSync(dir).sort();

describe('where hermes keeps its sessions', () => {
  it('a fresh home, and a home with hermes\'s own state.db: state.db', () => {
    const home = tempDir('location');
    expect(sessionStoreLocation(home)).toEqual({ file: path.join(home, 'state.db') });
    expect(filesIn(home)).toEqual([]);
    const store = SessionStore.open(path.join(home, 'state.db'));
    store.createSession({ id: 's1' });
    store.close();
    expect(stateDbKind(path.join(home, 'state.db'))).toBe('hermes');
    expect(sessionStoreLocation(home)).toEqual({ file: path.join(home, 'state.db') });
    // An empty file (no tables yet) is hermes's to fill.
    const other = tempDir('location-empty');
    fs.writeFileSync(path.join(other, 'state.db'), '');
    expect(sessionStoreLocation(other)).toEqual({ file: path.join(other, 'state.db') });
  });

  it("a large Hermes state.db (a long history) is told apart through a copy on disk, left byte for byte as it was, no copy left behind", () => {
    const home = tempDir('location-large');
    const hermesDb = addHermesStateDb(home);
    const db = new Database(hermesDb);
    // Past the in-memory limit (32 MB): one message of 40 MB, written as Hermes would, then checkpointed.
    db.prepare("INSERT INTO messages (session_id, role, content, timestamp) SELECT id, 'user', zeroblob(40 * 1024 * 1024), 1 FROM sessions LIMIT 1").run();
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    fs.rmSync(`${hermesDb}-wal`, { force: true });
    fs.rmSync(`${hermesDb}-shm`, { force: true });
    expect(fs.statSync(hermesDb).size).toBeGreaterThan(40 * 1024 * 1024);
    const hash = fileHash(hermesDb);
    expect(stateDbKind(hermesDb)).toBe('foreign');
    expect(sessionStoreLocation(home)).toEqual({ file: path.join(home, 'hermes-node.db'), foreign: hermesDb });
    expect(fileHash(hermesDb)).toBe(hash);
    expect(filesIn(home)).toEqual(['state.db']);
  });

  it("Hermes's state.db: hermes-node.db beside it, Hermes's file never opened (bytes, mtime, no -wal/-shm), and kept from then on", () => {
    const home = tempDir('location-hermes');
    const hermesDb = addHermesStateDb(home);
    const hash = fileHash(hermesDb);
    const mtime = fs.statSync(hermesDb).mtimeMs;
    expect(stateDbKind(hermesDb)).toBe('foreign');
    const location = sessionStoreLocation(home);
    expect(location).toEqual({ file: path.join(home, 'hermes-node.db'), foreign: hermesDb });

    const store = SessionStore.open(location.file);
    store.createSession({ id: 'mine', title: 'kept apart' });
    store.appendMessage('mine', { role: 'user', content: 'hello' });
    expect(inspectSessionStore(home)).toMatchObject({ file: location.file, foreign: hermesDb, exists: true, sessions: 1 });
    store.close();

    expect(fileHash(hermesDb)).toBe(hash);
    expect(fs.statSync(hermesDb).mtimeMs).toBe(mtime);
    expect(filesIn(home)).toEqual(['hermes-node.db', 'state.db']);
    // Hermes's file still reads as Hermes wrote it.
    const hermes = new Database(hermesDb, { readonly: true });
    expect(hermes.prepare('SELECT COUNT(*) AS n FROM sessions').get()).toEqual({ n: 2 });
    hermes.close();

    // Hermes's state.db gone later: hermes keeps using its own file.
    fs.rmSync(hermesDb, { force: true });
    fs.rmSync(`${hermesDb}-wal`, { force: true });
    fs.rmSync(`${hermesDb}-shm`, { force: true });
    expect(sessionStoreLocation(home)).toEqual({ file: path.join(home, 'hermes-node.db') });
    const reopened = SessionStore.open(sessionStoreLocation(home).file);
    expect(reopened.getSession('mine')?.title).toBe('kept apart');
    reopened.close();
  });

  it("Hermes running now, its schema still only in its WAL: told apart through a read-only reader", () => {
    const home = tempDir('location-wal');
    const file = path.join(home, 'state.db');
    const running = new Database(file);
    running.pragma('journal_mode = WAL');
    running.pragma('wal_autocheckpoint = 0');
    running.exec('CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (30); CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL);');
    try {
      expect(fs.statSync(`${file}-wal`).size).toBeGreaterThan(0);
      // The main file alone has no tables; only the WAL has them.
      expect(stateDbKind(file, () => false)).toBe('hermes');
      expect(stateDbKind(file)).toBe('foreign');
      expect(sessionStoreLocation(home).file).toBe(path.join(home, 'hermes-node.db'));
    } finally {
      running.close();
    }
  });

  it("a database that is not Hermes's, readable or not: state.db, left for hermes's open to fill or explain", () => {
    const home = tempDir('location-other');
    const file = path.join(home, 'state.db');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec("CREATE TABLE notes (x TEXT); INSERT INTO notes VALUES ('" + 'x'.repeat(20_000) + "');");
    db.close();
    // Another program's tables (user_version 0, but no Hermes schema).
    expect(stateDbKind(file)).toBe('hermes');
    // Truncated: its first page still lists a table, but it is no readable Hermes database.
    fs.truncateSync(file, 6000);
    expect(stateDbKind(file)).toBe('hermes');
    expect(sessionStoreLocation(home)).toEqual({ file });
    // Hermes's tables without sessions.source are not Hermes's SessionDB either.
    const partial = path.join(tempDir('location-partial'), 'state.db');
    const other = new Database(partial);
    other.exec('CREATE TABLE schema_version (version INTEGER NOT NULL); CREATE TABLE sessions (id TEXT PRIMARY KEY);');
    other.close();
    expect(stateDbKind(partial)).toBe('hermes');
    expect(filesIn(path.dirname(partial))).toEqual(['state.db']);
  });

  it('doctor\'s inspection creates nothing in a fresh home', () => {
    const home = tempDir('location-doctor');
    expect(inspectSessionStore(home)).toMatchObject({ file: path.join(home, 'state.db'), exists: false });
    expect(filesIn(home)).toEqual([]);
  });
});
