import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PluginHost } from './pluginHost.ts';
import type { PluginHostOptions } from './pluginHostTypes.ts';
import { builtinRegistry, recordingLogger, tempDir, userPlugin, writePlugin } from './testing/pluginFixtures.ts';

const TOOL = (name: string, extra = '') =>
  `ctx.registerTool({ name: '${name}', toolset: 'demo', schema: { name: '${name}', description: 'd', parameters: { type: 'object', properties: {} } }, handler: () => '${name}-result'${extra} });`;

function host(home: string, extra: Partial<PluginHostOptions> = {}) {
  const logger = recordingLogger();
  const tools = builtinRegistry();
  const h = new PluginHost({ home, cwd: tempDir(), env: {}, tools, builtinCommands: new Set(['help', 'model']), logger, ...extra });
  return { h, tools, logger };
}

const info = (infos: Awaited<ReturnType<PluginHost['load']>>, name: string) => infos.find((i) => i.name === name)!;

describe('PluginHost loading', () => {
  it('loads a plugin: tool joins the registry, counts and manifest fields are listed', async () => {
    const home = tempDir();
    userPlugin(home, 'good', `${TOOL('good_tool')}\nctx.registerHook('post_tool_call', () => null);\nctx.registerCommand('/Do Thing', () => 'done', 'does it', '<x>');`);
    const { h, tools } = host(home);
    const infos = await h.load();
    expect(infos).toEqual([
      expect.objectContaining({ name: 'good', key: 'good', version: '1.0.0', source: 'user', enabled: true, tools: 1, hooks: 1, middleware: 0, commands: 1, error: null }),
    ]);
    expect(tools.get('good_tool')?.description).toBe('d');
    expect(h.commands).toEqual([expect.objectContaining({ name: 'do-thing', plugin: 'good', description: 'does it', argsHint: '<x>' })]);
    expect(await h.load()).toBe(infos); // idempotent: nothing registered twice
    expect(h.commands).toHaveLength(1);
  });

  it('rolls back every registration of a plugin whose register() throws; others still load', async () => {
    const home = tempDir();
    userPlugin(home, 'broken', `${TOOL('half_tool')}\nctx.registerHook('pre_tool_call', () => ({action:'block', message:'x'}));\nctx.registerCommand('half', () => '');\nctx.registerContextEngine({ name: 'e', shouldCompress() { return false; }, compress() {} });\nthrow new Error('boom after registering');`);
    userPlugin(home, 'fine', TOOL('fine_tool'));
    const { h, tools } = host(home);
    const infos = await h.load();
    expect(info(infos, 'broken')).toMatchObject({ enabled: false, tools: 0, hooks: 0, commands: 0, error: 'Error: boom after registering' });
    expect(info(infos, 'fine').enabled).toBe(true);
    expect(tools.get('half_tool')).toBeUndefined();
    expect(tools.get('fine_tool')).toBeDefined();
    expect(h.commands).toEqual([]);
    expect(h.contextEngine).toBeNull();
    expect(await h.port.invokeHook('pre_tool_call', {})).toEqual([]);
  });

  it('settles a synchronous register() at once, an async one in its turn: order, rollback and counts are the same for both', async () => {
    const home = tempDir();
    const plugin = (name: string, register: string) =>
      writePlugin(path.join(home, 'plugins'), name, { 'plugin.yaml': `name: ${name}\nversion: 1.0.0\n`, 'index.mjs': `export ${register}\n` });
    plugin('a-sync', `function register(ctx) { ${TOOL('a_tool')} ctx.registerCommand('a', () => 'a'); }`);
    plugin('b-sync-throws', `function register(ctx) { ${TOOL('b_tool')} ctx.registerCommand('b', () => 'b'); throw new Error('sync boom'); }`);
    plugin('c-async', `async function register(ctx) { await new Promise((r) => setTimeout(r, 20)); ctx.registerCommand('c', () => 'c'); }`);
    plugin('d-async-rejects', `async function register(ctx) { ctx.registerCommand('d', () => 'd'); await null; throw new Error('async boom'); }`);
    plugin('e-sync', `function register(ctx) { ctx.registerCommand('e', () => 'e'); }`);
    // The first load imports each entry marked (the watch is told each plugin); the second, all
    // known-good, imports them together (the watch is told none by name, once), then registers each.
    for (const load of ['first', 'known-good'] as const) {
      const watched: Array<string | null> = [];
      const { h, tools, logger } = host(home, { loadWatch: { start: (l) => watched.push(l.plugin), stop: () => undefined } });
      const infos = await h.load();
      expect(watched.filter((p) => p === null), load).toHaveLength(load === 'first' ? 0 : 1);
      expect(infos.map((i) => [i.name, i.enabled, i.error]), load).toEqual([
        ['a-sync', true, null],
        ['b-sync-throws', false, 'Error: sync boom'],
        ['c-async', true, null],
        ['d-async-rejects', false, 'Error: async boom'],
        ['e-sync', true, null],
      ]);
      expect(info(infos, 'a-sync')).toMatchObject({ tools: 1, commands: 1 });
      expect(info(infos, 'b-sync-throws')).toMatchObject({ tools: 0, commands: 0 });
      // Registered in discovery order: c's register() finished before e's began.
      expect(h.commands.map((c) => c.name)).toEqual(['a', 'c', 'e']);
      expect(tools.get('a_tool')).toBeDefined();
      expect(tools.get('b_tool')).toBeUndefined();
      expect(logger.warnings().filter((w) => w.includes('rolled back'))).toHaveLength(2);
      // Each register() (after every import) was watched under its plugin's name, in discovery order.
      expect(watched.filter((p) => p !== null).slice(-5), load).toEqual([
        'a-sync',
        'b-sync-throws',
        'c-async',
        'd-async-rejects',
        'e-sync',
      ]);
      expect(fs.existsSync(path.join(home, 'plugins', '.known-good.json')), load).toBe(true);
    }
  });

  it('lists each fault with its reason: bad YAML (with line), missing entry, no register, throwing import', async () => {
    const home = tempDir();
    const root = path.join(home, 'plugins');
    writePlugin(root, 'badyaml', { 'plugin.yaml': 'name: badyaml\nversion: [1,\n', 'index.mjs': 'export function register() {}' });
    writePlugin(root, 'noentry', { 'plugin.yaml': 'name: noentry\n' });
    writePlugin(root, 'noregister', { 'plugin.yaml': '{}', 'index.mjs': 'export const x = 1;' });
    writePlugin(root, 'importfail', { 'plugin.yaml': '', 'index.mjs': 'throw new Error("import exploded");' });
    userPlugin(home, 'ok', TOOL('ok_tool'));
    const { h } = host(home);
    const infos = await h.load();
    expect(info(infos, 'badyaml').error).toMatch(new RegExp(`${path.join(root, 'badyaml', 'plugin.yaml')} line [23]:`));
    expect(info(infos, 'noentry').error).toMatch(/no entry file/);
    expect(info(infos, 'noregister').error).toMatch(/exports no register\(ctx\) function/);
    expect(info(infos, 'importfail').error).toMatch(/import exploded/);
    expect(infos.filter((i) => i.enabled).map((i) => i.name)).toEqual(['ok']);
  });

  it('gates: plugins.disabled lists a plugin as disabled; plugins.enabled loads only those named', async () => {
    const home = tempDir();
    userPlugin(home, 'a', TOOL('a_tool'));
    userPlugin(home, 'b', TOOL('b_tool'));
    userPlugin(home, 'c', TOOL('c_tool'));
    const { h, tools } = host(home, { config: { plugins: { disabled: ['a'], enabled: ['a', 'b'] } } });
    const infos = await h.load();
    expect(infos.map((i) => [i.name, i.enabled, i.error])).toEqual([
      ['a', false, 'disabled in config (plugins.disabled)'],
      ['b', true, null],
      ['c', false, 'not listed in plugins.enabled'],
    ]);
    expect(tools.names().sort()).toEqual(['b_tool', 'read_file']);
  });

  it('imports in parallel yet registers in discovery order, whatever order the imports finish in; failures are reported as before', async () => {
    const home = tempDir();
    const root = path.join(home, 'plugins');
    // a-slow's import finishes only after b-fast's has run: imported one at a time, a-slow would time out.
    const gate = globalThis as { __bRan?: Promise<void>; __releaseA?: () => void; __order?: string[] };
    gate.__bRan = new Promise<void>((resolve) => (gate.__releaseA = resolve));
    gate.__order = [];
    const plugin = (name: string, topLevel: string) =>
      writePlugin(root, name, {
        'plugin.yaml': `name: ${name}\n`,
        'index.mjs': `${topLevel}\nexport function register(ctx) { globalThis.__order.push('${name}'); ctx.registerHook('on_session_start', () => '${name}'); }\n`,
      });
    plugin('a-slow', `await globalThis.__bRan;`);
    plugin('b-fast', `globalThis.__releaseA();`);
    plugin('c-throws', `throw new Error('import exploded');`);
    plugin('d-hangs', `await new Promise(() => {});`);
    plugin('e-plain', '');
    const { h } = host(home, { config: { plugins: { register_timeout: 2 } } });
    const infos = await h.load();
    expect(infos.map((i) => [i.name, i.enabled])).toEqual([
      ['a-slow', true],
      ['b-fast', true],
      ['c-throws', false],
      ['d-hangs', false],
      ['e-plain', true],
    ]);
    expect(info(infos, 'c-throws').error).toBe('Error: import exploded');
    expect(info(infos, 'd-hangs').error).toMatch(/^Error: plugin d-hangs: loading and register\(\) did not finish within 2 s \(plugins.register_timeout\)/);
    expect(gate.__order).toEqual(['a-slow', 'b-fast', 'e-plain']);
    expect(await h.port.invokeHook('on_session_start', {})).toEqual(['a-slow', 'b-fast', 'e-plain']);
  });

  it('a plugin whose import throws, followed by one that awaits at its top level, is reported, never an unhandled rejection', async () => {
    const home = tempDir();
    const root = path.join(home, 'plugins');
    // The first graph stops at a-throws; b-awaits is imported as a second graph, awaited meanwhile.
    writePlugin(root, 'a-throws', { 'plugin.yaml': 'name: a-throws\n', 'index.mjs': `throw new Error('import exploded');\n` });
    writePlugin(root, 'b-awaits', {
      'plugin.yaml': 'name: b-awaits\n',
      'index.mjs': `await new Promise((r) => setTimeout(r, 50));\nexport function register() {}\n`,
    });
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      const { h } = host(home);
      const infos = await h.load();
      expect(infos.map((i) => [i.name, i.enabled, i.error])).toEqual([
        ['a-throws', false, 'Error: import exploded'],
        ['b-awaits', true, null],
      ]);
      // A rejection nobody handled would have been reported by now (Node does so after each tick's microtasks).
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', listener);
    }
  });

  it('names on disk the plugin whose code runs, before it runs, during parallel imports and each register()', async () => {
    const home = tempDir();
    const mark = path.join(home, 'plugins', '.loading.json');
    const seen = ((globalThis as { __seen?: string[] }).__seen = []);
    for (const name of ['p1', 'p2', 'p3']) {
      const read = `globalThis.__seen.push('${name} saw ' + JSON.parse(readFileSync(${JSON.stringify(mark)}, 'utf8')).plugin)`;
      writePlugin(path.join(home, 'plugins'), name, {
        'plugin.yaml': '',
        'index.mjs': `import { readFileSync } from 'node:fs';\n${read};\nexport function register() { ${read}; }\n`,
      });
    }
    const { h } = host(home);
    expect((await h.load()).every((i) => i.enabled)).toBe(true);
    // Each import saw its own name (in whatever order they ran), then each register() in order.
    expect([...seen.slice(0, 3)].sort()).toEqual(['p1 saw p1', 'p2 saw p2', 'p3 saw p3']);
    expect(seen.slice(3)).toEqual(['p1 saw p1', 'p2 saw p2', 'p3 saw p3']);
    expect(fs.readFileSync(mark, 'utf8')).toBe(''); // loading is over: the mark names nobody
  });

  it('runs the top-level code of many plugins in discovery order, all before the first register(); one that throws is named, the rest load', async () => {
    const home = tempDir();
    const order: string[] = [];
    (globalThis as { __many?: string[] }).__many = order;
    const names = Array.from({ length: 23 }, (_, i) => `p${String(i).padStart(2, '0')}`);
    for (const name of names) {
      const top = name === 'p09' ? `throw new Error('import of ${name} exploded');` : `globalThis.__many.push('${name} top');`;
      writePlugin(path.join(home, 'plugins'), name, {
        'plugin.yaml': '',
        'index.mjs': `${top}\nsetTimeout(() => globalThis.__many.push('${name} timer'), 0);\nexport function register(ctx) { globalThis.__many.push('${name} register'); ctx.registerCommand('${name}', () => 'ok'); }\n`,
      });
    }
    const { h } = host(home);
    const infos = await h.load();
    const loaded = names.filter((n) => n !== 'p09');
    expect(infos.map((i) => [i.name, i.enabled])).toEqual(names.map((n) => [n, n !== 'p09']));
    expect(info(infos, 'p09')).toMatchObject({ failed: true, error: 'Error: import of p09 exploded' });
    // One synchronous run of top-level code up to the throw, then the rest as a new graph; register() after all of it.
    expect(order.filter((line) => line.endsWith(' top'))).toEqual(loaded.map((n) => `${n} top`));
    expect(order.slice(0, 9)).toEqual(loaded.slice(0, 9).map((n) => `${n} top`));
    expect(order.filter((line) => line.endsWith(' register'))).toEqual(loaded.map((n) => `${n} register`));
    expect(order.findIndex((line) => line.endsWith(' register'))).toBeGreaterThan(order.lastIndexOf('p22 top'));
    expect(h.commands.map((c) => c.name)).toEqual(loaded);
  });

  it('loads plugins from folders whose names a URL gives a meaning to (% # ? space, tab, non-ASCII), in discovery order, and again on reload', async () => {
    const home = tempDir();
    const order: string[] = [];
    (globalThis as { __urlish?: string[] }).__urlish = order;
    const folders = ['a%20b', 'b#frag', 'c?query=1', 'd e', 'e\tf', 'f数据'];
    folders.forEach((folder, i) => {
      writePlugin(path.join(home, 'plugins'), folder, {
        'plugin.yaml': `name: u${i}\n`,
        'index.mjs': `globalThis.__urlish.push('u${i}');\nexport function register(ctx) { ctx.registerCommand('u${i}', () => ${JSON.stringify(folder)}); }\n`,
      });
    });
    const { h } = host(home);
    const names = folders.map((_, i) => `u${i}`);
    expect((await h.load()).map((i) => [i.name, i.enabled, i.error])).toEqual(names.map((n) => [n, true, null]));
    expect(order).toEqual(names);
    expect(await Promise.all(h.commands.map((c) => c.handler('')))).toEqual(folders);
    // The reload finds the set unchanged since a completed load: imported in parallel (top-level code in
    // any order), registered in discovery order.
    expect((await h.reload()).map((i) => [i.name, i.enabled])).toEqual(names.map((n) => [n, true]));
    expect(order.slice(names.length).sort()).toEqual(names);
    expect(await Promise.all(h.commands.map((c) => c.handler('')))).toEqual(folders);
  });

  it('rewrites the load records only when they change', async () => {
    const home = tempDir();
    userPlugin(home, 'same', TOOL('same_tool'));
    const file = path.join(home, 'plugins', '.last-load.json');
    await host(home).h.load();
    const past = new Date('2020-01-01T00:00:00Z');
    fs.utimesSync(file, past, past);
    expect(info(await host(home).h.load(), 'same').enabled).toBe(true);
    expect(fs.statSync(file).mtimeMs).toBe(past.getTime()); // the same plugins, loaded the same way
    userPlugin(home, 'added', TOOL('added_tool'));
    expect(info(await host(home).h.load(), 'added').tools).toBe(1);
    expect(fs.statSync(file).mtimeMs).not.toBe(past.getTime());
    expect(Object.keys((JSON.parse(fs.readFileSync(file, 'utf8')) as { plugins: Record<string, unknown> }).plugins)).toEqual(['added', 'same']);
  });

  it('records each manifest as parsed, for the next start to skip parsing it while unchanged', async () => {
    const home = tempDir();
    userPlugin(home, 'rec', TOOL('rec_tool'));
    const { h } = host(home);
    await h.load();
    const records = JSON.parse(fs.readFileSync(path.join(home, 'plugins', '.last-load.json'), 'utf8')) as { plugins: Record<string, { manifest?: { file: string; manifest: { name: string; version?: string } } }> };
    expect(records.plugins.rec?.manifest).toMatchObject({ file: path.join(home, 'plugins', 'rec', 'plugin.yaml'), manifest: { name: 'rec', version: '1.0.0' } });
    const again = host(home).h;
    expect(info(await again.load(), 'rec')).toMatchObject({ enabled: true, version: '1.0.0', tools: 1 });
  });

  it('refuses a command clashing with a built-in, a shadowing tool, and a second context engine', async () => {
    const home = tempDir();
    const engine = `{ name: 'eng', shouldCompress() { return false; }, compress() {} }`;
    userPlugin(home, 'p1', `ctx.registerCommand('/HELP', () => 'x');\n${TOOL('read_file')}\nctx.registerContextEngine(${engine});`);
    userPlugin(home, 'p2', `${TOOL('read_file', ', override: true')}\nctx.registerContextEngine(${engine});\nctx.registerCommand('mine', () => 'm');`);
    const { h, tools, logger } = host(home);
    const infos = await h.load();
    expect(info(infos, 'p1')).toMatchObject({ enabled: true, commands: 0, tools: 0 });
    expect(info(infos, 'p1').warnings.join('\n')).toMatch(/\/help conflicts with a built-in[\s\S]*shadow a built-in/);
    expect(info(infos, 'p2')).toMatchObject({ enabled: true, commands: 1, tools: 0 });
    expect(info(infos, 'p2').warnings.join('\n')).toMatch(/allow_tool_override[\s\S]*already registered by plugin p1/);
    expect(tools.get('read_file')?.description).toBe('built-in read');
    expect(h.contextEngine?.name).toBe('eng');
    expect(logger.warnings().some((w) => w.includes('plugin p1') && w.includes('/help'))).toBe(true);
  });

  it('lets a plugin override a built-in tool only with allow_tool_override, and restores it on reload', async () => {
    const home = tempDir();
    userPlugin(home, 'over', TOOL('read_file', ', override: true'));
    const { h, tools } = host(home, { config: { plugins: { entries: { over: { allow_tool_override: true } } } } });
    expect(info(await h.load(), 'over').tools).toBe(1);
    expect(tools.get('read_file')?.description).toBe('d');
    fs.rmSync(path.join(home, 'plugins', 'over'), { recursive: true });
    await h.reload();
    expect(tools.get('read_file')?.description).toBe('built-in read');
  });

  it('reload unloads every registration first and picks up edited plugins', async () => {
    const home = tempDir();
    const dir = userPlugin(home, 'r', `${TOOL('r_tool')}\nctx.registerHook('on_session_start', () => 'v1');`);
    const { h, tools } = host(home);
    await h.load();
    expect(await h.port.invokeHook('on_session_start', {})).toEqual(['v1']);
    fs.writeFileSync(path.join(dir, 'index.mjs'), `export default function (ctx) { ctx.registerHook('on_session_start', () => 'v2'); }`);
    const infos = await h.reload();
    expect(info(infos, 'r')).toMatchObject({ enabled: true, tools: 0, hooks: 1 });
    expect(tools.get('r_tool')).toBeUndefined();
    expect(await h.port.invokeHook('on_session_start', {})).toEqual(['v2']);
  });

  it('loads a TypeScript entry without a build step, and an npm plugin', async () => {
    const home = tempDir();
    writePlugin(path.join(home, 'plugins'), 'typed', {
      'plugin.yaml': 'name: typed\n',
      'index.ts': `import { suffix } from './helper.ts';\ninterface Ctx { registerCommand(n: string, h: (a: string) => string): void }\nexport function register(ctx: Ctx): void {\n  const greet = (a: string): string => 'hi ' + a + suffix;\n  ctx.registerCommand('greet', greet);\n}\n`,
      'helper.ts': `export const suffix: string = '!';\n`,
    });
    writePlugin(path.join(home, 'node_modules'), 'hermes-extra', {
      'package.json': JSON.stringify({ name: 'hermes-extra', version: '3.1.0', type: 'module', main: 'main.js', hermes: { plugin: {} } }),
      'main.js': `export default { register(ctx) { ctx.registerCliCommand('extra', { help: 'extra things', handler: () => 0 }); } };`,
    });
    const { h } = host(home);
    const infos = await h.load();
    expect(info(infos, 'typed')).toMatchObject({ enabled: true, commands: 1, error: null });
    expect(await h.commands[0].handler('bob')).toBe('hi bob!');
    expect(info(infos, 'hermes-extra')).toMatchObject({ enabled: true, source: 'npm', version: '3.1.0' });
    expect(h.cliCommands.map((c) => [c.name, c.help])).toEqual([['extra', 'extra things']]);
  });

  it('qualifies skills, rejects ":" in their names, and delegates injectMessage and dispatchTool', async () => {
    const home = tempDir();
    const injected: string[][] = [];
    writePlugin(path.join(home, 'plugins'), 'sk', {
      'plugin.yaml': '',
      'skills/notes/SKILL.md': '# notes',
      'index.mjs': `export async function register(ctx) {\n ctx.registerSkill('notes', 'skills/notes', 'take notes');\n ctx.injectMessage('hello');\n ctx.injectMessage('sys', 'system');\n globalThis.__dispatched = await ctx.dispatchTool('read_file', { path: 'x' });\n}`,
    });
    userPlugin(home, 'badskill', `ctx.registerSkill('a:b', '.');`);
    const { h } = host(home, {
      callbacks: { injectMessage: (c, r) => injected.push([c, r]), dispatchTool: async (n, a) => `${n}(${JSON.stringify(a)})` },
    });
    const infos = await h.load();
    expect(h.skills).toEqual([expect.objectContaining({ name: 'sk:notes', plugin: 'sk', description: 'take notes' })]);
    expect(info(infos, 'badskill').error).toMatch(/not a valid skill name/);
    expect(injected).toEqual([['hello', 'user'], ['sys', 'system']]);
    expect((globalThis as { __dispatched?: string }).__dispatched).toBe('read_file({"path":"x"})');
  });
});
