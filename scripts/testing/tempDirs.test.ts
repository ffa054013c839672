import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { describeLeftovers, findLeftovers, markReport, prefixOf, RUN_PREFIX } from './tempDirCheck.ts';
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

  // Root deletes regardless of permissions; the case only exists for other users.
  it.skipIf(process.getuid?.() === 0)('removes a dir the test made read-only', () => {
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

describe('the leftover check', () => {
  it('names what each prefix left behind', () => {
    const run = tempDir('hermes-fake-run-');
    fs.mkdirSync(path.join(run, 'hermes-e2e-home-Ab12Cd'));
    fs.mkdirSync(path.join(run, 'hermes-e2e-home-Zz99Yy'));
    fs.writeFileSync(path.join(run, 'hermes-hangup-4242-1700000000000'), '');
    fs.mkdirSync(path.join(run, 'tsx-0'));
    const leftovers = findLeftovers(run);
    expect(leftovers.map((l) => l.prefix)).toEqual(['hermes-e2e-home-', 'hermes-e2e-home-', 'hermes-hangup-<n>-<n>']);
    const message = describeLeftovers(leftovers, run);
    expect(message).toContain('left 3 temp entries behind');
    expect(message).toContain('hermes-e2e-home-  (2): hermes-e2e-home-Ab12Cd, hermes-e2e-home-Zz99Yy');
  });

  it('names the sources that spell out a prefix', () => {
    const root = tempDir('hermes-fake-repo-');
    const write = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    };
    write('packages/tui/src/e2e/leaky.e2e.test.ts', "fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-leaky-'));\n");
    write('packages/tui/src/e2e/clean.e2e.test.ts', "tempDir('hermes-clean-');\n");
    write('scripts/testing/hangup.ts', 'join(tmpdir(), `hermes-hangup-${process.pid}`);\n');
    const run = tempDir('hermes-fake-run-');
    fs.mkdirSync(path.join(run, 'hermes-leaky-Qw3rTy'));
    fs.writeFileSync(path.join(run, 'hermes-hangup-4242'), '');
    const message = describeLeftovers(findLeftovers(run), run, root);
    expect(message).toContain('hermes-leaky-  (1): hermes-leaky-Qw3rTy\n      named in: packages/tui/src/e2e/leaky.e2e.test.ts\n');
    expect(message).toContain('hermes-hangup-<n>  (1): hermes-hangup-4242\n      named in: scripts/testing/hangup.ts\n');
  });

  it('marks the JSON report failed with the list', () => {
    const report = path.join(tempDir('hermes-report-'), 'report.json');
    fs.writeFileSync(report, JSON.stringify({ success: true, numPassedTests: 3 }));
    markReport(report, [{ path: 'hb-x1y2z3', prefix: prefixOf('hb-x1y2z3') }]);
    expect(JSON.parse(fs.readFileSync(report, 'utf8'))).toEqual({
      success: false,
      numPassedTests: 3,
      leftoverTempDirs: [{ path: 'hb-x1y2z3', prefix: 'hb-' }],
    });
  });

  it('fails the CI summary, which lists them, though every test passed', () => {
    const report = path.join(tempDir('hermes-report-'), 'report.json');
    fs.writeFileSync(report, JSON.stringify({ success: true, numPassedTests: 3, numFailedTests: 0 }));
    markReport(report, [{ path: 'hermes-e2e-home-Ab12Cd', prefix: 'hermes-e2e-home-' }]);
    const summary = spawnSync(process.execPath, [path.join(import.meta.dirname, 'summary.mjs'), report], { encoding: 'utf8' });
    expect(summary.stdout).toBe('3 passed, 0 failed, 0 skipped\n');
    expect(summary.stderr).toBe('test summary: tests left 1 temp dirs behind:\n  hermes-e2e-home-Ab12Cd  (prefix hermes-e2e-home-)\n');
    expect(summary.status).toBe(1);
  });
});
