/**
 * First-frame time of `hermes --tui`: from spawn in a real pseudo-terminal to the first output, and
 * to the moment the header text is on the emulated screen; beside `node -e 0` (spawn to exit) measured
 * the same way. Median of N runs (default 5).
 *
 *   npm run build && node --import tsx scripts/bench/firstFrame.ts [--runs 5] [--until hermes]
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pty from 'node-pty';
import xterm from '@xterm/headless';
import { tempDir } from '../testing/tempDirs.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, until: { type: 'string', default: 'hermes' } },
});
const runs = Number(values.runs);
const marker = values.until!;

interface Sample {
  firstOutputMs: number;
  markerMs: number;
}

function env(home: string): Record<string, string> {
  const e: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'CI') e[k] = v;
  e.HERMES_HOME = home;
  e.TERM = 'xterm-256color';
  return e;
}

function screen(term: xterm.Terminal): string {
  const lines: string[] = [];
  for (let i = 0; i < term.buffer.active.length; i += 1) lines.push(term.buffer.active.getLine(i)?.translateToString(true) ?? '');
  return lines.join('\n');
}

function measureHermes(): Promise<Sample> {
  // Removed when the benchmark exits.
  const home = tempDir('hermes-bench-');
  const term = new xterm.Terminal({ cols: 100, rows: 30, allowProposedApi: true });
  const started = performance.now();
  const child = pty.spawn(process.execPath, [path.join(root, 'packages/tui/bin/hermes.js'), '--tui'], {
    cols: 100,
    rows: 30,
    cwd: root,
    env: env(home),
  });
  return new Promise((resolve, reject) => {
    let firstOutputMs = -1;
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`"${marker}" did not appear within 20 s; screen:\n${screen(term)}`));
    }, 20_000);
    child.onData((data) => {
      if (firstOutputMs < 0) firstOutputMs = performance.now() - started;
      term.write(data, () => {
        if (screen(term).includes(marker)) {
          const markerMs = performance.now() - started;
          clearTimeout(timer);
          child.kill();
          resolve({ firstOutputMs, markerMs });
        }
      });
    });
  });
}

function measureNodeNoop(): Promise<number> {
  const started = performance.now();
  const child = pty.spawn(process.execPath, ['-e', '0'], { cols: 100, rows: 30, env: env(os.tmpdir()) });
  return new Promise((resolve) => child.onExit(() => resolve(performance.now() - started)));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const hermes: Sample[] = [];
const noop: number[] = [];
for (let i = 0; i < runs; i += 1) {
  noop.push(await measureNodeNoop());
  hermes.push(await measureHermes());
  await new Promise((r) => setTimeout(r, 200));
}
const fmt = (n: number) => `${n.toFixed(0)} ms`;
process.stdout.write(
  [
    `runs: ${runs} (median)`,
    `node -e 0 (spawn to exit):            ${fmt(median(noop))}   [${noop.map(fmt).join(', ')}]`,
    `hermes --tui first output:            ${fmt(median(hermes.map((s) => s.firstOutputMs)))}`,
    `hermes --tui "${marker}" on screen:   ${fmt(median(hermes.map((s) => s.markerMs)))}   [${hermes.map((s) => fmt(s.markerMs)).join(', ')}]`,
  ].join('\n') + '\n',
);
