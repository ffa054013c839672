/**
 * The built backend runs through V8's code cache (scripts/bundling/codeCache/): the start that writes
 * the cache and the one that uses it behave alike. A plugin's import() (routed past Node 20's lost
 * callback for cached code) works in both, with nothing on stderr: no experimental fallback warning.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';
import { BackendProcess } from '../testing/backendProcess.ts';

const backends: BackendProcess[] = [];
afterEach(async () => {
  for (const backend of backends.splice(0)) await backend.stop();
});

function homeWithPlugin(): string {
  const home = tempDir('hermes-cache-home-');
  const plugin = path.join(home, 'plugins', 'hello');
  fs.mkdirSync(plugin, { recursive: true });
  fs.writeFileSync(path.join(plugin, 'plugin.yaml'), 'name: hello\nversion: 0.1.0\ndescription: says hello\n');
  fs.writeFileSync(path.join(plugin, 'index.js'), "export function register(ctx) {\n  ctx.registerCommand('hello', () => 'hello from the plugin', 'Says hello');\n}\n");
  return home;
}

describe('the built backend through its code cache', () => {
  it('loads a JavaScript plugin on the start that writes the cache and on the one that uses it, and says nothing on stderr', async () => {
    const home = homeWithPlugin();
    const cacheDir = tempDir('hermes-code-cache-');
    for (const start of ['writes the cache', 'uses the cache']) {
      const backend = new BackendProcess({ home, env: { HERMES_CODE_CACHE_DIR: cacheDir } });
      backends.push(backend);
      await backend.waitForEvent((event) => event.type === 'gateway.ready');
      const { plugins } = await backend.request('plugins.list', {});
      expect(plugins.find((plugin) => plugin.name === 'hello'), start).toMatchObject({ error: null, commands: 1 });
      expect(await backend.stop(), start).toBe(0);
      backends.pop();
      expect(backend.stderr, start).toBe('');
      expect(fs.readdirSync(cacheDir).filter((name) => name.endsWith('.v8cache')), start).toHaveLength(1);
    }
    const log = fs.readFileSync(path.join(home, 'logs', 'backend.log'), 'utf8');
    expect(log).toMatch(/code cache miss/);
    expect(log).toMatch(/code cache hit/);
  });
});
