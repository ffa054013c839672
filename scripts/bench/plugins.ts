/**
 * Plugin host cost:
 *  (a) load time of 100 generated plugins (each registers a tool, a hook and a command): median of 5
 *      loads, each by a fresh PluginHost over a fresh ToolRegistry and its own copy of the files
 *      (so every run really discovers, parses and imports; the first also pays the cold start);
 *  (b) per-call overhead of the ExtensionPort with 10 hooks and 5 tool_execution + 3 tool_request
 *      middleware, against NO_EXTENSIONS, around a trivial terminal function: µs p50/p95 per call.
 *
 *   node --import tsx scripts/bench/plugins.ts [--plugins 100] [--iterations 20000] [--keep]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { NO_EXTENSIONS, registerBuiltinTools, ToolRegistry, type ExtensionPort } from '../../packages/agent-core/src/index.ts';
import { PluginHost } from '../../packages/plugin-host/src/index.ts';
import { median, quantile } from './lib/samples.ts';

const { values } = parseArgs({
  options: { plugins: { type: 'string', default: '100' }, iterations: { type: 'string', default: '20000' }, keep: { type: 'boolean', default: false } },
});
const PLUGINS = Number(values.plugins);
const ITERATIONS = Number(values.iterations);


function writePlugin(root: string, name: string, body: string): void {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'plugin.yaml'), `name: ${name}\nversion: 1.0.0\ndescription: generated for the benchmark\n`);
  fs.writeFileSync(path.join(dir, 'index.mjs'), `export function register(ctx) {\n${body}\n}\n`);
}

function newHost(home: string): PluginHost {
  const tools = new ToolRegistry({ env: {} });
  registerBuiltinTools(tools);
  return new PluginHost({ home, cwd: home, env: {}, tools, builtinCommands: new Set(['help']), npmRoots: [] });
}

async function benchLoad(): Promise<void> {
  // One HERMES_HOME per run: a fresh PluginHost over different files, so each run really imports its
  // 100 modules (the same path twice would be served from Node's module cache).
  const homes = Array.from({ length: 5 }, () => fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-bench-plugins-')));
  for (const home of homes) {
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
  const times: number[] = [];
  for (const home of homes) {
    const host = newHost(home);
    const started = performance.now();
    const infos = await host.load();
    times.push(performance.now() - started);
    const enabled = infos.filter((i) => i.enabled).length;
    if (enabled !== PLUGINS || host.commands.length !== PLUGINS) throw new Error(`expected ${PLUGINS} loaded plugins, got ${enabled}`);
  }
  console.log(`(a) load ${PLUGINS} plugins (tool + hook + command each), fresh PluginHost per run: runs ${times.map((t) => t.toFixed(1)).join(', ')} ms; median ${median(times).toFixed(1)} ms (${((median(times) / PLUGINS) * 1000).toFixed(0)} µs/plugin)`);
  if (!values.keep) for (const home of homes) fs.rmSync(home, { recursive: true, force: true });
}

async function timeCalls(call: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < 2000; i++) await call(); // warm up (JIT)
  const samples = new Float64Array(ITERATIONS);
  for (let i = 0; i < ITERATIONS; i++) {
    const t0 = performance.now();
    await call();
    samples[i] = performance.now() - t0;
  }
  const sorted = [...samples].sort((a, b) => a - b).map((ms) => ms * 1000);
  return { p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95) };
}

async function benchPort(): Promise<void> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-bench-port-'));
  const root = path.join(home, 'plugins');
  // 10 hooks across pre_tool_call / post_tool_call (5 each), all observers that return null.
  for (let i = 0; i < 10; i++) writePlugin(root, `hook-${i}`, `  ctx.registerHook('${i % 2 ? 'post_tool_call' : 'pre_tool_call'}', ({ tool_name }) => (tool_name === 'never' ? { action: 'block', message: 'x' } : null));`);
  // 5 tool_execution wrappers (each awaits next_call and passes the result through).
  for (let i = 0; i < 5; i++) writePlugin(root, `exec-${i}`, `  ctx.registerMiddleware('tool_execution', async ({ next_call }) => { const r = await next_call(); return r; });`);
  // 3 tool_request middleware: two pass (null), one replaces the args.
  for (let i = 0; i < 3; i++) {
    writePlugin(root, `req-${i}`, i === 2 ? `  ctx.registerMiddleware('tool_request', ({ args }) => ({ args: { ...args, checked: true }, source: 'req-2', reason: 'bench' }));` : `  ctx.registerMiddleware('tool_request', () => null);`);
  }
  const host = newHost(home);
  const infos = await host.load();
  if (infos.some((i) => !i.enabled)) throw new Error('a benchmark plugin failed to load');

  const args = { command: 'echo hi', timeout: 5 };
  const context = { session_id: 's', task_id: 't', turn_id: 't', tool_name: 'terminal', tool_call_id: 'c1' };
  const terminal = async (a: typeof args) => ({ result: `ran ${a.command}` });
  const rows: Array<[string, ExtensionPort]> = [
    ['NO_EXTENSIONS', NO_EXTENSIONS],
    ['plugins (10 hooks, 5 exec + 3 request mw)', host.port],
  ];
  console.log(`(b) port overhead per call, ${ITERATIONS} iterations after warm-up (µs p50 / p95):`);
  const table: string[][] = [['port', 'invokeHook(pre_tool_call, 5 cb)', 'applyRequestMiddleware(tool_request, 3)', 'runExecutionMiddleware(tool_execution, 5)']];
  for (const [label, port] of rows) {
    const hook = await timeCalls(() => port.invokeHook('pre_tool_call', { ...context, args }));
    const request = await timeCalls(() => port.applyRequestMiddleware('tool_request', args, context));
    const execution = await timeCalls(() => port.runExecutionMiddleware('tool_execution', args, { ...context, original_args: args }, terminal));
    const cell = (s: { p50: number; p95: number }) => `${s.p50.toFixed(2)} / ${s.p95.toFixed(2)}`;
    table.push([label, cell(hook), cell(request), cell(execution)]);
  }
  const widths = table[0]!.map((_, c) => Math.max(...table.map((r) => r[c]!.length)));
  for (const row of table) console.log('  ' + row.map((cell, c) => cell.padEnd(widths[c]!)).join('  '));
  if (!values.keep) fs.rmSync(home, { recursive: true, force: true });
}

console.log(`node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}`);
await benchLoad();
await benchPort();
