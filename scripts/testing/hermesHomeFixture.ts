/**
 * The Hermes-home fixture (scripts/fixtures/hermes-home/: a `~/.hermes` as Hermes writes one), copied
 * into a temp folder for a test, and a snapshot of its files to show that hermes rewrote none of them.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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
    files.set(path.relative(home, file), { sha256: crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex'), mtimeMs: stat.mtimeMs, mode: stat.mode });
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
