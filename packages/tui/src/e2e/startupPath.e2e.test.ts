/**
 * What a start loads before the prompt is usable, in the real bundles (TUI and backend) in a real
 * pseudo-terminal. The markdown renderer (marked, lowlight/highlight.js), the approval gate's judge
 * (its rules, loaded at the first tool call) and its shell grammar (web-tree-sitter) must not be
 * among them, nor execa (the TUI spawns the backend with node:child_process; the backend loads it for
 * its first command).
 *
 * The TUI is split into ES module chunks: a module hook passed in NODE_OPTIONS logs each file it
 * loads. The backend is one CommonJS bundle run through V8's code cache (scripts/bundling/codeCache/):
 * everything it may load later is in that file, each lazily loaded module wrapped in an init function
 * named by its path (esbuild's `__esm`/`__commonJS`), so V8's coverage (NODE_V8_COVERAGE, written at
 * exit) says which ran. Both logs see lazily loaded code: the renderer loads for a reply, the provider
 * SDK for the turn.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';
import { hermesWithModel, stopAll, type Running } from '../testing/realBackend.ts';

const running: Running = { hermes: [], servers: [] };
afterEach(() => stopAll(running));

/** NODE_OPTIONS that make every process log each module file it loads to `log`. */
function loadLogging(log: string): Record<string, string> {
  const dir = tempDir('hermes-load-log-');
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) {\n  if (url.startsWith('file:')) appendFileSync(${JSON.stringify(log)}, url + '\\n');\n  return next(url, context);\n}\n`,
  );
  writeFileSync(join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister(${JSON.stringify(new URL(`file://${join(dir, 'hooks.mjs')}`).href)});\n`);
  return { NODE_OPTIONS: `--import=${join(dir, 'register.mjs')}` };
}

/** The TUI's bundle files in the log whose text holds code from one of `sources` (esbuild marks each source with a `// path` comment). */
function tuiFilesHolding(log: string, sources: RegExp): string[] {
  const files = [...new Set(readFileSync(log, 'utf8').split('\n').filter((url) => /\/tui\/dist\/.*\.js$/.test(url)))].map((url) => fileURLToPath(url));
  return files.filter((file) => readFileSync(file, 'utf8').split('\n').some((line) => line.startsWith('// ') && sources.test(`// ${line.slice(3)}`)));
}

/** For each module wrapped in the backend bundle (path → ran), from the coverage V8 wrote at the backend's exit. */
function backendModules(coverageDir: string): Map<string, boolean> {
  const modules = new Map<string, boolean>();
  for (const file of readdirSync(coverageDir)) {
    const { result } = JSON.parse(readFileSync(join(coverageDir, file), 'utf8')) as {
      result: { url: string; functions: { functionName: string; ranges: { count: number }[] }[] }[];
    };
    for (const script of result.filter((s) => s.url.endsWith('/rpc-server/dist/hermes-rpc.cjs')))
      for (const fn of script.functions)
        if (/^(node_modules|packages)\//.test(fn.functionName)) modules.set(fn.functionName, (modules.get(fn.functionName) ?? false) || fn.ranges[0]!.count > 0);
  }
  return modules;
}

/** Modules matching `sources` that the backend ran; throws when none is wrapped (then it is not loaded lazily at all). */
function backendRan(modules: Map<string, boolean>, sources: RegExp): string[] {
  const matching = [...modules].filter(([path]) => sources.test(`// ${path}`));
  if (matching.length === 0) throw new Error(`no lazily loaded module of the backend bundle matches ${sources}: is it imported on the start path?`);
  return matching.filter(([, ran]) => ran).map(([path]) => path);
}

const MARKDOWN = /^\/\/ (node_modules\/(marked|lowlight|highlight\.js)\/|packages\/tui\/src\/markdown\/renderMarkdown\.ts)/;
const SHELL_GRAMMAR = /^\/\/ node_modules\/web-tree-sitter\//;
const JUDGE = /^\/\/ packages\/agent-core\/src\/approvals\/(judge\.ts|rules\/)/;
const EXECA = /^\/\/ node_modules\/execa\//;
const PROVIDER_SDK = /^\/\/ node_modules\/openai\//;

describe('the start path', () => {
  it('loads neither the markdown renderer, the approval judge, its shell grammar nor execa before the prompt is usable; the renderer and the provider SDK load for a reply', async () => {
    const log = join(tempDir('hermes-load-log-'), 'loaded.txt');
    writeFileSync(log, '');
    const coverage = tempDir('hermes-coverage-');
    // A cache of its own: a start without one compiles everything it runs, and coverage sees it all.
    const env = { ...loadLogging(log), NODE_V8_COVERAGE: coverage, HERMES_CODE_CACHE_DIR: tempDir('hermes-code-cache-') };
    const { hermes } = await hermesWithModel(running, { turns: [{ text: '## Done\n\nThe **cache** is warm.' }] }, { env });
    const loaded = readFileSync(log, 'utf8');
    // The log sees both processes.
    expect(loaded).toMatch(/packages\/tui\/dist\/main\.js/);
    expect(loaded).toMatch(/packages\/rpc-server\/dist\/main\.js/);
    expect(tuiFilesHolding(log, MARKDOWN)).toEqual([]);
    expect(tuiFilesHolding(log, EXECA)).toEqual([]);

    hermes.type('is the cache warm?');
    hermes.press('enter');
    await hermes.waitForText('The cache is warm.');
    expect(tuiFilesHolding(log, MARKDOWN)).toEqual([expect.stringMatching(/packages\/tui\/dist\/chunks\/.*\.js$/)]);

    // The backend writes its coverage when it exits, after the TUI closed its stdin.
    await hermes.waitForText(/● ready/);
    hermes.press('ctrl-d');
    expect((await hermes.exited).exitCode).toBe(0);
    await expect.poll(() => existsSync(coverage) && backendModules(coverage).size > 0, { timeout: 10_000 }).toBe(true);
    const modules = backendModules(coverage);
    expect(backendRan(modules, JUDGE)).toEqual([]);
    expect(backendRan(modules, SHELL_GRAMMAR)).toEqual([]);
    expect(backendRan(modules, EXECA)).toEqual([]);
    expect(backendRan(modules, PROVIDER_SDK).length).toBeGreaterThan(0);
  });
});
