#!/usr/bin/env node
// Prints the plain closing line CI reads ("N passed, N failed, N skipped") from vitest's JSON report,
// and fails when the report is missing or no test ran, so an empty run cannot pass as green, or when
// scripts/testing/tempDirCheck.ts recorded temp dirs the tests left behind.
import { readFileSync } from 'node:fs';

const file = process.argv[2] ?? '.vitest-report.json';
let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch (error) {
  process.stderr.write(`test summary: cannot read ${file}: ${error.message}\n`);
  process.exit(1);
}
const passed = report.numPassedTests ?? 0;
const failed = (report.numFailedTests ?? 0) + (report.numRuntimeErrorTestSuites ?? 0);
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
process.stdout.write(`${passed} passed, ${failed} failed, ${skipped} skipped\n`);
const leftovers = report.leftoverTempDirs ?? [];
if (leftovers.length > 0) {
  const listed = leftovers.map((l) => `  ${l.path}  (prefix ${l.prefix})`).join('\n');
  process.stderr.write(`test summary: tests left ${leftovers.length} temp dirs behind:\n${listed}\n`);
}
if (passed === 0) {
  process.stderr.write('test summary: no test passed; treating the run as failed\n');
  process.exit(1);
}
process.exit(failed > 0 || report.success === false ? 1 : 0);
