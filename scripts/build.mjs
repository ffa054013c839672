#!/usr/bin/env node
// Bundles the shipped commands with esbuild: `hermes` (TUI), `hermes-rpc` (backend), the demo model
// server, and each package's library entry. Bundles start far faster than the unbundled ESM graph
// (see shared STACK.md, trap 4). Workspace packages are read from source via the `source` condition.
import { build } from 'esbuild';
import { stringWidthLazyEmoji, yogaWithoutFetch } from './bundling/sourcePatches.mjs';
import { rmSync } from 'node:fs';
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
    entryPoints: { main: 'packages/tui/src/main.tsx', 'demo-model-server': 'scripts/model-server/cli.ts' },
    splitting: true,
    plugins: [yogaWithoutFetch, stringWidthLazyEmoji],
  },
  { name: 'hermes-rpc (backend)', outdir: 'packages/rpc-server/dist', entryPoints: { main: 'packages/rpc-server/src/main.ts' }, splitting: true },
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

const started = performance.now();
await Promise.all(
  selected.map(async ({ name, outdir, entryPoints, ...rest }) => {
    const entries = Object.fromEntries(Object.entries(entryPoints).map(([k, v]) => [k, at(v)]));
    try {
      await build({ ...common, ...rest, entryPoints: entries, outdir: at(outdir), chunkNames: 'chunks/[name]-[hash]' });
    } catch (error) {
      process.stderr.write(`build of ${name} failed\n`);
      throw error;
    }
  }),
);
process.stdout.write(`built ${selected.length} targets in ${Math.round(performance.now() - started)} ms\n`);
