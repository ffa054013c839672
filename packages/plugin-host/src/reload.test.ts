/** Reload bookkeeping: every kind of registration a plugin made is undone, and only its own. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PluginHost } from './pluginHost.ts';
import { builtinRegistry, recordingLogger, tempDir, userPlugin } from './testing/pluginFixtures.ts';

/** A HERMES_HOME for one test (tempDir removes it when the test ends). */
const home = (): string => tempDir('hermes-reload-');

/** A plugin that uses every registration `PluginContext` offers, each answering with `tag`. */
function fullPlugin(tag: string): string {
  return `
  const tool = (name, extra = {}) => ({ name, toolset: 'full', schema: { description: 'd', parameters: { type: 'object', properties: {} } }, handler: () => name + '-${tag}', ...extra });
  ctx.registerTool(tool('full_tool'));
  ctx.registerTool(tool('read_file', { override: true }));
  ctx.registerHook('on_session_start', () => 'hook-${tag}');
  ctx.registerMiddleware('tool_request', ({ args }) => ({ args: { ...args, by: '${tag}' } }));
  ctx.registerCommand('full', () => 'command-${tag}');
  ctx.registerCliCommand('full-cli', { help: 'h', handler: () => 'cli-${tag}' });
  ctx.registerSkill('guide', './guide');
  ctx.registerContextEngine({ name: 'engine-${tag}', shouldCompress: () => false, compress: async () => { throw new Error('unused'); } });`;
}

function writeFull(dir: string, tag: string): void {
  userPlugin(dir, 'full', fullPlugin(tag));
  fs.mkdirSync(path.join(dir, 'plugins', 'full', 'guide'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'plugins', 'full', 'guide', 'SKILL.md'), '---\nname: guide\ndescription: d\n---\nbody\n');
}

/** What the host serves from every registration kind, as one comparable value. */
async function served(h: PluginHost, tools: ReturnType<typeof builtinRegistry>) {
  const ctx = { signal: new AbortController().signal } as never;
  const request = await h.port.applyRequestMiddleware('tool_request', {}, { tool_name: 'full_tool' });
  return {
    fullTool: tools.get('full_tool') ? await tools.get('full_tool')!.handler({}, ctx) : null,
    readFile: await tools.get('read_file')!.handler({}, ctx),
    hooks: await h.port.invokeHook('on_session_start', {}),
    middleware: (request.payload as { by?: string }).by ?? null,
    commands: await Promise.all(h.commands.map((c) => c.handler(''))),
    cli: await Promise.all(h.cliCommands.map((c) => c.handler())),
    skills: h.skills.map((s) => s.name),
    engine: h.contextEngine?.name ?? null,
  };
}

const NOTHING = { fullTool: null, readFile: 'builtin', hooks: [], middleware: null, commands: [], cli: [], skills: [], engine: null };

describe('PluginHost reload', () => {
  it('undoes every kind of registration of a disabled plugin, and restores each exactly once when enabled again', async () => {
    const dir = home();
    writeFull(dir, 'v1');
    const config: { plugins: Record<string, unknown> } = { plugins: { entries: { full: { allow_tool_override: true } } } };
    const tools = builtinRegistry();
    const h = new PluginHost({ home: dir, cwd: dir, env: {}, tools, config, logger: recordingLogger() });
    await h.load();
    const v1 = { fullTool: 'full_tool-v1', readFile: 'read_file-v1', hooks: ['hook-v1'], middleware: 'v1', commands: ['command-v1'], cli: ['cli-v1'], skills: ['full:guide'], engine: 'engine-v1' };
    expect(await served(h, tools)).toEqual(v1);

    config.plugins.disabled = ['full'];
    expect((await h.reload()).find((p) => p.name === 'full')).toMatchObject({ enabled: false, failed: false, tools: 0, hooks: 0, middleware: 0, commands: 0 });
    expect(await served(h, tools)).toEqual(NOTHING);

    // Edited while disabled, then enabled: the new version's registrations, none of the old, none twice.
    writeFull(dir, 'v2');
    delete config.plugins.disabled;
    await h.reload();
    await h.reload();
    expect(await served(h, tools)).toEqual({ ...v1, fullTool: 'full_tool-v2', readFile: 'read_file-v2', hooks: ['hook-v2'], middleware: 'v2', commands: ['command-v2'], cli: ['cli-v2'], engine: 'engine-v2' });
  });

  it('a plugin that fails at reload is rolled back alone: the others keep every registration', async () => {
    const dir = home();
    writeFull(dir, 'v1');
    const other = userPlugin(dir, 'other', `ctx.registerHook('on_session_start', () => 'other');`);
    const tools = builtinRegistry();
    const h = new PluginHost({ home: dir, cwd: dir, env: {}, tools, config: { plugins: { entries: { full: { allow_tool_override: true } } } }, logger: recordingLogger() });
    await h.load();
    fs.writeFileSync(path.join(other, 'index.mjs'), `export function register(ctx) { ctx.registerCommand('half', () => ''); throw new Error('broken now'); }`);
    const infos = await h.reload();
    expect(infos.find((p) => p.name === 'other')).toMatchObject({ enabled: false, failed: true, error: 'Error: broken now' });
    expect(await served(h, tools)).toMatchObject({ fullTool: 'full_tool-v1', hooks: ['hook-v1'], commands: ['command-v1'], engine: 'engine-v1' });
  });

  it('a discovery-only host reloads by discovering again: it imports no plugin code and sees the new config', async () => {
    const dir = home();
    const marker = path.join(dir, 'imported');
    userPlugin(dir, 'loud', `ctx.registerHook('on_session_start', () => null);`);
    fs.appendFileSync(path.join(dir, 'plugins', 'loud', 'index.mjs'), `\nimport fs from 'node:fs';\nfs.writeFileSync(${JSON.stringify(marker)}, 'x');\n`);
    const config: { plugins: Record<string, unknown> } = { plugins: { disabled: ['loud'] } };
    const h = new PluginHost({ home: dir, cwd: dir, env: {}, tools: builtinRegistry(), config, logger: recordingLogger() });
    expect(h.discover().map((p) => [p.name, p.enabled])).toEqual([['loud', false]]);
    delete config.plugins.disabled;
    expect((await h.reload()).map((p) => [p.name, p.enabled])).toEqual([['loud', true]]);
    expect(h.importsPlugins).toBe(false);
    expect(fs.existsSync(marker)).toBe(false);
  });
});
