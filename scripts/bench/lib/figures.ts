/**
 * What every benchmark reports, so `npm run bench` (scripts/bench/run.ts) can print one table: each
 * figure is ours beside a floor measured in the same run, and the target it is held to. Every figure is
 * lower-is-better (a time, bytes, megabytes), so a ratio above its target is a miss.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The hermes being measured: this repository, or another built checkout named by HERMES_BENCH_ROOT (how a
 * "before" table is made: `HERMES_BENCH_ROOT=/path/to/old/checkout npm run bench`). Benchmarks reach the
 * product only through it, and through public surfaces (its bins, the wire, a pty).
 */
export const PRODUCT_ROOT = path.resolve(process.env.HERMES_BENCH_ROOT ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..'));
export const HERMES_BIN = path.join(PRODUCT_ROOT, 'packages/tui/bin/hermes.cjs');
export const HERMES_RPC_BIN = path.join(PRODUCT_ROOT, 'packages/rpc-server/bin/hermes-rpc.cjs');

/** Where benchmarks keep what is slow to build and reused across runs (corpus databases, session homes, the Ink floor). */
export const BENCH_CACHE = path.join(os.tmpdir(), 'hermes-bench-cache');

export type Unit = 'ms' | 'µs' | 'MB' | 'B';

export interface Figure {
  /** What was measured, for the table: "resume 10,000 messages → usable prompt". */
  name: string;
  unit: Unit;
  /** Our figure: a median (or the percentile the name says) of the samples. */
  ours: number;
  /** What the floor is ("node -e 0", "raw NDJSON echo", "bare FTS5 query") and its figure from the same run. */
  floor?: { label: string; value: number };
  /** `ratio`: ours ≤ ratio × floor; `max`: ours ≤ max (in `unit`). */
  target: { ratio?: number; max?: number };
  /** How many samples the figure is a median or percentile of. */
  runs: number;
  note?: string;
}

export interface BenchOptions {
  /** A short run (the whole `npm run bench --quick` under 2 minutes): fewer runs, smaller sizes where it says so. */
  quick: boolean;
  /** Samples per figure (≥ 7 for a full run). */
  runs: number;
}

/** One benchmark module: `export const bench: Bench` in scripts/bench/<name>.ts. */
export type Bench = (options: BenchOptions) => Promise<Figure[]>;

export const ratioOf = (figure: Figure): number | undefined => (figure.floor && figure.floor.value > 0 ? figure.ours / figure.floor.value : undefined);

/** Whether the figure meets its target; undefined when it has none it can be checked against. */
export function meets(figure: Figure): boolean | undefined {
  const ratio = ratioOf(figure);
  const checks: boolean[] = [];
  if (figure.target.ratio !== undefined && ratio !== undefined) checks.push(ratio <= figure.target.ratio);
  if (figure.target.max !== undefined) checks.push(figure.ours <= figure.target.max);
  return checks.length === 0 ? undefined : checks.every(Boolean);
}

const number = (value: number, unit: Unit) => `${value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2)} ${unit}`;

/** The table `npm run bench` prints (markdown, so a note can paste it). */
export function figureTable(figures: Figure[]): string {
  const rows = figures.map((f) => {
    const ratio = ratioOf(f);
    const target = [f.target.ratio !== undefined ? `≤ ${f.target.ratio}×` : '', f.target.max !== undefined ? `≤ ${number(f.target.max, f.unit)}` : ''].filter(Boolean).join(', ');
    const verdict = meets(f);
    return `| ${f.name} | ${number(f.ours, f.unit)} | ${f.floor ? `${number(f.floor.value, f.unit)} (${f.floor.label})` : '—'} | ${ratio !== undefined ? `${ratio.toFixed(2)}×` : '—'} | ${target || '—'} | ${verdict === undefined ? '—' : verdict ? 'ok' : 'MISS'} | ${f.runs} |${f.note ? ` ${f.note}` : ''}`;
  });
  return ['| figure | ours | floor (same run) | ratio | target | | runs | note', '|---|---|---|---|---|---|---|---', ...rows].join('\n');
}

/**
 * Runs a bench module on its own when its file is the entry point: `node --import tsx scripts/bench/x.ts [--quick] [--runs N]`.
 * Call as `if (isEntry(import.meta.url)) await runAlone(bench)`.
 */
export function isEntry(moduleUrl: string): boolean {
  return process.argv[1] !== undefined && new URL(moduleUrl).pathname === process.argv[1];
}

export function benchOptions(argv: string[]): BenchOptions {
  const quick = argv.includes('--quick');
  const at = argv.indexOf('--runs');
  const runs = at >= 0 ? Number(argv[at + 1]) : quick ? 3 : 7;
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs wants a whole number ≥ 1, got ${argv[at + 1]}`);
  return { quick, runs };
}

export async function runAlone(bench: Bench): Promise<void> {
  const figures = await bench(benchOptions(process.argv.slice(2)));
  process.stdout.write(`${figureTable(figures)}\n`);
}
