import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writePlugin } from '../testing/pluginFixtures.ts';
import { discoverPlugins } from './discover.ts';
import { parseManifest } from './manifest.ts';

function layout() {
  const home = tempDir();
  const cwd = tempDir();
  writePlugin(path.join(home, 'plugins'), 'alpha', { 'plugin.yaml': 'version: 1.10\nfuture_field: x\n', 'index.js': '' });
  writePlugin(path.join(cwd, '.hermes', 'plugins'), 'proj', { 'plugin.yaml': 'name: proj\n', 'index.ts': '' });
  writePlugin(path.join(home, 'node_modules'), 'hermes-npm', {
    'package.json': JSON.stringify({ name: 'hermes-npm', version: '2.0.0', hermes: { plugin: { main: 'lib/entry.js' } } }),
    'lib/entry.js': '',
  });
  writePlugin(path.join(home, 'node_modules', '@acme'), 'scoped', {
    'package.json': JSON.stringify({ name: '@acme/scoped', version: '0.1.0', hermes: { plugin: { requires_env: ['ACME_KEY'] } } }),
    'index.mjs': '',
  });
  writePlugin(path.join(home, 'node_modules'), 'not-a-plugin', { 'package.json': JSON.stringify({ name: 'not-a-plugin' }) });
  fs.mkdirSync(path.join(home, 'plugins', 'no-manifest'), { recursive: true });
  return { home, cwd };
}

describe('discoverPlugins', () => {
  it('takes a manifest parsed at an earlier start while its file is unchanged, and parses it again once it changes', () => {
    const home = tempDir();
    const dir = writePlugin(path.join(home, 'plugins'), 'cached', { 'plugin.yaml': 'name: cached\nversion: 1.0.0\n', 'index.js': '' });
    const [first] = discoverPlugins({ home, cwd: home, env: {} });
    expect(first!.manifest?.version).toBe('1.0.0');
    const stamp = first!.manifestFile!;
    expect(stamp.file).toBe(path.join(dir, 'plugin.yaml'));
    // What an earlier start recorded: told apart from the file's text by its version.
    const known = new Map([[stamp.file, { ...stamp, manifest: { ...first!.manifest!, version: 'from-the-record' } }]]);
    expect(discoverPlugins({ home, cwd: home, env: {}, knownManifests: known })[0]!.manifest?.version).toBe('from-the-record');
    fs.writeFileSync(stamp.file, 'name: cached\nversion: 2.0.0-edited\n');
    expect(discoverPlugins({ home, cwd: home, env: {}, knownManifests: known })[0]!.manifest?.version).toBe('2.0.0-edited');
  });

  it('lists user, then npm plugins; project plugins are not even listed without the flag', () => {
    const { home, cwd } = layout();
    const found = discoverPlugins({ home, cwd, env: {} });
    expect(found.map((p) => [p.name, p.source])).toEqual([
      ['alpha', 'user'],
      ['@acme/scoped', 'npm'],
      ['hermes-npm', 'npm'],
    ]);
    expect(found[0].manifest?.version).toBe('1.10');
    expect(found[0].entry).toBe(path.join(home, 'plugins', 'alpha', 'index.js'));
    expect(found[2].entry).toBe(path.join(home, 'node_modules', 'hermes-npm', 'lib', 'entry.js'));
    expect(found[2].manifest?.version).toBe('2.0.0');
    expect(found[1].manifest?.requiresEnv).toEqual([{ name: 'ACME_KEY' }]);
  });

  it('lists project plugins between user and npm when HERMES_ENABLE_PROJECT_PLUGINS is set', () => {
    const { home, cwd } = layout();
    for (const flag of ['true', '1', 'yes']) {
      const found = discoverPlugins({ home, cwd, env: { HERMES_ENABLE_PROJECT_PLUGINS: flag } });
      expect(found.map((p) => p.source)).toEqual(['user', 'project', 'npm', 'npm']);
      expect(found[1].entry?.endsWith('index.ts')).toBe(true);
    }
    expect(discoverPlugins({ home, cwd, env: { HERMES_ENABLE_PROJECT_PLUGINS: 'no' } }).map((p) => p.source)).not.toContain('project');
  });

  it('is idempotent: the same files give the same list', () => {
    const { home, cwd } = layout();
    const env = { HERMES_ENABLE_PROJECT_PLUGINS: '1' };
    expect(discoverPlugins({ home, cwd, env })).toEqual(discoverPlugins({ home, cwd, env }));
  });

  it('reports a missing entry and a name already taken by an earlier source', () => {
    const home = tempDir();
    const cwd = tempDir();
    writePlugin(path.join(home, 'plugins'), 'dup', { 'plugin.yaml': 'name: same\n', 'index.js': '' });
    writePlugin(path.join(home, 'plugins'), 'noentry', { 'plugin.yaml': 'main: missing.js\n' });
    writePlugin(path.join(cwd, '.hermes', 'plugins'), 'other', { 'plugin.yaml': 'name: same\n', 'index.js': '' });
    const found = discoverPlugins({ home, cwd, env: { HERMES_ENABLE_PROJECT_PLUGINS: 'true' } });
    expect(found.find((p) => p.name === 'noentry')?.error).toMatch(/missing\.js.*does not exist/);
    expect(found.find((p) => p.source === 'project')?.error).toMatch(/already taken by the user plugin/);
    expect(found.find((p) => p.source === 'user' && p.name === 'same')?.error).toBeNull();
  });
});

describe('parseManifest', () => {
  it('defaults the name to the folder, keeps the version a string, accepts both requires_env forms, ignores unknown fields', () => {
    const manifest = parseManifest('version: 2\nrequires_env:\n  - A_KEY\n  - {name: B_KEY, description: the b key}\nwhatever: 1\n', 'p.yaml', 'folder');
    expect(manifest).toMatchObject({ name: 'folder', version: '2', requiresEnv: [{ name: 'A_KEY' }, { name: 'B_KEY', description: 'the b key' }] });
  });

  it('names the file and the line of a syntax error and of a bad field', () => {
    expect(() => parseManifest('name: x\nversion: 1\n  bad: [\n', '/p/plugin.yaml', 'x')).toThrow(/\/p\/plugin\.yaml line [23]:/);
    expect(() => parseManifest('name: x\n\nrequires_env: 5\n', '/p/plugin.yaml', 'x')).toThrow('/p/plugin.yaml line 3: `requires_env` must be a list');
    expect(() => parseManifest('- a\n- b\n', '/p/plugin.yaml', 'x')).toThrow(/line 1: the manifest must be a mapping/);
  });

  it('refuses a name that could forge listing or log lines, reach outside its folder or split a skill name', () => {
    for (const name of ['"evil\\ngood\\tenabled"', '../../evil', 'a:b', '"a b"', '.hidden']) {
      expect(() => parseManifest(`version: 1\nname: ${name}\n`, '/p/plugin.yaml', 'x'), name).toThrow(/\/p\/plugin\.yaml line 2: the plugin name .* may hold only letters, digits/);
    }
    expect(parseManifest('name: "@acme/tools-2.0_x"\n', '/p/plugin.yaml', 'x').name).toBe('@acme/tools-2.0_x');
  });
});
