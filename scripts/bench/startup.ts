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
import { gatewayReadyMs } from './lib/backendReady.ts';
import { HERMES_BIN, isEntry, runAlone, type Bench } from './lib/figures.ts';
import { INK_FLOOR_PROMPT, inkFloorScript } from './lib/inkFloor.ts';
import { spawnInPty, ptyEnv } from './lib/ptyScreen.ts';
import { interleaved, median } from './lib/samples.ts';

/** The composer's placeholder once the backend is ready (packages/tui/src/components/App.tsx). */
export const USABLE_PROMPT = 'Ask hermes anything';

export const bench: Bench = async ({ runs }) => {
  const server = await startModelServer({ turns: [{ text: 'unused' }] });
  try {
    const home = tempDir('hermes-bench-startup-');
    fs.writeFileSync(path.join(home, 'config.yaml'), `model:\n  provider: custom\n  base_url: ${server.baseUrl}\n  default: scripted-model\n`);
    const floorScript = await inkFloorScript();
    const cwd = tempDir('hermes-bench-startup-cwd-');

    const untilOnScreen = async (file: string, args: string[], marker: string, env: Record<string, string>) => {
      const program = spawnInPty(file, args, { cwd, env });
      try {
        return await program.waitFor((screen) => screen.includes(marker), 30_000, `"${marker}"`);
      } finally {
        await program.kill();
      }
    };
    const env = ptyEnv({ HERMES_HOME: home });
    // One unmeasured start of each: the first start of a fresh home creates its files, and the disk cache warms.
    await untilOnScreen(process.execPath, [HERMES_BIN], USABLE_PROMPT, env);
    await untilOnScreen(process.execPath, [floorScript], INK_FLOOR_PROMPT, env);

    const samples = await interleaved(runs, {
      hermes: () => untilOnScreen(process.execPath, [HERMES_BIN], USABLE_PROMPT, env),
      ink: () => untilOnScreen(process.execPath, [floorScript], INK_FLOOR_PROMPT, env),
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
