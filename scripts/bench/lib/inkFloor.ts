/**
 * The floor for startup and key echo: a bundled Ink hello-world that draws a prompt line and echoes typed
 * keys into it. Bundled with esbuild the way scripts/build.mjs bundles the TUI (ESM, production React),
 * so what separates hermes from it is hermes's own work, not Ink's or the module loader's.
 *
 *   const script = await inkFloorScript();           // path of the bundle, built once and cached
 *   spawnInPty(process.execPath, [script]);           // screen shows `${INK_FLOOR_PROMPT}` then the keys typed
 *   spawnInPty(process.execPath, [script, '--incremental']);  // the same with Ink's incrementalRendering
 *
 * The bundle is cached under <os.tmpdir()>/hermes-bench-cache/, keyed by its source and the versions of
 * Ink, React and esbuild, so a change to any of them rebuilds it. Ctrl+C exits.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { BENCH_CACHE } from './figures.ts';

/** The text the floor's prompt line starts with; typed keys appear right after it. */
export const INK_FLOOR_PROMPT = 'ink-floor> ';

/** The repository whose node_modules holds the Ink, React and esbuild the floor is built from. */
const BENCH_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

const SOURCE = `
import React, { useState } from 'react';
import { render, Box, Text, useInput } from 'ink';

const h = React.createElement;

function Prompt() {
  const [text, setText] = useState('');
  useInput((input, key) => {
    if (key.backspace || key.delete) setText((t) => t.slice(0, -1));
    else if (!key.ctrl && !key.meta && input) setText((t) => t + input);
  });
  return h(Box, { borderStyle: 'round', paddingX: 1 }, h(Text, null, ${JSON.stringify(INK_FLOOR_PROMPT)} + text));
}

render(h(Prompt), { incrementalRendering: process.argv.includes('--incremental') });
`;

function versionOf(pkg: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(BENCH_ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string };
  return manifest.version;
}

function inkPatches(): string {
  const dir = path.join(BENCH_ROOT, 'patches');
  if (!fs.existsSync(dir)) return '';
  return fs.readdirSync(dir).filter((name) => name.startsWith('ink+')).sort().map((name) => fs.readFileSync(path.join(dir, name), 'utf8')).join('\n');
}

let pending: Promise<string> | undefined;

/** The path of the bundled floor script (plain `node <path>` runs it), building it on first use. */
export function inkFloorScript(): Promise<string> {
  pending ??= buildOnce();
  return pending;
}

async function buildOnce(): Promise<string> {
  const key = createHash('sha256')
    .update(SOURCE)
    .update(['ink', 'react', 'esbuild'].map(versionOf).join('|'))
    // patch-package's fixes to Ink (patches/) change what gets bundled at the same version.
    .update(inkPatches())
    .digest('hex')
    .slice(0, 16);
  const dir = BENCH_CACHE;
  const script = path.join(dir, `ink-floor-${key}.mjs`);
  if (fs.existsSync(script)) return script;
  fs.mkdirSync(dir, { recursive: true });
  const result = await build({
    stdin: { contents: SOURCE, resolveDir: BENCH_ROOT, loader: 'js', sourcefile: 'ink-floor.js' },
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    write: false,
    logLevel: 'warning',
    // As scripts/build.mjs: CommonJS dependencies inside an ESM bundle call require().
    banner: { js: "import { createRequire as __floorCreateRequire } from 'node:module'; const require = __floorCreateRequire(import.meta.url);" },
    // Ink imports its optional dev tool only when DEV=true; hermes's build leaves it in a chunk never loaded,
    // a single-file bundle has to stand it in with an empty module.
    plugins: [{ name: 'no-devtools', setup: (b) => {
      b.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: 'react-devtools-core', namespace: 'no-devtools' }));
      b.onLoad({ filter: /.*/, namespace: 'no-devtools' }, () => ({ contents: 'export default {};', loader: 'js' }));
    } }],
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const code = result.outputFiles[0]?.contents;
  if (!code) throw new Error('esbuild produced no output for the Ink floor');
  // Written under a unique name and renamed: benchmarks running at the same time never see half a file.
  const partial = `${script}.${process.pid}.partial`;
  fs.writeFileSync(partial, code);
  fs.renameSync(partial, script);
  return script;
}
