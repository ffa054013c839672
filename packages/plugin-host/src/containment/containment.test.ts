import { describe, expect, it } from 'vitest';
import { PluginHost } from '../pluginHost.ts';
import { builtinRegistry, recordingLogger, tempDir, userPlugin, writePlugin } from '../testing/pluginFixtures.ts';
import { loadedHost } from '../testing/dispatchFixtures.ts';
import { blamePlugins, currentPluginCall } from './pluginScope.ts';
import { refuseProcessControlFromPlugins } from './processGuards.ts';
import path from 'node:path';

function hostFor(home: string, registerTimeout: number) {
  const logger = recordingLogger();
  const h = new PluginHost({ home, cwd: tempDir(), env: {}, tools: builtinRegistry(), logger, config: { plugins: { register_timeout: registerTimeout } } });
  return { h, logger };
}

describe('plugins.register_timeout', () => {
  it('gives up on a register() that never resolves or a module whose top-level await never does; the others load', async () => {
    const home = tempDir();
    userPlugin(home, 'hangs', `ctx.registerCommand('early', () => 'x');\nsetTimeout(() => { try { ctx.registerCommand('late', () => 'y'); } catch (e) { globalThis.lateRefusal = e.message; } }, 300);\nawait new Promise(() => {});`);
    writePlugin(path.join(home, 'plugins'), 'stuck-import', { 'plugin.yaml': 'name: stuck-import\n', 'index.mjs': 'await new Promise(() => {});\nexport function register() {}\n' });
    userPlugin(home, 'fine', `ctx.registerCommand('fine', () => 'ok');`);
    const { h, logger } = hostFor(home, 0.2);
    const infos = await h.load();
    const byName = Object.fromEntries(infos.map((i) => [i.name, i]));
    expect(byName.hangs).toMatchObject({ enabled: false, failed: true, commands: 0, error: expect.stringMatching(/plugin hangs: .*register\(\) did not finish within 0.2 s \(plugins.register_timeout\)/) });
    expect(byName['stuck-import']).toMatchObject({ enabled: false, error: expect.stringContaining('plugin stuck-import') });
    expect(byName.fine).toMatchObject({ enabled: true, commands: 1 });
    expect(h.commands.map((c) => c.name)).toEqual(['fine']);
    expect(logger.warnings().join('\n')).toMatch(/plugin hangs failed to load/);
    await expect.poll(() => (globalThis as { lateRefusal?: string }).lateRefusal, { timeout: 5_000 }).toMatch(/plugin hangs: registration after the plugin was disabled/);
    expect(h.commands.map((c) => c.name)).toEqual(['fine']);
  });
});

describe('plugin attribution', () => {
  it('top-level code of plugins imported together runs under the name of each, its timers too; nothing after it does', async () => {
    const seen: string[] = [];
    Object.assign(globalThis, { currentCall: currentPluginCall, seen });
    const home = tempDir();
    for (const name of ['p1', 'p2', 'p3']) {
      writePlugin(path.join(home, 'plugins'), name, {
        'plugin.yaml': '',
        'index.mjs': `globalThis.seen.push('${name} top: ' + globalThis.currentCall()?.plugin);\nsetTimeout(() => globalThis.seen.push('${name} timer: ' + globalThis.currentCall()?.plugin), 0);\nexport function register() {}\n`,
      });
    }
    const h = new PluginHost({ home, cwd: home, env: {}, tools: builtinRegistry() });
    await h.load();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(seen).toEqual(['p1 top: p1', 'p2 top: p2', 'p3 top: p3', 'p1 timer: p1', 'p2 timer: p2', 'p3 timer: p3']);
    expect(currentPluginCall()).toBeUndefined();
  });

  it('plugin code runs under its name; the rest of a middleware chain and the real call do not', async () => {
    const { h } = await loadedHost({
      a: `ctx.registerMiddleware('tool_execution', async (p) => { globalThis.seenInMiddleware = globalThis.currentCall(); return p.next_call(); });`,
    });
    (globalThis as Record<string, unknown>).currentCall = currentPluginCall;
    let inTerminal: unknown = 'unset';
    await h.port.runExecutionMiddleware('tool_execution', {}, {}, async () => ((inTerminal = currentPluginCall()), 'r'));
    expect((globalThis as Record<string, unknown>).seenInMiddleware).toEqual({ plugin: 'a', callback: 'tool_execution middleware' });
    expect(inTerminal).toBeUndefined();
    expect(blamePlugins()).toBeNull();
  });

  it('process.exit, process.abort and process.kill of the backend from plugin code throw, naming the plugin', async () => {
    const logger = recordingLogger();
    refuseProcessControlFromPlugins(logger);
    const { h, logger: hostLogger } = await loadedHost({
      quitter: `ctx.registerHook('post_tool_call', () => { process.exit(3); });\nctx.registerHook('post_tool_call', () => { process.kill(process.pid, 'SIGKILL'); });\nctx.registerHook('post_tool_call', () => { process.abort(); });`,
    });
    await h.port.invokeHook('post_tool_call', {});
    await h.port.invokeHook('post_tool_call', {});
    const warnings = hostLogger.warnings().join('\n');
    expect(warnings).toMatch(/plugin quitter: post_tool_call hook callback raised PluginProcessControlRefused: plugin quitter \(post_tool_call hook\) called process.exit\(3\): refused/);
    expect(warnings).toMatch(/called process.kill\(\d+, SIGKILL\): refused/);
    expect(warnings).toMatch(/called process.abort\(\): refused/);
    // Reported once per plugin and call, not on every attempt.
    expect(logger.lines.filter((l) => l.level === 'error' && l.message.includes('process.exit(3)'))).toHaveLength(1);
  });
});
