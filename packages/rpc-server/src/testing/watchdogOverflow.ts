/**
 * A process whose plugin watchdog has shared regions of the sizes given (run by
 * pluginWatchdog.test.ts), so that what does not fit is sent as messages. Scenarios:
 * - `hooks`: plugin `waits` takes a slot with a hook that never settles, then plugin `spins` blocks
 *   the thread in its hook. The watchdog must stop the process naming both.
 * - `load`: plugin `stuck`'s register() blocks the thread. The watchdog must stop the process past
 *   plugins.register_timeout, naming it, and record it as blocked.
 * - `moved`: plugin `spins` runs its hook once, is moved to another directory and reloaded; its hook
 *   then blocks. The record must name the entry file it was reloaded from.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PluginHost } from '@hermes/plugin-host';
import { silentLogger, ToolRegistry } from '@hermes/agent-core';
import { pluginWatchdog, type WatchdogSizes } from '../server/pluginWatchdog.ts';

const [home, scenario, sizes] = process.argv.slice(2) as [string, 'hooks' | 'load' | 'moved', string];
const plugin = (name: string, body: string, dirName = name) => {
  const dir = path.join(home, 'plugins', dirName);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'plugin.yaml'), `name: ${name}\nversion: 1.0.0\n`);
  fs.writeFileSync(path.join(dir, 'index.mjs'), `export function register(ctx) { ${body} }\n`);
};
if (scenario === 'load') plugin('stuck', `for (;;) {}`);
else if (scenario === 'moved') {
  const calls = 'globalThis.hermesTestCalls = (globalThis.hermesTestCalls ?? 0) + 1';
  plugin('spins', `ctx.registerHook('post_tool_call', () => { ${calls}; if (globalThis.hermesTestCalls > 1) for (;;) {} });`, 'spins-v1');
} else {
  plugin('waits', `ctx.registerHook('pre_tool_call', () => new Promise(() => {}));`);
  plugin('spins', `ctx.registerHook('post_tool_call', () => { for (;;) {} });`);
}
let host: PluginHost | null = null;
host = new PluginHost({
  home,
  cwd: home,
  env: {},
  tools: new ToolRegistry({ env: {} }),
  builtinCommands: new Set(),
  npmRoots: [],
  logger: silentLogger,
  config: { plugins: { hook_callback_timeout: 1, register_timeout: 0.5 } },
  loadWatch: pluginWatchdog(() => host?.hookTimeoutMs ?? 0, JSON.parse(sizes) as Partial<WatchdogSizes>),
});
process.stderr.write('loading\n');
await host.load();
if (scenario === 'moved') {
  await host.port.invokeHook('post_tool_call', {});
  fs.renameSync(path.join(home, 'plugins', 'spins-v1'), path.join(home, 'plugins', 'spins-v2'));
  await host.reload();
}
void host.port.invokeHook('pre_tool_call', {});
process.stderr.write('blocking\n');
await host.port.invokeHook('post_tool_call', {});
