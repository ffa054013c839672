/**
 * The built backend runs through V8's code cache (scripts/bundling/codeCache/): the start that writes
 * the cache and the one that uses it behave alike. A plugin's import() (routed past Node 20's lost
 * callback for cached code) works in both, with nothing on stderr: no experimental fallback warning.
 * The providers' SDKs are files of their own (dist/vendor/, scripts/build.mjs), loaded once a session
 * opens (it readies its first model call while it waits for a prompt), through the cache too.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer } from '../../../../scripts/model-server/index.ts';
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

  it("loads the provider's SDK from its own file once a session opens, before its first prompt, through the cache from then on", async () => {
    const server = await startModelServer({ turns: [{ text: 'first answer' }, { text: 'second answer' }] });
    try {
      const home = tempDir('hermes-cache-home-');
      const cacheDir = tempDir('hermes-code-cache-');
      const args = ['--provider', 'custom', '--base-url', server.baseUrl, '--model', 'scripted-model'];
      const env = { HERMES_CODE_CACHE_DIR: cacheDir };
      const caches = () => fs.readdirSync(cacheDir).filter((name) => name.endsWith('.v8cache'));
      const sdkCache = () => caches().filter((name) => name.startsWith('openai-module-'));
      const log = () => fs.readFileSync(path.join(home, 'logs', 'backend.log'), 'utf8');

      const started = new BackendProcess({ home, args, env });
      backends.push(started);
      await started.waitForEvent((event) => event.type === 'gateway.ready');
      expect(await started.stop()).toBe(0);
      backends.pop();
      expect(caches(), 'a start loads no SDK').toEqual([expect.stringMatching(/^hermes-rpc-serve-/)]);

      // A new session readies its model's first call while it waits for a prompt: the SDK is loaded then.
      const waiting = new BackendProcess({ home, args, env });
      backends.push(waiting);
      const { session_id: waitingId } = await waiting.request('session.create', {});
      await expect.poll(log, { timeout: 10_000 }).toMatch(new RegExp(`session ${waitingId}: model call readied in \\d+ ms`));
      expect(await waiting.stop()).toBe(0);
      backends.pop();
      expect(sdkCache()).toHaveLength(1);
      const written = fs.statSync(path.join(cacheDir, sdkCache()[0]!));

      for (const answer of ['first answer', 'second answer']) {
        const backend = new BackendProcess({ home, args, env });
        backends.push(backend);
        const { session_id } = await backend.request('session.create', {});
        await backend.request('prompt.submit', { session_id, text: 'hello' });
        const done = await backend.waitForEvent((event) => event.type === 'message.complete');
        expect(done.payload).toMatchObject({ status: 'complete', text: answer });
        expect(await backend.stop()).toBe(0);
        backends.pop();
        expect(backend.stderr).toBe('');
        // A start that used the cache leaves it as it was (a refused one is written again).
        const stat = fs.statSync(path.join(cacheDir, sdkCache()[0]!));
        expect({ ino: stat.ino, mtimeMs: stat.mtimeMs }, answer).toEqual({ ino: written.ino, mtimeMs: written.mtimeMs });
      }
    } finally {
      await server.close();
    }
  });
});
