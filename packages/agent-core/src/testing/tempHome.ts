/** Temp folders for tests, removed when the test is done: a bare folder, a HERMES_HOME holding given files, a state.db path. */
import fs from 'node:fs';
import path from 'node:path';
import { tempDir as sharedTempDir } from '../../../../scripts/testing/tempDirs.ts';

/** A fresh temp folder (`hermes-<prefix>-…`), removed when the test (or file) that made it is done. */
export function tempDir(prefix: string): string {
  return sharedTempDir(`hermes-${prefix}-`);
}

/** A fresh HERMES_HOME holding `files` (name → text: `config.yaml`, `.env`, …). */
export function homeWith(files: Record<string, string>, prefix = 'home'): string {
  const dir = tempDir(prefix);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

/** The path of a state.db (not created) in a fresh temp folder. */
export function tempDb(prefix = 'store'): string {
  return path.join(tempDir(prefix), 'state.db');
}
