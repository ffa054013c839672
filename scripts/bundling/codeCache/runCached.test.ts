/**
 * The code cache of the shipped bundles: the bundle runs whatever state the cache is in (missing,
 * stale, refused by V8, unwritable), and a usable one is written for the next start.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../testing/tempDirs.ts';
import { DYNAMIC_IMPORT, routeDynamicImports } from './dynamicImports.mjs';
import { cacheDirectory, cacheFileName, UNUSED_CACHE_MS, type CodeCacheStatus } from './runCached.ts';

/** A CommonJS bundle with enough functions for V8 to cache; it records each run and what it was given. */
function writeBundle(dir: string, marker = 'one'): string {
  const file = path.join(dir, 'app.cjs');
  const functions = Array.from({ length: 50 }, (_, i) => `function f${i}(x) { return x * ${i} + ${JSON.stringify(marker)}.length; }`).join('\n');
  fs.writeFileSync(
    file,
    `#!/usr/bin/env node\n"use strict";\n${functions}\nglobalThis.__codeCacheRuns.push(${JSON.stringify(marker)} + ':' + f49(1) + ':' + path() + ':' + typeof require('node:fs').readFileSync + ':' + (this === module.exports));\nfunction path() { return require('node:path').basename(__dirname) === require('node:path').basename(${JSON.stringify(dir)}) && __filename.endsWith('app.cjs'); }\n`,
  );
  return file;
}

/**
 * Runs the bundle in a fresh node (V8 also keeps compiled code per process: a second compile in one
 * process never reads the cache) and returns the cache status and what the bundle recorded.
 */
function run(bundle: string, cacheDir: string, { role = 'serve', v8Flags = [] as string[], cache = true, modules = {} as Record<string, string> } = {}): { status: CodeCacheStatus; runs: string[] } {
  const script = path.join(tempDir('hermes-cc-runner-'), 'runner.mts');
  fs.writeFileSync(
    script,
    `import { runCachedBundle } from ${JSON.stringify(pathToFileURL(path.join(import.meta.dirname, 'runCached.ts')).href)};\n` +
      `globalThis.__codeCacheRuns = [];\n` +
      `const status = runCachedBundle(${JSON.stringify(bundle)}, { buildHash: 'test', role: ${JSON.stringify(role)}, cache: ${cache}, modules: ${JSON.stringify(modules)}, saveAfterMs: 0, dynamicImport: (specifier, options) => import(specifier, options), env: { HERMES_CODE_CACHE_DIR: ${JSON.stringify(cacheDir)} } });\n` +
      `setTimeout(() => process.stdout.write(JSON.stringify({ status, runs: globalThis.__codeCacheRuns })), 50);\n`,
  );
  return JSON.parse(execFileSync(process.execPath, [...v8Flags, '--import', 'tsx', script], { encoding: 'utf8' })) as { status: CodeCacheStatus; runs: string[] };
}

const RAN = 'one:52:true:function:true';

/** The next start finds the cache refused, runs anyway and writes a new one, which the start after uses. */
function expectRefusedThenReplaced(bundle: string, cacheDir: string): void {
  const refused = run(bundle, cacheDir);
  expect(refused.status).toMatchObject({ state: 'rejected', saved: true });
  expect(refused.runs).toEqual([RAN]);
  expect(run(bundle, cacheDir).status.state).toBe('hit');
}

const cacheFiles = (dir: string) => fs.readdirSync(dir).filter((name) => name.endsWith('.v8cache'));

describe('runCachedBundle', () => {
  it('runs the bundle as CommonJS without a cache, writes one, and uses it on the next start', () => {
    const bundle = writeBundle(tempDir('hermes-cc-app-'));
    const cacheDir = path.join(tempDir('hermes-cc-'), 'cache');
    const first = run(bundle, cacheDir);
    expect(first.status).toMatchObject({ state: 'miss', saved: true });
    expect(first.runs).toEqual([RAN]);
    expect(cacheFiles(cacheDir)).toHaveLength(1);
    expect(fs.statSync(cacheDir).mode & 0o777).toBe(0o700);
    const second = run(bundle, cacheDir);
    expect(second.status.state).toBe('hit');
    expect(second.status.saved).toBeUndefined();
    expect(second.runs).toEqual([RAN]);
  });

  it('reads a bundle that is not ASCII as UTF-8, its hashbang made a comment, with and without the cache', () => {
    const dir = tempDir('hermes-cc-app-');
    const bundle = path.join(dir, 'app.cjs');
    const functions = Array.from({ length: 50 }, (_, i) => `function f${i}(x) { return x + ${i}; }`).join('\n');
    fs.writeFileSync(bundle, `#!/usr/bin/env node\n"use strict";\n${functions}\nglobalThis.__codeCacheRuns.push('héllo ✓ 数据库 ' + f49(1));\n`);
    const cacheDir = tempDir('hermes-cc-');
    expect(run(bundle, cacheDir)).toEqual({ status: expect.objectContaining({ state: 'miss', saved: true }), runs: ['héllo ✓ 数据库 50'] });
    expect(run(bundle, cacheDir)).toEqual({ status: expect.objectContaining({ state: 'hit' }), runs: ['héllo ✓ 数据库 50'] });
  });

  it("keeps the bundle's import() working when its code comes from the cache", async () => {
    const dir = tempDir('hermes-cc-app-');
    const bundle = path.join(dir, 'app.cjs');
    // Node 20 alone fails this on the second run: "A dynamic import callback was not specified".
    const source = `"use strict";\nconst load = (name) => import(name);\nload('node:path').then((m) => globalThis.__codeCacheRuns.push('import:' + typeof m.join), (e) => globalThis.__codeCacheRuns.push('failed:' + e.message));\nconst text = "import('x') stays";\nglobalThis.__codeCacheRuns.push(text);\n`;
    fs.writeFileSync(bundle, await routeDynamicImports(source));
    expect(fs.readFileSync(bundle, 'utf8')).toContain(`const load = (name) => ${DYNAMIC_IMPORT}(name);`);
    const cacheDir = tempDir('hermes-cc-');
    expect(run(bundle, cacheDir)).toEqual({ status: expect.objectContaining({ state: 'miss', saved: true }), runs: ["import('x') stays", 'import:function'] });
    expect(run(bundle, cacheDir)).toEqual({ status: expect.objectContaining({ state: 'hit' }), runs: ["import('x') stays", 'import:function'] });
  });

  it('compiles the CommonJS files it is told of through the cache when the bundle first imports them, once each', async () => {
    const dir = tempDir('hermes-cc-app-');
    const bundle = path.join(dir, 'app.cjs');
    fs.mkdirSync(path.join(dir, 'vendor'));
    const functions = Array.from({ length: 50 }, (_, i) => `function g${i}(x) { return x + ${i}; }`).join('\n');
    // What esbuild writes for `export default` and a named export in a CommonJS file.
    fs.writeFileSync(
      path.join(dir, 'vendor', 'sdk.cjs'),
      `"use strict";\n${functions}\nglobalThis.__codeCacheRuns.push('sdk ran');\nObject.defineProperty(exports, '__esModule', { value: true });\nexports.default = class Client { answer() { return g49(1); } };\nexports.version = '1.2.3';\nexports.viaImport = () => import('node:path').then((m) => typeof m.join);\n`,
    );
    const source = `"use strict";\nconst sdk = () => import('./vendor/sdk.cjs');\nPromise.all([sdk(), sdk()]).then(async ([a, b]) => globalThis.__codeCacheRuns.push(['same:' + (a === b), new a.default().answer(), a.version, await a.viaImport()].join(' ')), (e) => globalThis.__codeCacheRuns.push('failed:' + e.message));\n`;
    fs.writeFileSync(bundle, await routeDynamicImports(source));
    fs.writeFileSync(path.join(dir, 'vendor', 'sdk.cjs'), await routeDynamicImports(fs.readFileSync(path.join(dir, 'vendor', 'sdk.cjs'), 'utf8')));
    const cacheDir = tempDir('hermes-cc-');
    const modules = { './vendor/sdk.cjs': 'sdk-hash' };
    const ran = ['sdk ran', 'same:true 50 1.2.3 function'];
    const first = run(bundle, cacheDir, { modules });
    expect(first.runs).toEqual(ran);
    expect(first.status.modules).toEqual({ './vendor/sdk.cjs': expect.objectContaining({ state: 'miss', saved: true }) });
    expect(cacheFiles(cacheDir).filter((name) => name.startsWith('sdk-module-'))).toHaveLength(1);
    const second = run(bundle, cacheDir, { modules });
    expect(second.runs).toEqual(ran);
    expect(second.status.modules?.['./vendor/sdk.cjs']?.state).toBe('hit');
  });

  it('keeps one cache per role, and a rebuilt bundle never uses the cache of the old one', () => {
    const cacheDir = tempDir('hermes-cc-');
    const bundle = writeBundle(tempDir('hermes-cc-app-'), 'one');
    run(bundle, cacheDir);
    const judge = run(bundle, cacheDir, { role: 'judge' }).status;
    expect(judge.state).toBe('miss');
    // Same length, other code: V8 alone would take the old cache (it checks the source's length only).
    fs.writeFileSync(bundle, fs.readFileSync(bundle, 'utf8').replaceAll('"one"', '"two"'));
    fs.utimesSync(bundle, new Date(), new Date(Date.now() + 5_000));
    const rebuilt = run(bundle, cacheDir);
    expect(rebuilt.status.state).toBe('miss');
    expect(rebuilt.runs).toEqual(['two:52:true:function:true']);
    // The new build's cache replaced the old one's; the other role's stays.
    expect(cacheFiles(cacheDir).sort()).toEqual([path.basename(rebuilt.status.file!), path.basename(judge.file!)].sort());
  });

  it('removes the caches no start has used for 30 days when it writes one, and keeps the rest', () => {
    const cacheDir = tempDir('hermes-cc-');
    const aged = (name: string, ageMs: number) => {
      const file = path.join(cacheDir, name);
      fs.writeFileSync(file, 'x');
      const when = new Date(Date.now() - ageMs);
      fs.utimesSync(file, when, when);
      return name;
    };
    const day = 24 * 60 * 60 * 1000;
    // Other installs' caches (another path: an older version run through npx), a failed write's leftover, and files that are not ours.
    const gone = aged('hermes-tui-aaaaaaaaaaaaaaaa-1111111111111111.v8cache', UNUSED_CACHE_MS + day);
    const leftover = aged('hermes-tui-aaaaaaaaaaaaaaaa-2222222222222222.v8cache.123.tmp', UNUSED_CACHE_MS + day);
    const recent = aged('hermes-tui-bbbbbbbbbbbbbbbb-3333333333333333.v8cache', UNUSED_CACHE_MS - day);
    const other = aged('notes.txt', UNUSED_CACHE_MS + day);
    const othersTemporary = aged('download.tmp', UNUSED_CACHE_MS + day);
    const written = run(writeBundle(tempDir('hermes-cc-app-')), cacheDir).status;
    expect(written).toMatchObject({ state: 'miss', saved: true });
    const left = fs.readdirSync(cacheDir);
    expect(left).not.toContain(gone);
    expect(left).not.toContain(leftover);
    expect(left.sort()).toEqual([recent, other, othersTemporary, path.basename(written.file!)].sort());
  });

  it('renews the modification time of a cache a start uses, so an install in use keeps its cache', () => {
    const bundle = writeBundle(tempDir('hermes-cc-app-'));
    const cacheDir = tempDir('hermes-cc-');
    const file = run(bundle, cacheDir).status.file!;
    const old = new Date(Date.now() - UNUSED_CACHE_MS - 24 * 60 * 60 * 1000);
    fs.utimesSync(file, old, old);
    expect(run(bundle, cacheDir).status.state).toBe('hit');
    expect(Date.now() - fs.statSync(file).mtimeMs).toBeLessThan(60_000);
    // Another install's new cache no longer removes it.
    run(writeBundle(tempDir('hermes-cc-app-'), 'two'), cacheDir);
    expect(fs.existsSync(file)).toBe(true);
  });

  it('replaces a damaged cache, which V8 refuses, and still runs the bundle', () => {
    const bundle = writeBundle(tempDir('hermes-cc-app-'));
    const cacheDir = tempDir('hermes-cc-');
    run(bundle, cacheDir);
    const [file] = cacheFiles(cacheDir);
    fs.writeFileSync(path.join(cacheDir, file!), Buffer.alloc(4096, 7));
    expectRefusedThenReplaced(bundle, cacheDir);
  });

  it('refuses a cache made by another V8 configuration (another Node build, other flags) and replaces it', () => {
    const bundle = writeBundle(tempDir('hermes-cc-app-'));
    const cacheDir = tempDir('hermes-cc-');
    // V8 checks its version and flags: a cache made under other flags stands for one of another Node.
    const other = run(bundle, cacheDir, { v8Flags: ['--stack-size=2000'] });
    expect(other.status).toMatchObject({ state: 'miss', saved: true });
    expectRefusedThenReplaced(bundle, cacheDir);
  });

  it('runs without a cache where no directory can be made, and says why', () => {
    const bundle = writeBundle(tempDir('hermes-cc-app-'));
    const blocker = path.join(tempDir('hermes-cc-'), 'file');
    fs.writeFileSync(blocker, '');
    const { status, runs } = run(bundle, path.join(blocker, 'cache'));
    expect(status).toMatchObject({ state: 'off', problem: expect.stringMatching(/cannot use .*file\/cache/) });
    expect(runs).toEqual([RAN]);
  });

  it('runs and says why when the cache cannot be written', () => {
    const bundle = writeBundle(tempDir('hermes-cc-app-'));
    const cacheDir = tempDir('hermes-cc-');
    // A directory where the cache file goes: reading and the rename onto it fail (for root, too).
    fs.mkdirSync(path.join(cacheDir, cacheFileName(bundle, fs.statSync(bundle), { buildHash: 'test', role: 'serve' })));
    const { status, runs } = run(bundle, cacheDir);
    expect(status).toMatchObject({ state: 'off', problem: expect.stringMatching(/cannot write .*EISDIR/) });
    expect(runs).toEqual([RAN]);
  });

  it('runs without a cache and creates nothing when told so', () => {
    const bundle = writeBundle(tempDir('hermes-cc-app-'));
    const cacheDir = path.join(tempDir('hermes-cc-'), 'cache');
    expect(run(bundle, cacheDir, { role: 'judge', cache: false })).toEqual({ status: { state: 'off' }, runs: [RAN] });
    expect(fs.existsSync(cacheDir)).toBe(false);
  });

  it('puts caches in the XDG cache directory by default', () => {
    const xdg = tempDir('hermes-cc-xdg-');
    expect(cacheDirectory({ XDG_CACHE_HOME: xdg })).toEqual({ dir: path.join(xdg, 'hermes', 'code-cache') });
    expect(fs.statSync(path.join(xdg, 'hermes', 'code-cache')).mode & 0o777).toBe(0o700);
  });

  it('does not use a directory other users can write (a planted cache would run as our code)', () => {
    const dir = tempDir('hermes-cc-');
    fs.chmodSync(dir, 0o777);
    expect(cacheDirectory({ HERMES_CODE_CACHE_DIR: dir })).toEqual({ problem: expect.stringMatching(/writable by other users/) });
    const link = path.join(tempDir('hermes-cc-'), 'link');
    fs.symlinkSync(tempDir('hermes-cc-'), link);
    expect(cacheDirectory({ HERMES_CODE_CACHE_DIR: link })).toEqual({ problem: expect.stringMatching(/not a directory/) });
  });
});
