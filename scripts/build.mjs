#!/usr/bin/env node
// Bundles the shipped commands with esbuild: `hermes` (TUI), `hermes-rpc` (backend), the demo model
// server, and each package's library entry. Bundles start far faster than the unbundled ESM graph
// (see shared STACK.md, trap 4). Workspace packages are read from source via the `source` condition.
import { build } from 'esbuild';
import { pluginImportRouted, routeDynamicImports } from './bundling/codeCache/dynamicImports.mjs';
import { inkWithoutDevtools, stringWidthLazyEmoji, yogaSync } from './bundling/sourcePatches.mjs';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const at = (p) => path.join(root, p);

// CommonJS dependencies inside an ESM bundle call require(); give them one.
const banner = {
  js: "import { createRequire as __hermesCreateRequire } from 'node:module'; const require = __hermesCreateRequire(import.meta.url);",
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  conditions: ['source'],
  banner,
  sourcemap: 'linked',
  logLevel: 'warning',
  // Native addon: loaded from node_modules at run time. react-devtools-core: Ink's optional dev tool.
  // tsx (TypeScript plugins): its loader registers files next to its own module, which a bundle lacks.
  external: ['better-sqlite3', 'react-devtools-core', 'tsx'],
  define: { 'process.env.NODE_ENV': '"production"' },
};

const targets = [
  {
    name: 'hermes (TUI)',
    outdir: 'packages/tui/dist',
    cached: { bundle: 'hermes.cjs', entry: 'packages/tui/src/main.tsx', launcher: 'scripts/bundling/codeCache/launchTui.ts' },
    plugins: [...yogaSync, stringWidthLazyEmoji, inkWithoutDevtools],
  },
  { name: 'hermes (TUI) demo model server', outdir: 'packages/tui/dist', entryPoints: { 'demo-model-server': 'scripts/model-server/cli.ts' } },
  {
    name: 'hermes-rpc (backend)',
    outdir: 'packages/rpc-server/dist',
    cached: { bundle: 'hermes-rpc.cjs', entry: 'packages/rpc-server/src/main.ts', launcher: 'scripts/bundling/codeCache/launchBackend.ts' },
  },
  {
    name: 'rpc-server library',
    outdir: 'packages/rpc-server/dist',
    entryPoints: { protocol: 'packages/rpc-server/src/protocol/index.ts', transport: 'packages/rpc-server/src/transport/index.ts' },
    packages: 'external',
  },
  {
    name: 'agent-core library',
    outdir: 'packages/agent-core/dist',
    entryPoints: {
      index: 'packages/agent-core/src/index.ts',
      contract: 'packages/agent-core/src/contract/index.ts',
      contractValues: 'packages/agent-core/src/contract/values.ts',
    },
    packages: 'external',
  },
  { name: 'plugin-host library', outdir: 'packages/plugin-host/dist', entryPoints: { index: 'packages/plugin-host/src/index.ts' }, packages: 'external' },
];

// `node scripts/build.mjs backend` builds only the targets whose name contains one of the words.
const only = process.argv.slice(2);
const selected = only.length ? targets.filter((t) => only.some((word) => t.name.includes(word))) : targets;

for (const dir of new Set(selected.map((t) => t.outdir))) rmSync(at(dir), { recursive: true, force: true });

/**
 * A process started through V8's code cache (scripts/bundling/codeCache/runCached.ts): one CommonJS
 * bundle (vm.Script takes cached data, Node 20's ESM loader does not; CommonJS cannot be split, so
 * lazily imported code is in it too, compiled only when first run), then `main.js`, the launcher that
 * runs it, told the bundle's content hash.
 */
async function buildCached({ outdir, cached, plugins = [] }) {
  const bundle = path.join(at(outdir), cached.bundle);
  await build({
    ...common,
    format: 'cjs',
    entryPoints: [at(cached.entry)],
    outfile: bundle,
    plugins: [...plugins, pluginImportRouted],
    // No comments (whose non-ASCII text made the whole source a two-byte string, decoded from UTF-8 at
    // each start: ~10 ms for the backend); the file is then ASCII and read as such. The linked source
    // map leads positions back to the sources.
    minifyWhitespace: true,
    // Strict as the ES modules it is made of; `import.meta.url` is the bundle's own URL.
    banner: { js: '"use strict"; var __hermesImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
    define: { ...common.define, 'import.meta.url': '__hermesImportMetaUrl' },
  });
  writeFileSync(bundle, await routeDynamicImports(readFileSync(bundle, 'utf8')));
  const text = readFileSync(bundle);
  // runCached.ts reads an ASCII bundle without UTF-8 decoding; esbuild escapes non-ASCII text except in
  // regular expression literals (write `\u00a7` there).
  const nonAscii = /[^\0-\x7f]/.exec(text.toString('utf8'));
  if (nonAscii) process.stderr.write(`warning: ${cached.bundle} is not ASCII (…${text.toString('utf8').slice(nonAscii.index - 40, nonAscii.index + 10)}…): it starts slower\n`);
  const buildHash = createHash('sha256').update(text).digest('hex').slice(0, 16);
  await build({
    ...common,
    entryPoints: { main: at(cached.launcher) },
    outdir: at(outdir),
    external: [],
    define: { ...common.define, HERMES_BUNDLE_HASH: JSON.stringify(buildHash) },
    // Its import(specifier, options) is meant for run time, where Node resolves it.
    logOverride: { 'unsupported-dynamic-import': 'silent' },
  });
}

const started = performance.now();
await Promise.all(
  selected.map(async ({ name, outdir, entryPoints, ...rest }) => {
    try {
      if (rest.cached) return await buildCached({ outdir, ...rest });
      const entries = Object.fromEntries(Object.entries(entryPoints).map(([k, v]) => [k, at(v)]));
      await build({ ...common, ...rest, entryPoints: entries, outdir: at(outdir), chunkNames: 'chunks/[name]-[hash]' });
    } catch (error) {
      process.stderr.write(`build of ${name} failed\n`);
      throw error;
    }
  }),
);
process.stdout.write(`built ${selected.length} targets in ${Math.round(performance.now() - started)} ms\n`);
