/**
 * Startup: `hermes` in a real pseudo-terminal, from spawn to a usable prompt — the composer's
 * placeholder "Ask hermes anything" on screen, which hermes shows only once the backend is ready, with
 * a live model server configured in config.yaml — beside the floors measured in the same rounds: a
 * bundled Ink hello-world's first frame (lib/inkFloor.ts) and `node -e 0` (spawn to exit). Also the
 * backend alone: `hermes-rpc` over pipes to its gateway.ready. Interleaved, medians of runs.
 *
 *   npm run build && node --import tsx scripts/bench/startup.ts [--quick] [--runs N]
 */
import fs from 'node:fs';
import path from 'node:path';
import { startModelServer } from '../model-server/index.ts';
import { tempDir } from '../testing/tempDirs.ts';
import { gatewayReadyMs } from './lib/rpcClient.ts';
import { HERMES_BIN, isEntry, runAlone, type Bench } from './lib/figures.ts';
import { INK_FLOOR_PROMPT, inkFloorScript } from './lib/inkFloor.ts';
import { spawnInPty, ptyEnv } from './lib/ptyScreen.ts';
import { interleaved, median } from './lib/samples.ts';

/** The composer's placeholder once the backend is ready (packages/tui/src/components/App.tsx). */
export const USABLE_PROMPT = 'Ask hermes anything';

/** User + system CPU milliseconds of a live process and its live children (Linux /proc). */
function cpuMsOfTree(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const own = ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  const children = fs
    .readdirSync(`/proc/${pid}/task`)
    .flatMap((task) => fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(' ').filter(Boolean).map(Number));
  return own + children.reduce((sum, child) => sum + cpuMsOfTree(child), 0);
}

/** USER_HZ: Linux reports process times in hundredths of a second on every platform Node supports. */
const CLOCK_TICKS = 100;

export const bench: Bench = async ({ runs }) => {
  const server = await startModelServer({ turns: [{ text: 'unused' }] });
  try {
    const home = tempDir('hermes-bench-startup-');
    fs.writeFileSync(path.join(home, 'config.yaml'), `model:\n  provider: custom\n  base_url: ${server.baseUrl}\n  default: scripted-model\n`);
    const floorScript = await inkFloorScript();
    const cwd = tempDir('hermes-bench-startup-cwd-');

    /** CPU milliseconds spent by each start until its prompt was on screen (the program and its children). */
    const cpu: Record<'hermes' | 'ink', number[]> = { hermes: [], ink: [] };
    const untilOnScreen = async (file: string, args: string[], marker: string, env: Record<string, string>, cpuOf?: 'hermes' | 'ink') => {
      const program = spawnInPty(file, args, { cwd, env });
      try {
        const ms = await program.waitFor((screen) => screen.includes(marker), 30_000, `"${marker}"`);
        if (cpuOf) cpu[cpuOf].push(cpuMsOfTree(program.pid));
        return ms;
      } finally {
        await program.kill();
      }
    };
    const env = ptyEnv({ HERMES_HOME: home });
    // One unmeasured start of each: the first start of a fresh home creates its files, and the disk cache warms.
    // hermes is quit as a user quits it (Ctrl+D), not killed: a build's first start writes its code cache at exit
    // (scripts/bundling/codeCache/runCached.ts), and the measured starts are the ones after.
    const first = spawnInPty(process.execPath, [HERMES_BIN], { cwd, env });
    try {
      await first.waitFor((screen) => screen.includes(USABLE_PROMPT), 30_000, `"${USABLE_PROMPT}"`);
      first.write('\x04');
      await Promise.race([first.exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    } finally {
      await first.kill();
    }
    await untilOnScreen(process.execPath, [floorScript], INK_FLOOR_PROMPT, env);

    const samples = await interleaved(runs, {
      hermes: () => untilOnScreen(process.execPath, [HERMES_BIN], USABLE_PROMPT, env, 'hermes'),
      ink: () => untilOnScreen(process.execPath, [floorScript], INK_FLOOR_PROMPT, env, 'ink'),
      node: async () => {
        const program = spawnInPty(process.execPath, ['-e', '0'], { cwd, env });
        await program.exited;
        return program.elapsed();
      },
      backend: () => gatewayReadyMs({ home }),
    });
    const ink = median(samples.ink);
    return [
      {
        name: 'start → usable prompt (live model server)',
        unit: 'ms',
        ours: median(samples.hermes),
        floor: { label: 'bundled Ink hello-world, first frame', value: ink },
        target: { ratio: 1.3 },
        runs,
        note: `"${USABLE_PROMPT}" on screen; node -e 0: ${median(samples.node).toFixed(0)} ms`,
      },
      {
        name: 'CPU time until the prompt is usable (TUI + backend)',
        unit: 'ms',
        ours: median(cpu.hermes),
        floor: { label: 'bundled Ink hello-world, until its first frame', value: median(cpu.ink) },
        target: {},
        runs,
        note: 'what the start costs on a busy machine; /proc ticks of 10 ms',
      },
      {
        name: 'bundled Ink hello-world, first frame',
        unit: 'ms',
        ours: ink,
        floor: { label: 'node -e 0', value: median(samples.node) },
        target: {},
        runs,
      },
      {
        name: 'backend alone: hermes-rpc → gateway.ready',
        unit: 'ms',
        ours: median(samples.backend),
        floor: { label: 'node -e 0', value: median(samples.node) },
        target: {},
        runs,
        note: 'over pipes, same HERMES_HOME',
      },
    ];
  } finally {
    await server.close();
  }
};

if (isEntry(import.meta.url)) await runAlone(bench);
