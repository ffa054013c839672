/**
 * A process whose plugin watchdog has one shared slot for running callbacks (run by
 * pluginWatchdog.test.ts): plugin `waits` takes the slot with a hook that never settles, then plugin
 * `spins` blocks the thread in its hook, which is tracked by messages instead. The watchdog must stop
 * the process naming both, as it does when every callback has a slot.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PluginHost } from '@hermes/plugin-host';
import { silentLogger, ToolRegistry } from '@hermes/agent-core';
import { pluginWatchdog } from '../server/pluginWatchdog.ts';

const home = process.argv[2]!;
const plugin = (name: string, body: string) => {
  const dir = path.join(home, 'plugins', name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'plugin.yaml'), `name: ${name}\nversion: 1.0.0\n`);
  fs.writeFileSync(path.join(dir, 'index.mjs'), `export function register(ctx) { ${body} }\n`);
};
plugin('waits', `ctx.registerHook('pre_tool_call', () => new Promise(() => {}));`);
plugin('spins', `ctx.registerHook('post_tool_call', () => { for (;;) {} });`);
let host: PluginHost | null = null;
host = new PluginHost({
  home,
  cwd: home,
  env: {},
  tools: new ToolRegistry({ env: {} }),
  builtinCommands: new Set(),
  npmRoots: [],
  logger: silentLogger,
  config: { plugins: { hook_callback_timeout: 1 } },
  loadWatch: pluginWatchdog(() => host?.hookTimeoutMs ?? 0, 1),
});
await host.load();
void host.port.invokeHook('pre_tool_call', {});
process.stderr.write('blocking\n');
await host.port.invokeHook('post_tool_call', {});
