/**
 * The one way tests make temp dirs: `tempDir(prefix)` creates one under os.tmpdir() and removes it when
 * the test that made it finishes (made outside a test — at module level, in a describe body or a
 * beforeAll — it goes after the file's last test). `onCleanup` puts other work, such as stopping a child
 * that writes into such a dir, on the same schedule. Cleanups run last-registered first, so a child
 * started after its home was made is stopped before the home is removed.
 *
 * Outside vitest (benchmarks reuse the test harnesses) dirs are removed when the process exits and
 * `onCleanup` work is left to the caller.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onTestFinished, TestRunner } from 'vitest';
import { removeDir } from './removeDir.ts';

export type Cleanup = () => void | Promise<void>;

// A vitest worker, not merely a child of one (children inherit VITEST=true).
const inVitest = '__vitest_worker__' in globalThis;
/** Cleanups registered outside any test, run by `runFileCleanups` (see tempDirsSetup.ts). */
const fileCleanups: Cleanup[] = [];
let fileHookInstalled = false;
const atExit = new Set<string>();

/** A fresh, empty dir `<os.tmpdir()>/<prefix>XXXXXX`, removed when the current test (or file) is done. */
export function tempDir(prefix: string): string {
  if (!/^[\w.-]+$/.test(prefix)) throw new Error(`tempDir prefix must be a plain name like "hermes-home-", got ${JSON.stringify(prefix)}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  if (inVitest) onCleanup(() => removeDir(dir));
  else removeAtExit(dir);
  return dir;
}

/** Runs `cleanup` when the current test finishes, or after the file's tests when called outside a test. */
export function onCleanup(cleanup: Cleanup): void {
  if (!inVitest) return;
  if (TestRunner.getCurrentTest()) {
    onTestFinished(cleanup);
    return;
  }
  if (!fileHookInstalled) {
    throw new Error('onCleanup/tempDir outside a test needs scripts/testing/tempDirsSetup.ts in vitest setupFiles');
  }
  fileCleanups.push(cleanup);
}

/** Called once per test file by tempDirsSetup.ts, which runs `runFileCleanups` after the file's tests. */
export function installFileHook(): void {
  fileHookInstalled = true;
}

/** Runs the file-scoped cleanups, newest first; every one runs even when an earlier one throws. */
export async function runFileCleanups(): Promise<void> {
  const errors: unknown[] = [];
  for (const cleanup of fileCleanups.splice(0).reverse()) {
    try {
      await cleanup();
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, `${errors.length} temp-dir cleanups failed`);
}

function removeAtExit(dir: string): void {
  if (atExit.size === 0) process.once('exit', () => atExit.forEach(removeDir));
  atExit.add(dir);
}
