import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeLeftovers, findLeftovers, markReport, prefixOf } from './tempDirCheck.ts';
import { tempDir } from './tempDirs.ts';

const root = path.resolve(import.meta.dirname, '..', '..');

it('fails a vitest run whose test leaves a temp dir behind, and names the prefix and the file', () => {
  const report = path.join(tempDir('hermes-nested-report-'), 'report.json');
  const run = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', 'scripts/testing/leakingRun/vitest.config.ts', '--reporter=json', `--outputFile.json=${report}`],
    { cwd: root, encoding: 'utf8', env: { ...process.env, CI: '1' } },
  );
  expect(run.stderr).toMatch(/Tests left 1 temp entry behind in \S+\/ht-\w{6}, by prefix:\n {2}hermes-leaky-fixture- {2}\(1\): hermes-leaky-fixture-\w{6}\n {6}named in: [^\n]*scripts\/testing\/leakingRun\/leaky\.fixture\.ts\n/);
  expect(run.status).toBe(1);
  const written = JSON.parse(fs.readFileSync(report, 'utf8'));
  expect(written).toMatchObject({ numPassedTests: 2, numFailedTests: 0, success: false });
  expect(written.leftoverTempDirs).toEqual([{ path: expect.stringMatching(/^hermes-leaky-fixture-\w{6}$/), prefix: 'hermes-leaky-fixture-' }]);
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
