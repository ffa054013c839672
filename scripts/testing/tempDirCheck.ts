/**
 * Vitest global setup that enforces "tests remove the temp dirs they create". The run gets its own
 * TMPDIR (a fresh dir under the real one, inherited by the test workers and every child they spawn), so
 * other processes on the machine cannot disturb the check. At teardown anything left in it fails the run:
 * the leftovers are listed on stderr, grouped by the prefix that made them, the exit code is set, and
 * vitest's JSON report (when one is written) is marked failed and lists them for scripts/testing/summary.mjs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { removeDir } from './removeDir.ts';

/** The run's own TMPDIR: `<real tmpdir>/ht-XXXXXX`. */
export const RUN_PREFIX = 'ht-';

export interface Leftover {
  /** Path relative to the run's TMPDIR. */
  path: string;
  /** The name with mkdtemp's random tail (or a pid/timestamp) cut off: what to grep the tests for. */
  prefix: string;
}

/**
 * Entries that are a tool's own cache, shared by every process of the user rather than made by a test:
 * tsx (the children run with `--import tsx`) keeps its compile cache in `<tmpdir>/tsx-<uid>`. They go
 * with the run's TMPDIR at the end.
 */
const TOOL_CACHES = [/^tsx-\d+$/];

/** The prefix a temp entry was made with: mkdtemp's six random characters, or numbers, made generic. */
export function prefixOf(name: string): string {
  const mkdtemp = /^(.*[-_.])[A-Za-z0-9]{6}$/.exec(name);
  if (mkdtemp) return mkdtemp[1];
  return name.replace(/\d+/g, '<n>');
}

/** Every entry left in `runDir` but tool caches, sorted. */
export function findLeftovers(runDir: string): Leftover[] {
  return fs
    .readdirSync(runDir)
    .filter((name) => !TOOL_CACHES.some((cache) => cache.test(name)))
    .sort()
    .map((name) => ({ path: name, prefix: prefixOf(name) }));
}

/** The source files (tests and their helpers under `root`) that spell out `prefix`: where to look. */
export function sourcesMentioning(prefix: string, root: string): string[] {
  const literal = prefix.split('<n>')[0];
  if (literal.length < 3) return [];
  const folders = ['scripts', ...fs.readdirSync(path.join(root, 'packages')).map((name) => path.join('packages', name, 'src'))];
  return folders.flatMap((folder) =>
    fs
      .readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.(ts|tsx|mjs)$/.test(file) && !file.split(path.sep).includes('node_modules'))
      .map((file) => path.join(folder, file))
      .filter((file) => fs.readFileSync(path.join(root, file), 'utf8').includes(literal)),
  );
}

/** The message that fails the run: each prefix with how many it left, which, and the sources naming it. */
export function describeLeftovers(leftovers: Leftover[], runDir: string, root?: string): string {
  const byPrefix = new Map<string, string[]>();
  for (const { path: name, prefix } of leftovers) byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), name]);
  const lines = [...byPrefix].map(([prefix, names]) => {
    const sources = root ? sourcesMentioning(prefix, root) : [];
    const where = sources.length > 0 ? `\n      named in: ${sources.slice(0, 6).join(', ')}${sources.length > 6 ? ', …' : ''}` : '';
    return `  ${prefix}  (${names.length}): ${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''}${where}`;
  });
  return [
    `Tests left ${leftovers.length} temp ${leftovers.length === 1 ? 'entry' : 'entries'} behind in ${runDir}, by prefix:`,
    ...lines,
    'Make temp dirs with tempDir() from scripts/testing/tempDirs.ts (it removes them) and stop children that write into them.',
  ].join('\n');
}

/** Marks vitest's JSON report failed and lists the leftovers in it, so the CI summary shows them. */
export function markReport(reportFile: string, leftovers: Leftover[]): void {
  if (!fs.existsSync(reportFile)) return;
  const report = JSON.parse(fs.readFileSync(reportFile, 'utf8')) as Record<string, unknown>;
  report.success = false;
  report.leftoverTempDirs = leftovers;
  fs.writeFileSync(reportFile, JSON.stringify(report));
}

function jsonReportFile(project: TestProject): string | undefined {
  const { outputFile, root } = project.config;
  const file = typeof outputFile === 'string' ? outputFile : outputFile?.json;
  return file ? path.resolve(root, file) : undefined;
}

export default function setup(project: TestProject): () => void {
  const saved = process.env.TMPDIR;
  const realTmp = os.tmpdir();
  // Short (`ht-` for hermes tests): tests at 60 columns expect a temp path to fit on one line.
  const runDir = fs.realpathSync(fs.mkdtempSync(path.join(realTmp, RUN_PREFIX)));
  // Like /tmp itself: tests that run hermes as another user need to make dirs here too.
  fs.chmodSync(runDir, 0o1777);
  process.env.TMPDIR = runDir;
  return () => {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
    const leftovers = findLeftovers(runDir);
    if (leftovers.length > 0) {
      process.stderr.write(`\n${describeLeftovers(leftovers, runDir, project.config.root)}\n\n`);
      process.exitCode = 1;
      const report = jsonReportFile(project);
      if (report) markReport(report, leftovers);
    }
    try {
      removeDir(runDir);
    } catch (error) {
      process.stderr.write(`Cannot remove the run's TMPDIR ${runDir}: ${(error as Error).message}\n`);
      process.exitCode = 1;
    }
  };
}
