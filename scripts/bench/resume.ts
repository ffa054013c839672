/**
 * Resuming a long stored session in the TUI: `hermes --tui --resume <id>` in a real pty, from spawn to
 * the usable prompt (the composer's placeholder on screen with the session's last message), and the TUI
 * process's RSS at that moment (the pty child is the TUI; the backend is its child). Floor: the same
 * hermes opening a new empty session, in the same run, interleaved. Sessions of 10,000 and 5,000
 * messages (lib/sessionHome.ts, built once and cached). Beside the wall times, the CPU time TUI and
 * backend spent until then (what the wall time follows on a busy machine). And `/transcript` in the
 * 10,000-message session: from Enter to the pager's first screen on the terminal ($PAGER shows the
 * first 4 kB, then a mark), floor the same in a 10-message session. And the backend alone over its
 * wire: CPU per `session.resume {tail: 500}` (then `session.close`) of 10,000 messages beside a session
 * of 500 (the same messages sent: what is left is what the length of the session costs).
 *
 *   npm run build && node --import tsx scripts/bench/resume.ts [--quick] [--runs N]
 */
import { type Bench, type Figure, HERMES_BIN, isEntry, PRODUCT_ROOT, runAlone } from './lib/figures.ts';
import { type PtyScreen, ptyEnv, spawnInPty } from './lib/ptyScreen.ts';
import { startBackend } from './lib/rpcClient.ts';
import { cpuMs, cpuMsWithChildren, interleaved, median, rssMb } from './lib/samples.ts';
import { messageMark, sessionHome } from './lib/sessionHome.ts';
import { tempDir } from '../testing/tempDirs.ts';

const PLACEHOLDER = 'Ask hermes anything';
const TIMEOUT_MS = 60_000;
/** A configured model (never called: nothing is asked), so the screen shows the transcript, not the setup panel. */
const MODEL_FLAGS = ['--provider', 'custom', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'bench-model'];

interface Sample {
  ms: number;
  rss: number;
  cpu: number;
}

/** Printed by $PAGER after the first screen of the transcript. */
const PAGER_MARK = 'PAGER-FIRST-SCREEN';
const PAGER = `head -c 4000; echo; echo ${PAGER_MARK}`;

/** Spawns hermes in a pty and waits until the prompt is usable and `mark` (if any) is on screen. */
async function usable(home: string, args: string[], mark?: string, then?: (screen: PtyScreen) => Promise<number>): Promise<Sample> {
  const screen = spawnInPty(process.execPath, [HERMES_BIN, '--tui', ...MODEL_FLAGS, ...args], { cols: 100, rows: 30, cwd: PRODUCT_ROOT, env: ptyEnv({ HERMES_HOME: home, PAGER }) });
  try {
    const ms = await screen.waitFor((text) => text.includes(PLACEHOLDER) && (mark === undefined || text.includes(mark)), TIMEOUT_MS, `the prompt${mark ? ` with ${mark}` : ''}`);
    const sample = { ms, rss: rssMb(screen.pid), cpu: cpuMsWithChildren(screen.pid) };
    return then ? { ...sample, ms: await then(screen) } : sample;
  } finally {
    await screen.kill();
  }
}

/** The backend's CPU per resume (with the TUI's tail) and close of the session in `home`, over `count` rounds. */
async function backendResumeCpu(home: string, sessionId: string, count: number): Promise<number> {
  const backend = await startBackend({ HERMES_HOME: home });
  try {
    const round = async () => {
      const opened = (await backend.request('session.resume', { session_id: sessionId, tail: 500 })) as { session_id: string };
      await backend.request('session.close', { session_id: opened.session_id });
    };
    // Warm: the first round reads the pages into the OS cache and compiles the handlers.
    await round();
    const before = cpuMs(backend.pid);
    for (let i = 0; i < count; i += 1) await round();
    return (cpuMs(backend.pid) - before) / count;
  } finally {
    await backend.stop();
  }
}

/** From Enter on `/transcript` to the pager's first screen on the terminal. */
async function pagerOpens(screen: PtyScreen): Promise<number> {
  screen.write('/transcript');
  await screen.waitFor((text) => text.includes('/transcript'), TIMEOUT_MS, 'the typed /transcript');
  const start = screen.elapsed();
  screen.write('\r');
  return (await screen.waitFor((text) => text.includes(PAGER_MARK), TIMEOUT_MS, 'the pager\'s first screen')) - start;
}

export const bench: Bench = async ({ quick, runs }) => {
  const sizes = quick ? [10_000] : [10_000, 5_000];
  const homes = await Promise.all(sizes.map((n) => sessionHome(n)));
  const small = await sessionHome(10);
  const tailOnly = await sessionHome(500);
  // Removed when the benchmark exits.
  const emptyHome = tempDir('hermes-bench-resume-');
  // interleaved() samples one number per measure; each sample's RSS is kept beside it here.
  const rss: Record<string, number[]> = {};
  const cpu: Record<string, number[]> = {};
  const measure = (key: string, run: () => Promise<Sample>) => async () => {
    const sample = await run();
    (rss[key] ??= []).push(sample.rss);
    (cpu[key] ??= []).push(sample.cpu);
    return sample.ms;
  };
  const measures: Record<string, () => Promise<number>> = { floor: measure('floor', () => usable(emptyHome, [])) };
  sizes.forEach((n, i) => {
    // The last line of the last message (a reply) ends with its position.
    measures[`resume${n}`] = measure(`resume${n}`, () => usable(homes[i]!.home, ['--resume', homes[i]!.sessionId], `(${messageMark(n)})`));
  });
  measures.pagerFloor = measure('pagerFloor', () => usable(small.home, ['--resume', small.sessionId], `(${messageMark(10)})`, pagerOpens));
  measures.pager = measure('pager', () => usable(homes[0]!.home, ['--resume', homes[0]!.sessionId], `(${messageMark(sizes[0]!)})`, pagerOpens));
  const ms = await interleaved(runs, measures);
  const rounds = quick ? 10 : 40;
  const backendCpu = { ours: await backendResumeCpu(homes[0]!.home, homes[0]!.sessionId, rounds), floor: await backendResumeCpu(tailOnly.home, tailOnly.sessionId, rounds) };
  const floorMs = median(ms.floor!);
  const floorRss = median(rss.floor!);
  const figures: Figure[] = [];
  for (const n of sizes) {
    const got = { ms: ms[`resume${n}`]!, rss: rss[`resume${n}`]! };
    const label = n.toLocaleString('en-US');
    figures.push(
      { name: `resume ${label} messages → usable prompt`, unit: 'ms', ours: median(got.ms), floor: { label: 'new empty session', value: floorMs }, target: { max: 500 }, runs },
      { name: `resume ${label} messages: TUI RSS`, unit: 'MB', ours: median(got.rss), floor: { label: 'new empty session', value: floorRss }, target: { max: 150 }, runs },
      {
        name: `resume ${label} messages: CPU until usable (TUI + backend)`,
        unit: 'ms',
        ours: median(cpu[`resume${n}`]!),
        floor: { label: 'new empty session', value: median(cpu.floor!) },
        // ≤ 500 ms beside an empty start's ~400 ms on an idle machine: the same share of extra work.
        target: { ratio: 1.25 },
        runs,
        note: 'load-independent',
      },
    );
  }
  figures.push({
    name: `session.resume {tail: 500} of ${sizes[0]!.toLocaleString('en-US')} messages: backend CPU per resume + close`,
    unit: 'ms',
    ours: backendCpu.ours,
    floor: { label: 'the same of 500 messages', value: backendCpu.floor },
    target: { ratio: 1.5 },
    runs: rounds,
    note: 'load-independent',
  });
  figures.push({
    name: `/transcript in ${sizes[0]!.toLocaleString('en-US')} messages → pager's first screen`,
    unit: 'ms',
    ours: median(ms.pager!),
    floor: { label: '/transcript of 10 messages', value: median(ms.pagerFloor!) },
    target: { ratio: 2 },
    runs,
  });
  return figures;
};

if (isEntry(import.meta.url)) await runAlone(bench);
