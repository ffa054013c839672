/**
 * Approval gate cost, three ways:
 *  (1) cold start in a fresh process: the judge bundled as the backend bundles it (one esbuild file),
 *      imported by a new `node`; median over N children of the import, of the first judgeCommand (it
 *      loads the bash grammar) and of a second one;
 *  (2) per verdict over both corpora (shared/security/gate-corpus.json, its `kind: write` rows through
 *      judgeWrite, and hermes's own corpora): p50 / p95 / max over several passes after a warm-up;
 *  (3) the built backend: spawn → `gateway.ready`, then the first `approvals.check` (grammar load) and
 *      a second one, median of N, for the full backend and for `--judge-only`; and one probed run that
 *      counts .wasm reads, to show that the grammar is not read before `gateway.ready`.
 *
 *   npm run build && node --import tsx scripts/bench/approvals.ts [--runs 7] [--passes 5] [--json]
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { CAUGHT, SAFE } from '../../packages/agent-core/src/approvals/corpus.ts';
import { EVERYDAY } from '../../packages/agent-core/src/approvals/everydayCorpus.ts';
import { TECHNIQUES } from '../../packages/agent-core/src/approvals/techniqueCorpus.ts';
import { judgeCommand, judgeWrite } from '../../packages/agent-core/src/approvals/judge.ts';
import { BackendProcess, BACKEND_BIN } from '../../packages/rpc-server/src/testing/backendProcess.ts';
import { median, quantile } from './lib/samples.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values } = parseArgs({
  options: { runs: { type: 'string', default: '7' }, passes: { type: 'string', default: '5' }, json: { type: 'boolean', default: false } },
});
const RUNS = Number(values.runs);
const PASSES = Number(values.passes);
/** The corpora's own context. */
const CTX = { home: '/home/alice', hermesHome: '/home/alice/.hermes', cwd: '/home/alice/project' };

const log = (line = '') => void (values.json || process.stdout.write(line + '\n'));
const ms = (n: number, digits = 1) => `${n.toFixed(digits)} ms`;

function printTable(rows: string[][]): void {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  for (const row of rows) log('  ' + row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '));
}

// ── (1) cold start in a fresh process ──

/**
 * The child imports the bundle and judges twice. The bundle sits under node_modules/.cache so that its
 * `require.resolve` of the .wasm files finds the repository's node_modules, as the backend's does.
 */
const COLD_CHILD = `
const t0 = performance.now();
const judge = await import(process.argv[1]);
const t1 = performance.now();
const ctx = JSON.parse(process.argv[2]);
const first = await judge.judgeCommand('rm -rf ~', ctx);
const t2 = performance.now();
await judge.judgeCommand('rm -rf build', ctx);
const t3 = performance.now();
if (first.level !== 'hardline') throw new Error('unexpected verdict: ' + JSON.stringify(first));
process.stdout.write(JSON.stringify({ importMs: t1 - t0, firstMs: t2 - t1, secondMs: t3 - t2 }));
`;

interface ColdSample {
  importMs: number;
  firstMs: number;
  secondMs: number;
  processMs: number;
}

async function benchCold(): Promise<Record<keyof ColdSample, number>> {
  const outfile = path.join(root, 'node_modules', '.cache', 'hermes-bench', 'judge.mjs');
  await build({
    entryPoints: [path.join(root, 'packages/agent-core/src/approvals/judge.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    conditions: ['source'],
    // As scripts/build.mjs: CommonJS dependencies inside an ESM bundle call require().
    banner: { js: "import { createRequire as __benchRequire } from 'node:module'; const require = __benchRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  const samples: ColdSample[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', COLD_CHILD, pathToFileURL(outfile).href, JSON.stringify(CTX)], { encoding: 'utf8' });
    samples.push({ ...(JSON.parse(out) as Omit<ColdSample, 'processMs'>), processMs: performance.now() - started });
  }
  const result = {
    importMs: median(samples.map((s) => s.importMs)),
    firstMs: median(samples.map((s) => s.firstMs)),
    secondMs: median(samples.map((s) => s.secondMs)),
    processMs: median(samples.map((s) => s.processMs)),
  };
  log(`(1) fresh process, judge bundled (${(fs.statSync(outfile).size / 1024).toFixed(0)} KiB), median of ${RUNS}:`);
  printTable([
    ['step', 'median', 'runs'],
    ['import the judge module', ms(result.importMs), samples.map((s) => s.importMs.toFixed(1)).join(', ')],
    ['first judgeCommand (loads the grammar)', ms(result.firstMs), samples.map((s) => s.firstMs.toFixed(1)).join(', ')],
    ['second judgeCommand', ms(result.secondMs, 2), samples.map((s) => s.secondMs.toFixed(2)).join(', ')],
    ['whole child (spawn to exit; V8 compiles the WASM on)', ms(result.processMs), samples.map((s) => s.processMs.toFixed(0)).join(', ')],
  ]);
  return result;
}

// ── (2) per verdict over the corpora ──

interface Row {
  cmd: string;
  kind?: 'write';
}

interface Case {
  group: string;
  text: string;
  write: boolean;
}

function corpusCases(): Case[] {
  const file = path.join(root, '..', 'shared', 'security', 'gate-corpus.json');
  const shared = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<'catch' | 'pass' | 'debatable', Row[]>;
  const sharedCases = (['catch', 'pass', 'debatable'] as const).flatMap((part) =>
    shared[part].map((r): Case => ({ group: r.kind === 'write' ? 'shared write rows' : `shared ${part}`, text: r.cmd, write: r.kind === 'write' })),
  );
  return [
    ...sharedCases,
    ...CAUGHT.map((c): Case => ({ group: 'hermes CAUGHT', text: c.command, write: false })),
    ...SAFE.map((text): Case => ({ group: 'hermes SAFE', text, write: false })),
    ...TECHNIQUES.map((c): Case => ({ group: 'hermes techniques', text: c.command, write: false })),
    ...EVERYDAY.map((text): Case => ({ group: 'hermes everyday', text, write: false })),
  ];
}

interface Stats {
  group: string;
  cases: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

function stats(group: string, cases: number, samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  return { group, cases, p50Ms: quantile(sorted, 0.5), p95Ms: quantile(sorted, 0.95), maxMs: sorted.at(-1)! };
}

async function benchCorpus(): Promise<{ groups: Stats[]; slowest: { text: string; ms: number }[] }> {
  const cases = corpusCases();
  const judge = (c: Case) => (c.write ? Promise.resolve(judgeWrite(c.text, CTX)) : judgeCommand(c.text, CTX));
  for (const c of cases) await judge(c); // warm-up: grammar load and JIT
  const samples = cases.map(() => [] as number[]);
  for (let pass = 0; pass < PASSES; pass += 1) {
    for (const [i, c] of cases.entries()) {
      const t0 = performance.now();
      await judge(c);
      samples[i]!.push(performance.now() - t0);
    }
  }
  const groups = [...new Set(cases.map((c) => c.group))].map((group) => {
    const picked = cases.flatMap((c, i) => (c.group === group ? [samples[i]!] : []));
    return stats(group, picked.length, picked.flat());
  });
  groups.push(stats('all', cases.length, samples.flat()));
  const slowest = cases
    .map((c, i) => ({ text: c.text, ms: median(samples[i]!) }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 3);
  log(`(2) per verdict, ${PASSES} passes after a warm-up pass (ms):`);
  printTable([['corpus', 'cases', 'p50', 'p95', 'max'], ...groups.map((g) => [g.group, String(g.cases), g.p50Ms.toFixed(3), g.p95Ms.toFixed(3), g.maxMs.toFixed(3)])]);
  log(`  slowest (median): ${slowest.map((s) => `${JSON.stringify(s.text.length > 60 ? s.text.slice(0, 57) + '...' : s.text)} ${s.ms.toFixed(2)} ms`).join('; ')}`);
  return { groups, slowest };
}

// ── (3) the built backend ──

/** Preloaded into one backend: notes every .wasm file read on stderr (web-tree-sitter reads its files with fs). */
const WASM_PROBE = `
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
const note = (file) => { if (String(file).endsWith('.wasm')) process.stderr.write('[bench] wasm read ' + String(file) + '\\n'); };
const { readFileSync } = fs;
fs.readFileSync = function (file, ...rest) { note(file); return readFileSync.call(this, file, ...rest); };
const { readFile } = fs.promises;
fs.promises.readFile = function (file, ...rest) { note(file); return readFile.call(this, file, ...rest); };
syncBuiltinESMExports();
`;

interface BackendSample {
  readyMs: number;
  firstCheckMs: number;
  secondCheckMs: number;
  /** stdin closed → exit, after the checks: V8 keeps compiling the grammar's WASM in the background. */
  exitMs: number;
  wasmAtReady: number;
  wasmAfterCheck: number;
}

const wasmReads = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('[bench] wasm read')).length;

/** Spawn → gateway.ready, two approvals.check calls, stdin close → exit; `settleMs` lets stderr catch up before counting. */
async function backendRun(args: string[], nodeArgs: string[] = [], settleMs = 0): Promise<BackendSample> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-bench-approvals-'));
  const started = performance.now();
  const backend = new BackendProcess({ home, env: { HOME: home }, args, nodeArgs });
  try {
    await backend.waitForEvent((e) => e.type === 'gateway.ready');
    const readyMs = performance.now() - started;
    if (settleMs) await new Promise((r) => setTimeout(r, settleMs));
    const wasmAtReady = wasmReads(backend.stderr);
    const t1 = performance.now();
    const first = await backend.request('approvals.check', { command: 'rm -rf /nonexistent-dir-xyz', cwd: home });
    const firstCheckMs = performance.now() - t1;
    const t2 = performance.now();
    await backend.request('approvals.check', { command: 'rm -rf build', cwd: home });
    const secondCheckMs = performance.now() - t2;
    if (first.level === 'safe') throw new Error(`approvals.check judged rm -rf safe: ${JSON.stringify(first)}`);
    if (settleMs) await new Promise((r) => setTimeout(r, settleMs));
    const t3 = performance.now();
    await backend.stop();
    return { readyMs, firstCheckMs, secondCheckMs, exitMs: performance.now() - t3, wasmAtReady, wasmAfterCheck: wasmReads(backend.stderr) };
  } finally {
    if (backend.child.exitCode === null && backend.child.signalCode === null) await backend.stop();
    fs.rmSync(home, { recursive: true, force: true });
  }
}

async function benchBackend() {
  if (!fs.existsSync(path.join(root, 'packages/rpc-server/dist/main.cjs'))) throw new Error('the backend bundle is missing: run `npm run build` first');
  const variants = [
    { name: 'full backend', args: [] as string[] },
    { name: 'backend --judge-only', args: ['--judge-only'] },
  ];
  const results = [];
  for (const v of variants) {
    const samples: BackendSample[] = [];
    for (let i = 0; i < RUNS; i += 1) samples.push(await backendRun(v.args));
    results.push({
      variant: v.name,
      readyMs: median(samples.map((s) => s.readyMs)),
      firstCheckMs: median(samples.map((s) => s.firstCheckMs)),
      secondCheckMs: median(samples.map((s) => s.secondCheckMs)),
      exitMs: median(samples.map((s) => s.exitMs)),
      readyRuns: samples.map((s) => s.readyMs),
    });
  }
  const probeFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-bench-probe-')), 'wasmProbe.mjs');
  fs.writeFileSync(probeFile, WASM_PROBE);
  const probed = await backendRun([], ['--import', pathToFileURL(probeFile).href], 200);
  fs.rmSync(path.dirname(probeFile), { recursive: true, force: true });
  const probe = { wasmReadsBeforeReady: probed.wasmAtReady, wasmReadsAfterFirstCheck: probed.wasmAfterCheck };

  log(`(3) built backend (${path.relative(root, BACKEND_BIN)} → dist/main.cjs), median of ${RUNS}:`);
  printTable([
    ['backend', 'spawn → gateway.ready', 'first approvals.check', 'ready + first check', 'second check', 'close → exit', 'ready runs'],
    ...results.map((r) => [
      r.variant,
      ms(r.readyMs),
      ms(r.firstCheckMs),
      ms(r.readyMs + r.firstCheckMs),
      ms(r.secondCheckMs, 2),
      ms(r.exitMs, 0),
      r.readyRuns.map((x) => x.toFixed(0)).join(', '),
    ]),
  ]);
  log(`  grammar at startup: ${probe.wasmReadsBeforeReady} .wasm reads before gateway.ready, ${probe.wasmReadsAfterFirstCheck} after the first approvals.check`);
  return { variants: results, probe };
}

log(`node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}`);
const cold = await benchCold();
log();
const corpus = await benchCorpus();
log();
const backend = await benchBackend();
if (values.json) {
  process.stdout.write(JSON.stringify({ node: process.version, runs: RUNS, passes: PASSES, cold, corpus, backend }, null, 2) + '\n');
}
