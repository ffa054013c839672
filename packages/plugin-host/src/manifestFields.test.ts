import { describe, expect, it } from 'vitest';
import { PluginHost } from './pluginHost.ts';
import type { PluginHostOptions } from './pluginHostTypes.ts';
import { builtinRegistry, recordingLogger, tempDir, userPlugin, writePlugin } from './testing/pluginFixtures.ts';
import path from 'node:path';

function host(home: string, extra: Partial<PluginHostOptions> = {}) {
  return new PluginHost({ home, cwd: tempDir(), env: {}, tools: builtinRegistry(), logger: recordingLogger(), ...extra });
}

const NEEDS_KEYS = `name: needs-keys\nversion: 1.0.0\nrequires_env:\n  - PLAIN_KEY\n  - name: DESCRIBED_KEY\n    description: "the project id on the service"\n`;

/** A plugin that reports, through a command, what its context told it while registering. */
const REPORTER = `const seen = { missing: ctx.missingEnv, settings: ctx.settings, nested: ctx.getConfig('limits.depth', 'default'), absent: ctx.getConfig('nope', 'fallback') };
ctx.registerCommand('seen', () => JSON.stringify(seen));`;

async function seen(h: PluginHost): Promise<Record<string, unknown>> {
  await h.load();
  const command = h.commands.find((c) => c.name === 'seen');
  if (!command) throw new Error(`the plugin did not load: ${JSON.stringify(h.list())}`);
  return JSON.parse(String(await command.handler(''))) as Record<string, unknown>;
}

describe('plugin.yaml requires_env', () => {
  it('lists the variables set nowhere, with their descriptions; the plugin still loads and sees them', async () => {
    const home = tempDir();
    userPlugin(home, 'needs-keys', REPORTER, NEEDS_KEYS);
    const h = host(home);
    const report = await seen(h);
    const missing = [{ name: 'PLAIN_KEY' }, { name: 'DESCRIBED_KEY', description: 'the project id on the service' }];
    expect(report.missing).toEqual(missing);
    expect(h.list()).toEqual([expect.objectContaining({ name: 'needs-keys', enabled: true, error: null, failed: false, missingEnv: missing })]);
  });

  it('counts a variable set in the environment or in $HERMES_HOME/.env; an empty value is unset', async () => {
    const home = tempDir();
    userPlugin(home, 'needs-keys', REPORTER, NEEDS_KEYS);
    const h = host(home, { env: { PLAIN_KEY: 'from-env', DESCRIBED_KEY: '' }, dotenv: { DESCRIBED_KEY: 'ignored-when-env-has-it' } });
    expect((await seen(h)).missing).toEqual([{ name: 'DESCRIBED_KEY', description: 'the project id on the service' }]);
    const fromDotenv = host(home, { dotenv: { PLAIN_KEY: 'a', DESCRIBED_KEY: 'b' } });
    expect((await seen(fromDotenv)).missing).toEqual([]);
    expect(fromDotenv.list()[0]!.missingEnv).toEqual([]);
  });

  it('is reported by a discovery-only host too (hermes plugins list imports nothing)', () => {
    const home = tempDir();
    userPlugin(home, 'needs-keys', 'throw new Error("must not run")', NEEDS_KEYS);
    const infos = host(home, { dotenv: { PLAIN_KEY: 'x' } }).discover();
    expect(infos[0]!.missingEnv).toEqual([{ name: 'DESCRIBED_KEY', description: 'the project id on the service' }]);
  });

  it('lets a plugin refuse: register() throwing on a missing key fails it with its own message', async () => {
    const home = tempDir();
    userPlugin(home, 'strict', "if (ctx.missingEnv.length) throw new Error('set ' + ctx.missingEnv.map((m) => m.name).join(', '));", NEEDS_KEYS.replace('needs-keys', 'strict'));
    const infos = await host(home).load();
    expect(infos[0]).toMatchObject({ enabled: false, failed: true, error: 'Error: set PLAIN_KEY, DESCRIBED_KEY' });
  });
});

describe('plugins.entries.<name>.settings', () => {
  it('reaches the plugin as ctx.settings and through ctx.getConfig (dotted keys, defaults)', async () => {
    const home = tempDir();
    userPlugin(home, 'reporter', REPORTER);
    const settings = { endpoint: 'https://example.test', limits: { depth: 3 } };
    const config = { plugins: { entries: { reporter: { settings }, other: { settings: { endpoint: 'not mine' } } } } };
    const report = await seen(host(home, { config }));
    expect(report).toMatchObject({ settings, nested: 3, absent: 'fallback', missing: [] });
    // A copy: the plugin cannot change the config hermes holds.
    expect(config.plugins.entries.reporter.settings).toEqual(settings);
  });

  it('reads the older `config` key when `settings` is absent, and gives {} when neither is set', async () => {
    const home = tempDir();
    userPlugin(home, 'reporter', REPORTER);
    expect((await seen(host(home, { config: { plugins: { entries: { reporter: { config: { limits: { depth: 7 } } } } } } }))).nested).toBe(7);
    expect(await seen(host(home))).toMatchObject({ settings: {}, nested: 'default' });
  });
});

describe('a Hermes (Python) plugin', () => {
  it('is listed as not loadable here (Python): not enabled, not a failure, nothing imported', async () => {
    const home = tempDir();
    writePlugin(path.join(home, 'plugins'), 'py-memory', { 'plugin.yaml': 'name: py-memory\nversion: "0.3"\nrequires_env: [HONCHO_API_KEY]\n', '__init__.py': 'def register(ctx):\n    pass\n' });
    userPlugin(home, 'js-ok', "ctx.registerCommand('ok', () => 'ok');");
    const loaded = await host(home).load();
    const expected = { name: 'py-memory', version: '0.3', enabled: false, failed: false, error: 'not loadable here (Python)', missingEnv: [{ name: 'HONCHO_API_KEY' }] };
    expect(loaded).toEqual([expect.objectContaining({ name: 'js-ok', enabled: true }), expect.objectContaining(expected)]);
    expect(host(home).discover()[1]).toMatchObject(expected);
  });
});
