/** Removing a test's temp dir for good (no vitest here: the run's global setup uses it too). */
import fs from 'node:fs';
import path from 'node:path';

/**
 * Removes `dir` and everything in it; retries while a just-stopped child still closes files there, and
 * gives back write permission where a test took it away (a read-only HERMES_HOME) so the owner can delete.
 */
export function removeDir(dir: string): void {
  const remove = () => fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  try {
    remove();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EACCES' && code !== 'EPERM') throw error;
    makeWritable(dir);
    remove();
  }
}

function makeWritable(dir: string): void {
  fs.chmodSync(dir, 0o700);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) makeWritable(path.join(dir, entry.name));
  }
}
