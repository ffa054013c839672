/**
 * What a start loads before the prompt is usable, in the real bundles (TUI and backend) in a real
 * pseudo-terminal: every module file each process loads is logged by a module hook passed in
 * NODE_OPTIONS (the backend inherits it). The markdown renderer (marked, lowlight/highlight.js), the
 * approval gate's judge (its rules, loaded at the first tool call) and its shell grammar
 * (web-tree-sitter) must not be among them, nor execa (the TUI spawns the backend with
 * node:child_process; the backend loads it for its first command); the renderer does load once a
 * reply needs it, which shows the log sees lazily loaded chunks.
 */
import { readFileSync, writeFileSync } from 'node:fs';
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

/** The bundle files in the log whose text holds code from one of `sources` (esbuild marks each source with a `// path` comment). */
function filesHolding(log: string, sources: RegExp): string[] {
  const files = [...new Set(readFileSync(log, 'utf8').split('\n').filter((url) => /\/dist\/.*\.js$/.test(url)))].map((url) => fileURLToPath(url));
  return files.filter((file) => readFileSync(file, 'utf8').split('\n').some((line) => line.startsWith('// ') && sources.test(line)));
}

const MARKDOWN = /^\/\/ (node_modules\/(marked|lowlight|highlight\.js)\/|packages\/tui\/src\/markdown\/renderMarkdown\.ts)/;
const SHELL_GRAMMAR = /^\/\/ node_modules\/web-tree-sitter\//;
const JUDGE = /^\/\/ packages\/agent-core\/src\/approvals\/(judge\.ts|rules\/)/;
const EXECA = /^\/\/ node_modules\/execa\//;

describe('the start path', () => {
  it('loads neither the markdown renderer, the approval judge, its shell grammar nor execa before the prompt is usable; the renderer loads for a reply', async () => {
    const log = join(tempDir('hermes-load-log-'), 'loaded.txt');
    writeFileSync(log, '');
    const { hermes } = await hermesWithModel(running, { turns: [{ text: '## Done\n\nThe **cache** is warm.' }] }, { env: loadLogging(log) });
    const loaded = readFileSync(log, 'utf8');
    // The log sees both processes.
    expect(loaded).toMatch(/packages\/tui\/dist\/main\.js/);
    expect(loaded).toMatch(/packages\/rpc-server\/dist\/main\.js/);
    expect(filesHolding(log, MARKDOWN)).toEqual([]);
    expect(filesHolding(log, SHELL_GRAMMAR)).toEqual([]);
    expect(filesHolding(log, JUDGE)).toEqual([]);
    expect(filesHolding(log, EXECA)).toEqual([]);

    hermes.type('is the cache warm?');
    hermes.press('enter');
    await hermes.waitForText('The cache is warm.');
    expect(filesHolding(log, MARKDOWN)).toEqual([expect.stringMatching(/packages\/tui\/dist\/chunks\/.*\.js$/)]);
  });
});
