// Run only by tempDirCheck.test.ts, in a vitest run of its own: one test that leaks, one that does not.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { it } from 'vitest';
import { tempDir } from '../tempDirs.ts';

it('leaks a temp dir', () => {
  fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-leaky-fixture-'));
});

it('cleans up its own', () => {
  tempDir('hermes-tidy-fixture-');
});
