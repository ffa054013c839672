/**
 * `npm run bench [-- --quick] [-- --runs N] [-- --only a,b]`: every benchmark figure beside its floor
 * measured in the same run, as one markdown table. Each module is scripts/bench/<name>.ts exporting
 * `bench: Bench` (lib/figures.ts). The product is measured as built (`npm run build` runs first).
 */
import { benchOptions, figureTable, meets, type Bench, type Figure } from './lib/figures.ts';

/** In the order the table shows them. */
const BENCHES = ['startup', 'resume', 'stream', 'keys', 'search', 'wire', 'plugins', 'mcp'] as const;

const argv = process.argv.slice(2);
const options = benchOptions(argv);
const onlyAt = argv.indexOf('--only');
const only = onlyAt >= 0 ? new Set(argv[onlyAt + 1]?.split(',')) : undefined;
for (const name of only ?? []) if (!(BENCHES as readonly string[]).includes(name)) throw new Error(`--only: no benchmark "${name}"; there are ${BENCHES.join(', ')}`);

const started = performance.now();
const figures: Figure[] = [];
for (const name of BENCHES) {
  if (only && !only.has(name)) continue;
  const t0 = performance.now();
  const { bench } = (await import(`./${name}.ts`)) as { bench: Bench };
  const got = await bench(options);
  figures.push(...got);
  process.stderr.write(`${name}: ${got.length} figures in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
}
process.stdout.write(`${options.quick ? 'quick run' : 'full run'}, ${options.runs} runs per figure, ${((performance.now() - started) / 1000).toFixed(0)} s\n\n${figureTable(figures)}\n`);
process.exitCode = figures.some((f) => meets(f) === false) ? 1 : 0;
