/**
 * MCP servers and the start: `hermes` in a real pseudo-terminal with three stdio MCP servers in
 * config.yaml beside the same start with none, interleaved in the same rounds: first paint and usable
 * prompt must not grow (servers connect in the background after gateway.ready). Then the backend alone
 * over pipes: from its gateway.ready to the first MCP server connected (its tools in the registry) and
 * to all three, polled with `mcp.list` every POLL_MS. The servers are a real published one,
 * @modelcontextprotocol/server-everything, over stdio.
 *
 *   npm run build && node --import tsx scripts/bench/mcp.ts [--quick] [--runs N]
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { startModelServer } from '../model-server/index.ts';
import { tempDir } from '../testing/tempDirs.ts';
import { HERMES_BIN, isEntry, PRODUCT_ROOT, runAlone, type Bench } from './lib/figures.ts';
import { ptyEnv, spawnInPty } from './lib/ptyScreen.ts';
import { startBackend } from './lib/rpcClient.ts';
import { cpuMsWithChildren, interleaved, median } from './lib/samples.ts';
import { USABLE_PROMPT } from './startup.ts';

/** The first thing the TUI draws: its "starting" line, then the header, both begin with it. */
const FIRST_PAINT = '⚕ hermes';
/** How often the backend-alone figure asks `mcp.list`: the figures' resolution. */
const POLL_MS = 5;
const SERVERS = 3;

/** The published server's stdio entry, as installed in the measured checkout. */
function everythingServer(): string {
  const require = createRequire(path.join(PRODUCT_ROOT, 'package.json'));
  return path.join(path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
}

function writeHome(baseUrl: string, servers: number): string {
  const home = tempDir('hermes-bench-mcp-');
  const entry = everythingServer();
  const mcp = Array.from({ length: servers }, (_, i) => `  everything${i + 1}:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(entry)}, stdio]\n`).join('');
  fs.writeFileSync(
    path.join(home, 'config.yaml'),
    `model:\n  provider: custom\n  base_url: ${baseUrl}\n  default: scripted-model\n${servers ? `mcp_servers:\n${mcp}` : ''}`,
  );
  return home;
}

interface McpStatus {
  status: string;
}

/** Milliseconds from gateway.ready to the first server connected and to every server connected. */
async function toolsAvailable(home: string): Promise<{ first: number; all: number }> {
  const backend = await startBackend({ HERMES_HOME: home });
  try {
    const ready = performance.now();
    let first = -1;
    for (;;) {
      const { servers } = (await backend.request('mcp.list', {})) as { servers: McpStatus[] };
      const connected = servers.filter((s) => s.status === 'connected').length;
      const failed = servers.find((s) => s.status === 'failed');
      if (failed) throw new Error(`an MCP server failed: ${JSON.stringify(failed)}`);
      if (connected > 0 && first < 0) first = performance.now() - ready;
      if (connected === servers.length) return { first, all: performance.now() - ready };
      if (performance.now() - ready > 60_000) throw new Error(`MCP servers not connected after 60 s: ${JSON.stringify(servers)}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    await backend.kill();
  }
}

export const bench: Bench = async ({ runs }) => {
  const server = await startModelServer({ loop: true, turns: [{ text: 'unused' }] });
  try {
    const none = writeHome(server.baseUrl, 0);
    const three = writeHome(server.baseUrl, SERVERS);
    const cwd = tempDir('hermes-bench-mcp-cwd-');
    const paint: Record<'none' | 'three', number[]> = { none: [], three: [] };
    /** CPU ms of the TUI and its backend (not the MCP servers) until the prompt was usable: load-independent. */
    const cpu: Record<'none' | 'three', number[]> = { none: [], three: [] };
    const start = async (home: string, which: 'none' | 'three') => {
      const program = spawnInPty(process.execPath, [HERMES_BIN], { cwd, env: ptyEnv({ HERMES_HOME: home }) });
      try {
        paint[which].push(await program.waitFor((screen) => screen.includes(FIRST_PAINT), 30_000, `"${FIRST_PAINT}"`));
        const usable = await program.waitFor((screen) => screen.includes(USABLE_PROMPT), 30_000, `"${USABLE_PROMPT}"`);
        cpu[which].push(cpuMsWithChildren(program.pid, 1));
        return usable;
      } finally {
        await program.kill();
      }
    };
    // One unmeasured start of each: a fresh home's first start creates its files, and the disk cache warms.
    await start(none, 'none');
    await start(three, 'three');
    paint.none.length = paint.three.length = cpu.none.length = cpu.three.length = 0;

    const samples = await interleaved(runs, { none: () => start(none, 'none'), three: () => start(three, 'three') });
    const tools: { first: number[]; all: number[] } = { first: [], all: [] };
    for (let i = 0; i < runs; i++) {
      const { first, all } = await toolsAvailable(three);
      tools.first.push(first);
      tools.all.push(all);
    }
    const noneUsable = median(samples.none);
    return [
      {
        name: `start → first paint, ${SERVERS} MCP servers configured`,
        unit: 'ms',
        ours: median(paint.three),
        floor: { label: 'the same start, no MCP servers', value: median(paint.none) },
        target: { ratio: 1.1 },
        runs,
        note: `"${FIRST_PAINT}" on screen`,
      },
      {
        name: `start → usable prompt, ${SERVERS} MCP servers configured`,
        unit: 'ms',
        ours: median(samples.three),
        floor: { label: 'the same start, no MCP servers', value: noneUsable },
        target: { ratio: 1.1 },
        runs,
        note: `"${USABLE_PROMPT}" on screen; the servers connect after gateway.ready`,
      },
      {
        name: `CPU until the prompt is usable (TUI + backend, not the servers), ${SERVERS} MCP servers`,
        unit: 'ms',
        ours: median(cpu.three),
        floor: { label: 'the same start, no MCP servers', value: median(cpu.none) },
        target: {},
        runs,
        note: "load-independent; /proc ticks of 10 ms; the difference is the backend's connecting (SDK chunk loaded, servers spawned) after gateway.ready",
      },
      {
        name: 'gateway.ready → first MCP server connected (its tools usable)',
        unit: 'ms',
        ours: median(tools.first),
        floor: { label: 'start → usable prompt, no MCP servers', value: noneUsable },
        target: {},
        runs,
        note: `backend alone; @modelcontextprotocol/server-everything over stdio; mcp.list every ${POLL_MS} ms`,
      },
      {
        name: `gateway.ready → all ${SERVERS} MCP servers connected`,
        unit: 'ms',
        ours: median(tools.all),
        floor: { label: 'start → usable prompt, no MCP servers', value: noneUsable },
        target: {},
        runs,
      },
    ];
  } finally {
    await server.close();
  }
};

if (isEntry(import.meta.url)) await runAlone(bench);
