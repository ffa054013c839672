/**
 * Plugin loading as built: 100 generated plugins (each registers a tool, a hook and a command) loaded
 * by the built plugin-host bundle in a fresh plain-node process, beside the floor — the same 100 entry
 * files imported with parallel `import()` in a fresh plain-node process — interleaved, medians of runs.
 * Both processes load the same libraries and let them settle before the clock starts: what loading
 * them leaves behind (young-generation collections of their objects, compilation on other threads)
 * otherwise lands in whatever is timed next — parallel import() right after it took 2.5× as long as
 * in an empty process. The backend does other work (config, store) between the two.
 * The main row is a start after a completed one (the known-good fast path, a user's steady state); a
 * row beside it is the first or changed load, every entry imported marked (no known-good record).
 * Also the backend's gateway.ready with those 100 plugins minus with none (the real process, its
 * watchdog thread included), and the per-call cost of plugin hooks and middleware against
 * NO_EXTENSIONS (rows of their own).
 *
 *   npm run build && node --import tsx scripts/bench/plugins.ts [--quick] [--runs N]
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '../testing/tempDirs.ts';
import { gatewayReadyMs } from './lib/rpcClient.ts';
import { isEntry, PRODUCT_ROOT, runAlone, type Bench, type Figure } from './lib/figures.ts';
import { interleaved, median } from './lib/samples.ts';

const PLUGINS = 100;

/** Runs in a fresh `node` per sample; prints one JSON line. Reaches the product only through its built bundles. */
const CHILD = `
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
const [mode, home, root] = process.argv.slice(2);
const settle = () => new Promise((resolve) => setTimeout(resolve, 100));
const cpuMs = (since) => { const u = process.cpuUsage(since); return (u.user + u.system) / 1000; };
const lib = (p) => import(pathToFileURL(path.join(root, p)).href);
const entries = () => fs.readdirSync(path.join(home, 'plugins')).filter((n) => !n.startsWith('.')).sort().map((n) => pathToFileURL(path.join(home, 'plugins', n, 'index.mjs')).href);
async function newHost() {
  const [{ PluginHost }, { ToolRegistry, registerBuiltinTools }] = await Promise.all([lib('packages/plugin-host/dist/index.js'), lib('packages/agent-core/dist/index.js')]);
  const tools = new ToolRegistry({ env: {} });
  registerBuiltinTools(tools);
  return new PluginHost({ home, cwd: home, env: {}, tools, builtinCommands: new Set(['help']), npmRoots: [] });
}
if (mode === 'floor') {
  await newHost();
  const files = entries();
  await settle();
  const [t0, c0] = [performance.now(), process.cpuUsage()];
  await Promise.all(files.map((f) => import(f)));
  console.log(JSON.stringify({ ms: performance.now() - t0, cpu: cpuMs(c0), loaded: files.length }));
} else if (mode === 'load' || mode === 'first') {
  // 'first': no known-good record, as at a first start or after a change: every entry imported marked.
  if (mode === 'first') fs.rmSync(path.join(home, 'plugins', '.known-good.json'), { force: true });
  const host = await newHost();
  await settle();
  const [t0, c0] = [performance.now(), process.cpuUsage()];
  const infos = await host.load();
  console.log(JSON.stringify({ ms: performance.now() - t0, cpu: cpuMs(c0), loaded: infos.filter((i) => i.enabled).length }));
} else if (mode === 'port') {
  const host = await newHost();
  await host.load();
  const { NO_EXTENSIONS } = await lib('packages/agent-core/dist/index.js');
  const args = { command: 'echo hi', timeout: 5 };
  const context = { session_id: 's', task_id: 't', turn_id: 't', tool_name: 'terminal', tool_call_id: 'c1' };
  const terminal = async (a) => ({ result: 'ran ' + a.command });
  const perCall = async (call) => {
    for (let i = 0; i < 2000; i++) await call();
    const n = 20000;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await call();
    return ((performance.now() - t0) / n) * 1000;
  };
  const out = {};
  for (const [label, port] of [['none', NO_EXTENSIONS], ['plugins', host.port]]) {
    out[label] = {
      hook: await perCall(() => port.invokeHook('pre_tool_call', { ...context, args })),
      request: await perCall(() => port.applyRequestMiddleware('tool_request', args, context)),
      execution: await perCall(() => port.runExecutionMiddleware('tool_execution', args, { ...context, original_args: args }, terminal)),
    };
  }
  console.log(JSON.stringify(out));
}
`;

function writePlugin(root: string, name: string, body: string): void {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'plugin.yaml'), `name: ${name}\nversion: 1.0.0\ndescription: generated for the benchmark\n`);
  fs.writeFileSync(path.join(dir, 'index.mjs'), `export function register(ctx) {\n${body}\n}\n`);
}

function hundredPlugins(home: string): void {
  for (let i = 0; i < PLUGINS; i++) {
    const n = String(i).padStart(3, '0');
    writePlugin(
      path.join(home, 'plugins'),
      `bench-${n}`,
      `  ctx.registerTool({ name: 'bench_tool_${n}', toolset: 'bench', schema: { name: 'bench_tool_${n}', description: 'bench tool', parameters: { type: 'object', properties: { x: { type: 'string' } } } }, handler: (args) => String(args.x) });
  ctx.registerHook('post_tool_call', () => null);
  ctx.registerCommand('bench-${n}', () => 'ok', 'bench command');`,
    );
  }
}

/** 10 hooks (5 pre_tool_call, 5 post_tool_call), 5 tool_execution and 3 tool_request middleware. */
function portPlugins(home: string): void {
  const root = path.join(home, 'plugins');
  for (let i = 0; i < 10; i++) writePlugin(root, `hook-${i}`, `  ctx.registerHook('${i % 2 ? 'post_tool_call' : 'pre_tool_call'}', ({ tool_name }) => (tool_name === 'never' ? { action: 'block', message: 'x' } : null));`);
  for (let i = 0; i < 5; i++) writePlugin(root, `exec-${i}`, `  ctx.registerMiddleware('tool_execution', async ({ next_call }) => { const r = await next_call(); return r; });`);
  for (let i = 0; i < 3; i++) {
    writePlugin(root, `req-${i}`, i === 2 ? `  ctx.registerMiddleware('tool_request', ({ args }) => ({ args: { ...args, checked: true }, source: 'req-2', reason: 'bench' }));` : `  ctx.registerMiddleware('tool_request', () => null);`);
  }
}

export const bench: Bench = async ({ quick, runs }) => {
  const work = tempDir('hermes-bench-plugins-');
  const child = path.join(work, 'child.mjs');
  fs.writeFileSync(child, CHILD);
  const run = <T>(mode: string, home: string): T => JSON.parse(execFileSync(process.execPath, [child, mode, home, PRODUCT_ROOT], { encoding: 'utf8' })) as T;
  const withPlugins = path.join(work, 'home-100');
  // The backend's own copy: a known-good record names the hermes version that wrote it (the bench's
  // plugin-host has none), so one home shared by both would have each load undo the other's record,
  // and every sample of both would take the marked path.
  const backendPlugins = path.join(work, 'home-100-backend');
  const empty = path.join(work, 'home-0');
  hundredPlugins(withPlugins);
  hundredPlugins(backendPlugins);
  fs.mkdirSync(empty);

  const cpu: Record<string, number[]> = { load: [], first: [], floor: [] };
  const loaded = (mode: 'load' | 'first' | 'floor') => async () => {
    const { ms, cpu: cpuMs, loaded } = run<{ ms: number; cpu: number; loaded: number }>(mode, withPlugins);
    if (loaded !== PLUGINS) throw new Error(`${mode}: ${loaded} of ${PLUGINS} plugins loaded`);
    cpu[mode]!.push(cpuMs);
    return ms;
  };
  const backend = (home: string, quit = false) => () => gatewayReadyMs({ home, quit, args: ['--provider', 'custom', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm'] });
  // A first start writes the load records and the known-good set (the backend's, quit, also a new build's
  // code cache); `load` is a start after it (the fast path, a user's steady state), `first` one without
  // the known-good set (every entry marked).
  run('load', withPlugins);
  if (!quick) await backend(backendPlugins, true)();
  const samples = await interleaved(runs, {
    load: loaded('load'),
    first: loaded('first'),
    floor: loaded('floor'),
    ...(quick ? {} : { ready100: backend(backendPlugins), ready0: backend(empty) }),
  } as Record<'load' | 'first' | 'floor' | 'ready100' | 'ready0', () => Promise<number>>);

  /** A row of one load kind (wall or CPU) against parallel import() of the same entries, same run. */
  const loadRow = (name: string, ours: number[], floor: number[], note: string, max?: number): Figure => ({
    name: `${PLUGINS} plugins loaded${name}`,
    unit: 'ms',
    ours: median(ours),
    floor: { label: `parallel import() of the ${PLUGINS} entries`, value: median(floor) },
    target: max === undefined ? {} : { max },
    runs,
    note,
  });
  const figures: Figure[] = [
    loadRow(' (built plugin-host, fresh node)', samples.load, samples.floor, 'discovery (manifests) + import + register; unchanged since the last load: the known-good fast path', 25),
    loadRow(', first or changed (marked) load', samples.first, samples.floor, 'no known-good record: each entry announced by a marker, so a plugin that hangs or ends the process is named'),
    loadRow(', CPU time (all threads)', cpu.load!, cpu.floor!, 'process.cpuUsage over the same span: steadier than wall time on a busy machine; the known-good fast path'),
    loadRow(', first or changed (marked) load, CPU time (all threads)', cpu.first!, cpu.floor!, 'process.cpuUsage over the same span'),
  ];
  if (!quick) {
    figures.push({
      name: `hermes-rpc gateway.ready, ${PLUGINS} plugins − none`,
      unit: 'ms',
      // Paired: each round starts both, and the median of the rounds' differences is steadier on a noisy
      // machine than the difference of the two medians (which the note keeps).
      ours: median(samples.ready100.map((ms, round) => ms - samples.ready0[round]!)),
      target: { max: 25 },
      runs,
      note: `median of each round's difference; medians ${median(samples.ready100).toFixed(0)} ms − ${median(samples.ready0).toFixed(0)} ms`,
    });
  }

  const portHome = path.join(work, 'home-port');
  portPlugins(portHome);
  type Costs = Record<'none' | 'plugins', Record<'hook' | 'request' | 'execution', number>>;
  const port = run<Costs>('port', portHome);
  const rows: Array<[keyof Costs['none'], string]> = [
    ['hook', 'invokeHook pre_tool_call (5 hooks)'],
    ['request', 'tool_request middleware (3)'],
    ['execution', 'tool_execution middleware (5)'],
  ];
  for (const [key, label] of rows) {
    figures.push({ name: `per call: ${label}`, unit: 'µs', ours: port.plugins[key], floor: { label: 'NO_EXTENSIONS', value: port.none[key] }, target: {}, runs: 1, note: 'mean of 20,000 calls' });
  }
  return figures;
};

if (isEntry(import.meta.url)) await runAlone(bench);
