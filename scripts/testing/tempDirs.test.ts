import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { RUN_PREFIX } from './tempDirCheck.ts';
import { onCleanup, tempDir } from './tempDirs.ts';

describe('tempDir', () => {
  let shared = '';
  beforeAll(() => {
    shared = tempDir('hermes-shared-');
  });

  it('makes a fresh dir in the run TMPDIR and removes it once the test is over', () => {
    let dir = '';
    // Registered first, so it runs last: after tempDir's own removal.
    onTestFinished(() => expect(fs.existsSync(dir)).toBe(false));
    dir = tempDir('hermes-probe-');
    expect(path.dirname(dir)).toBe(os.tmpdir());
    expect(path.basename(os.tmpdir()).startsWith(RUN_PREFIX)).toBe(true);
    expect(fs.readdirSync(dir)).toEqual([]);
    fs.mkdirSync(path.join(dir, 'logs'));
    fs.writeFileSync(path.join(dir, 'logs', 'backend.log'), 'line\n');
  });

  it('runs later cleanups first, so a child is stopped while its home still exists', () => {
    const home = tempDir('hermes-probe-');
    const seen: boolean[] = [];
    onTestFinished(() => expect(seen).toEqual([true]));
    onCleanup(() => void seen.push(fs.existsSync(home)));
  });

  it('keeps a dir made outside a test until the file is done', () => {
    expect(fs.existsSync(shared)).toBe(true);
  });

  // What it guards is a non-root user's problem (root deletes regardless), but it holds for every user.
  it('removes a dir the test made read-only', () => {
    let dir = '';
    onTestFinished(() => expect(fs.existsSync(dir)).toBe(false));
    dir = tempDir('hermes-probe-');
    fs.mkdirSync(path.join(dir, 'logs'));
    fs.writeFileSync(path.join(dir, 'logs', 'tui.log'), '');
    fs.chmodSync(path.join(dir, 'logs'), 0o555);
    fs.chmodSync(dir, 0o555);
  });

  it('rejects a prefix that is a path', () => {
    expect(() => tempDir('../escape-')).toThrow(/plain name/);
  });
});
