/**
 * What `hermes doctor` says about SQLite and the session store, found without creating or changing
 * anything: the addon is tried on an in-memory database, an existing store is opened read-only, a
 * missing one is left missing, and Hermes's own state.db is only read through its header or a copy
 * of its bytes (storeLocation.ts), never opened in place.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { SCHEMA_VERSION } from './schema.ts';
import { explainStoreFailure } from './storeError.ts';
import { sessionStoreLocation, type StoreLocation } from './storeLocation.ts';

export interface StoreInspection extends StoreLocation {
  /** SQLite's version, from an in-memory database (proves the addon loads). */
  sqliteVersion: string;
  /** Whether `file` exists yet (hermes creates it at its first start). */
  exists: boolean;
  sessions?: number;
  schemaVersion?: number;
  /** Why the existing store cannot be read, with the fix. */
  problem?: string;
}

/** Throws when the SQLite addon itself cannot be loaded or used. */
export function sqliteVersion(): string {
  const db = new Database(':memory:');
  try {
    return (db.prepare('SELECT sqlite_version() AS version').get() as { version: string }).version;
  } finally {
    db.close();
  }
}

/** Why hermes could not create `file` at its first start (its folder exists but cannot be written), or undefined. */
function cannotCreate(file: string): string | undefined {
  const dir = path.dirname(file);
  if (!fs.existsSync(dir)) return undefined;
  try {
    fs.accessSync(dir, fs.constants.W_OK | fs.constants.X_OK);
    return undefined;
  } catch (error) {
    return explainStoreFailure(file, error).message;
  }
}

export function inspectSessionStore(home: string): StoreInspection {
  const version = sqliteVersion();
  const location = sessionStoreLocation(home);
  if (!fs.existsSync(location.file)) {
    const problem = cannotCreate(location.file);
    return { ...location, sqliteVersion: version, exists: false, ...(problem ? { problem } : {}) };
  }
  let db: Database.Database | undefined;
  try {
    db = new Database(location.file, { readonly: true, fileMustExist: true, timeout: 2_000 });
    const schemaVersion = db.pragma('user_version', { simple: true }) as number;
    // A file with no schema yet (or a newer hermes's) holds no sessions this hermes can count.
    const hasSessions = schemaVersion > 0 && schemaVersion <= SCHEMA_VERSION;
    const sessions = hasSessions ? (db.prepare('SELECT COUNT(*) AS n FROM sessions').get() as { n: number }).n : 0;
    return { ...location, sqliteVersion: version, exists: true, sessions, schemaVersion };
  } catch (error) {
    return { ...location, sqliteVersion: version, exists: true, problem: explainStoreFailure(location.file, error).message };
  } finally {
    db?.close();
  }
}
