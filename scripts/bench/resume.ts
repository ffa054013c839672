/**
 * Resuming a long stored session in the TUI: `hermes --tui --resume <id>` in a real pty, from spawn to
 * the usable prompt (the composer's placeholder on screen with the session's last message), and the TUI
 * process's RSS at that moment (the pty child is the TUI; the backend is its child). Floor: the same
 * hermes opening a new empty session, in the same run, interleaved. Sessions of 10,000 and 5,000
 * messages (lib/sessionHome.ts, built once and cached).
 *
 *   npm run build && node --import tsx scripts/bench/resume.ts [--quick] [--runs N]
 */
import { type Bench, type Figure, HERMES_BIN, isEntry, PRODUCT_ROOT, runAlone } from './lib/figures.ts';
import { ptyEnv, spawnInPty } from './lib/ptyScreen.ts';
import { interleaved, median, rssMb } from './lib/samples.ts';
import { messageMark, sessionHome } from './lib/sessionHome.ts';
import { tempDir } from '../testing/tempDirs.ts';

const PLACEHOLDER = 'Ask hermes anything';
const TIMEOUT_MS = 60_000;
/** A configured model (never called: nothing is asked), so the screen shows the transcript, not the setup panel. */
const MODEL_FLAGS = ['--provider', 'custom', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'bench-model'];

interface Sample {
  ms: number;
  rss: number;
}

/** Spawns hermes in a pty and waits until the prompt is usable and `mark` (if any) is on screen. */
async function usable(home: string, args: string[], mark?: string): Promise<Sample> {
  const screen = spawnInPty(process.execPath, [HERMES_BIN, '--tui', ...MODEL_FLAGS, ...args], { cols: 100, rows: 30, cwd: PRODUCT_ROOT, env: ptyEnv({ HERMES_HOME: home }) });
  try {
    const ms = await screen.waitFor((text) => text.includes(PLACEHOLDER) && (mark === undefined || text.includes(mark)), TIMEOUT_MS, `the prompt${mark ? ` with ${mark}` : ''}`);
    return { ms, rss: rssMb(screen.pid) };
  } finally {
    await screen.kill();
  }
}

export const bench: Bench = async ({ quick, runs }) => {
  const sizes = quick ? [10_000] : [10_000, 5_000];
  const homes = await Promise.all(sizes.map((n) => sessionHome(n)));
  // Removed when the benchmark exits.
  const emptyHome = tempDir('hermes-bench-resume-');
  // interleaved() samples one number per measure; each sample's RSS is kept beside it here.
  const rss: Record<string, number[]> = {};
  const measure = (key: string, run: () => Promise<Sample>) => async () => {
    const sample = await run();
    (rss[key] ??= []).push(sample.rss);
    return sample.ms;
  };
  const measures: Record<string, () => Promise<number>> = { floor: measure('floor', () => usable(emptyHome, [])) };
  sizes.forEach((n, i) => {
    // The last line of the last message (a reply) ends with its position.
    measures[`resume${n}`] = measure(`resume${n}`, () => usable(homes[i]!.home, ['--resume', homes[i]!.sessionId], `(${messageMark(n)})`));
  });
  const ms = await interleaved(runs, measures);
  const floorMs = median(ms.floor!);
  const floorRss = median(rss.floor!);
  const figures: Figure[] = [];
  for (const n of sizes) {
    const got = { ms: ms[`resume${n}`]!, rss: rss[`resume${n}`]! };
    const label = n.toLocaleString('en-US');
    figures.push(
      { name: `resume ${label} messages → usable prompt`, unit: 'ms', ours: median(got.ms), floor: { label: 'new empty session', value: floorMs }, target: { max: 500 }, runs },
      { name: `resume ${label} messages: TUI RSS`, unit: 'MB', ours: median(got.rss), floor: { label: 'new empty session', value: floorRss }, target: { max: 150 }, runs },
    );
  }
  return figures;
};

if (isEntry(import.meta.url)) await runAlone(bench);
