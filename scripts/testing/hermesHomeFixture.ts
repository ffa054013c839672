/**
 * The Hermes-home fixture (scripts/fixtures/hermes-home/: a `~/.hermes` as Hermes writes one), copied
 * into a temp folder for a test, and a snapshot of its files to show that hermes rewrote none of them.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { tempDir } from './tempDirs.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
export const HERMES_HOME_FIXTURE = path.join(FIXTURES, 'hermes-home');

/** config.yaml variants of the same home (`model-string`: `model: openrouter/anthropic/claude-sonnet-4`). */
export type HomeVariant = 'model-mapping' | 'model-string';

/** A fresh copy of the fixture; `model-string` swaps in its config.yaml. The .env is 0600, as Hermes leaves it. */
export function hermesHomeCopy(variant: HomeVariant = 'model-mapping'): string {
  const home = tempDir('hermes-fixture-home-');
  fs.cpSync(HERMES_HOME_FIXTURE, home, { recursive: true });
  if (variant === 'model-string') fs.copyFileSync(path.join(FIXTURES, 'hermes-home-variants', 'model-string.yaml'), path.join(home, 'config.yaml'));
  fs.chmodSync(path.join(home, '.env'), 0o600);
  return home;
}

/**
 * Writes Hermes's own SessionDB (its schema and a few rows: scripts/fixtures/hermes-state-db.sql) as
 * `$HERMES_HOME/state.db`, in WAL mode as Hermes keeps it, and closes it (checkpointed: no -wal/-shm
 * left). Built by the test rather than stored, so the fixture holds text only. Returns the file.
 */
export function addHermesStateDb(home: string): string {
  const file = path.join(home, 'state.db');
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.exec(fs.readFileSync(path.join(FIXTURES, 'hermes-state-db.sql'), 'utf8'));
  } finally {
    db.close();
  }
  fs.chmodSync(file, 0o600);
  return file;
}

/** The SHA-256 of a file's bytes. */
export function fileHash(file: string): string {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

export interface FileStamp {
  sha256: string;
  mtimeMs: number;
  mode: number;
}

/** Every file under `home` (relative path → content hash, modification time, mode). */
export function snapshotFiles(home: string): Map<string, FileStamp> {
  const files = new Map<string, FileStamp>();
  for (const entry of fs.readdirSync(home, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath ?? (entry as { path?: string }).path ?? home, entry.name);
    const stat = fs.statSync(file);
    files.set(path.relative(home, file), { sha256: fileHash(file), mtimeMs: stat.mtimeMs, mode: stat.mode });
  }
  return files;
}

/** The files of `before` that are gone or differ (content, mtime or mode) in `after`. */
export function changedFiles(before: Map<string, FileStamp>, after: Map<string, FileStamp>): string[] {
  return [...before].filter(([file, stamp]) => {
    const now = after.get(file);
    return !now || now.sha256 !== stamp.sha256 || now.mtimeMs !== stamp.mtimeMs || now.mode !== stamp.mode;
  }).map(([file]) => file);
}

/** The files `after` has that `before` did not (what hermes created: state.db, logs, plugin load records). */
export function addedFiles(before: Map<string, FileStamp>, after: Map<string, FileStamp>): string[] {
  return [...after.keys()].filter((file) => !before.has(file)).sort();
}
