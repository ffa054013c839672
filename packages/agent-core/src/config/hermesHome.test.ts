import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { describeWriteFailure, makeDirs } from './hermesHome.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const saved = process.env.HERMES_HOME;
afterEach(() => {
  if (saved === undefined) delete process.env.HERMES_HOME;
  else process.env.HERMES_HOME = saved;
});

/** The error a real write under `target` gets, and the message hermes makes of it. */
function failureFor(target: string): string {
  try {
    makeDirs(path.dirname(target));
    fs.writeFileSync(target, '');
  } catch (error) {
    return describeWriteFailure(target, error);
  }
  throw new Error(`writing ${target} did not fail`);
}

describe('describeWriteFailure: a file where a folder should be', () => {
  it('inside HERMES_HOME (logs written as a file): move it aside', () => {
    const home = tempDir('hermes-home-');
    process.env.HERMES_HOME = home;
    fs.writeFileSync(path.join(home, 'logs'), 'not a folder');
    const target = path.join(home, 'logs', 'backend.log');
    expect(failureFor(target)).toBe(
      `hermes cannot write ${target}: ${home}/logs is a file where a folder should be. Fix: move it aside (mv ${home}/logs ${home}/logs.file); hermes then creates the folder.`,
    );
  });

  it('HERMES_HOME itself is a file (HERMES_HOME=/etc/passwd): never suggests moving it, says to point HERMES_HOME at a folder', () => {
    const dir = tempDir('hermes-home-');
    const home = path.join(dir, 'passwd');
    fs.writeFileSync(home, 'root:x:0:0');
    process.env.HERMES_HOME = home;
    const target = path.join(home, 'logs', 'backend.log');
    const message = failureFor(target);
    expect(message).toContain(`HERMES_HOME (${home}) must be a folder. Fix: set HERMES_HOME to a folder`);
    expect(message).not.toContain('mv ');
  });
});
