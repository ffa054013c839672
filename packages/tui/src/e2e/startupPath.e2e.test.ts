/**
 * What a start runs before the prompt is usable, in the real bundles (TUI and backend) in a real
 * pseudo-terminal. The markdown renderer (marked, lowlight/highlight.js), the approval gate's judge
 * (its rules, loaded at the first tool call) and its shell grammar (web-tree-sitter) must not be
 * among them, nor execa (the TUI spawns the backend with node:child_process; the backend loads it for
 * its first command).
 *
 * Each process is one CommonJS bundle run through V8's code cache (scripts/bundling/codeCache/):
 * everything it may load later is in that file, each lazily loaded module wrapped in an init function
 * named by its path (esbuild's `__esm`/`__commonJS`), so V8's coverage (NODE_V8_COVERAGE, written at
 * exit) says which ran. It sees lazily loaded code: the renderer runs for a reply. The providers'
 * SDKs are not in the backend's bundle: each is a file of its own (dist/vendor/, scripts/build.mjs),
 * which V8's coverage lists once loaded, once a session is open (the backend readies its first model
 * call while it waits for a prompt; codeCache.e2e checks that a start alone loads none). A new session
 * loads the renderer on its own once its prompt has been idle a moment (app/sessionController.ts,
 * MARKDOWN_PRELOAD_MS): a start that quits at once never runs it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';
import { hermesWithModel, stopAll, type Running } from '../testing/realBackend.ts';

type Hermes = Awaited<ReturnType<typeof hermesWithModel>>['hermes'];

const running: Running = { hermes: [], servers: [] };
afterEach(() => stopAll(running));

type CoveredFunction = { functionName: string; ranges: { startOffset: number; endOffset: number; count: number }[]; source: string };

/** The functions of each script matching `script` in the coverage V8 wrote at the exits of the processes, with their source. */
function coveredFunctions(coverageDir: string, script: RegExp): CoveredFunction[] {
  const functions: CoveredFunction[] = [];
  for (const file of readdirSync(coverageDir)) {
    const { result } = JSON.parse(readFileSync(join(coverageDir, file), 'utf8')) as { result: { url: string; functions: Omit<CoveredFunction, 'source'>[] }[] };
    for (const found of result.filter((s) => script.test(s.url))) {
      const text = readFileSync(fileURLToPath(found.url), 'utf8');
      functions.push(...found.functions.map((fn) => ({ ...fn, source: text.slice(fn.ranges[0]!.startOffset, fn.ranges[0]!.endOffset) })));
    }
  }
  return functions;
}

/** For each module wrapped in `bundle` (path → ran). */
function modulesOf(coverageDir: string, bundle: RegExp): Map<string, boolean> {
  const modules = new Map<string, boolean>();
  for (const fn of coveredFunctions(coverageDir, bundle))
    if (/^(node_modules|packages)\//.test(fn.functionName)) modules.set(fn.functionName, (modules.get(fn.functionName) ?? false) || fn.ranges[0]!.count > 0);
  return modules;
}

/** How many times the function declared as `function name(` ran in `script` (not esbuild's export getters of that name). */
function calls(coverageDir: string, script: RegExp, name: string): number {
  return coveredFunctions(coverageDir, script).reduce((sum, fn) => sum + (fn.source.startsWith(`function ${name}(`) ? fn.ranges[0]!.count : 0), 0);
}

/** Whether a process loaded a script matching `script` (V8's coverage lists each script compiled). */
function loaded(coverageDir: string, script: RegExp): boolean {
  return readdirSync(coverageDir).some((file) =>
    (JSON.parse(readFileSync(join(coverageDir, file), 'utf8')) as { result: { url: string }[] }).result.some((s) => script.test(s.url)),
  );
}

/** Modules matching `sources` that ran; throws when none is wrapped (then it is not loaded lazily at all). */
function ran(modules: Map<string, boolean>, sources: RegExp): string[] {
  const matching = [...modules].filter(([path]) => sources.test(path));
  if (matching.length === 0) throw new Error(`no lazily loaded module of the bundle matches ${sources}: is it imported on the start path?`);
  return matching.filter(([, didRun]) => didRun).map(([path]) => path);
}

const TUI = /\/tui\/dist\/hermes\.cjs$/;
const LAUNCHER = /\/tui\/dist\/main\.cjs$/;
const BACKEND = /\/rpc-server\/dist\/hermes-rpc\.cjs$/;
const MARKDOWN = /^(node_modules\/(marked|lowlight|highlight\.js)\/|packages\/tui\/src\/markdown\/renderMarkdown\.ts)/;
const SHELL_GRAMMAR = /^node_modules\/web-tree-sitter\//;
const JUDGE = /^packages\/agent-core\/src\/approvals\/(judge\.ts|rules\/)/;
const EXECA = /^node_modules\/execa\//;
const PROVIDER_SDK = /\/rpc-server\/dist\/vendor\/openai\.cjs$/;
const MCP_SDK = /^node_modules\/@modelcontextprotocol\/sdk\//;

/** Runs hermes with coverage (and a code cache of its own: a start without one compiles what it runs), `act`, then quits; gives the coverage dir. */
async function coveredRun(act: (hermes: Hermes, home: string) => Promise<void>): Promise<string> {
  const coverage = tempDir('hermes-coverage-');
  const home = tempDir('hermes-home-');
  const env = { NODE_V8_COVERAGE: coverage, HERMES_CODE_CACHE_DIR: tempDir('hermes-code-cache-') };
  const { hermes } = await hermesWithModel(running, { turns: [{ text: '## Done\n\nThe **cache** is warm.' }] }, { env, home });
  await act(hermes, home);
  await hermes.waitForText(/● ready/);
  hermes.press('ctrl-d');
  expect((await hermes.exited).exitCode).toBe(0);
  // The backend writes its coverage when it exits, after the TUI closed its stdin.
  await expect.poll(() => modulesOf(coverage, BACKEND).size > 0, { timeout: 10_000 }).toBe(true);
  return coverage;
}

describe('the start path', () => {
  it('runs neither the markdown renderer, the approval judge, its shell grammar, execa nor the MCP client before the prompt is usable; the renderer and the provider SDK run for a reply', async () => {
    const started = await coveredRun(async () => {});
    const tui = modulesOf(started, TUI);
    expect(ran(tui, MARKDOWN)).toEqual([]);
    expect(ran(tui, EXECA)).toEqual([]);
    const backend = modulesOf(started, BACKEND);
    expect(ran(backend, JUDGE)).toEqual([]);
    expect(ran(backend, SHELL_GRAMMAR)).toEqual([]);
    expect(ran(backend, EXECA)).toEqual([]);
    expect([...backend.keys()].filter((path) => /^node_modules\/(openai|@anthropic-ai\/sdk)\//.test(path))).toEqual([]);
    // No MCP server is configured: its client never loads.
    expect(ran(backend, MCP_SDK)).toEqual([]);
    // The backend is spawned by the launcher, before the TUI's bundle loads (rpc/earlyBackend.ts); the
    // bundle takes it over and spawns none of its own.
    expect(calls(started, LAUNCHER, 'spawnBackend')).toBe(1);
    expect(calls(started, TUI, 'spawnBackend')).toBe(0);

    // The same coverage sees lazily loaded code run.
    const replied = await coveredRun(async (hermes) => {
      hermes.type('is the cache warm?');
      hermes.press('enter');
      await hermes.waitForText('The cache is warm.');
    });
    expect(ran(modulesOf(replied, TUI), MARKDOWN)).toEqual(expect.arrayContaining(['packages/tui/src/markdown/renderMarkdown.ts']));
    expect(loaded(replied, PROVIDER_SDK)).toBe(true);
  });

  it('loads the markdown renderer once a new session has been idle a moment, before any reply', async () => {
    const idle = await coveredRun(async (_hermes, home) => {
      const log = () => (existsSync(join(home, 'logs', 'tui.log')) ? readFileSync(join(home, 'logs', 'tui.log'), 'utf8') : '');
      await expect.poll(() => log().includes('markdown renderer preloaded'), { timeout: 20_000 }).toBe(true);
    });
    expect(ran(modulesOf(idle, TUI), MARKDOWN)).toEqual(expect.arrayContaining(['packages/tui/src/markdown/renderMarkdown.ts']));
    // The model was not asked anything: the renderer loaded on its own, and the backend readied the
    // model's first call (its SDK) once the session was open.
    expect(loaded(idle, PROVIDER_SDK)).toBe(true);
  });
});
