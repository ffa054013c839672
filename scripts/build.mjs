#!/usr/bin/env node
// Bundles the shipped commands with esbuild: `hermes` (TUI), `hermes-rpc` (backend), the demo model
// server, and each package's library entry. Bundles start far faster than the unbundled ESM graph
// (see shared STACK.md, trap 4). Workspace packages are read from source via the `source` condition.
// scripts/packaging/pack.mjs imports `buildTargets` to build the shipped bundles with their metafiles.
import { build } from 'esbuild';
import { pluginImportRouted, routeDynamicImports } from './bundling/codeCache/dynamicImports.mjs';
import { inkWithoutDevtools, stringWidthLazyEmoji, yogaSync } from './bundling/sourcePatches.mjs';
import { shareBuiltinNamespaces } from './bundling/builtinNamespaces.mjs';
import { vendoredExternal, vendorSpecifier } from './bundling/vendored.mjs';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const at = (p) => path.join(root, p);
// The one source of the version (rpc-server/src/version.ts reads it where no bundle injected it).
const { version } = JSON.parse(readFileSync(at('package.json'), 'utf8'));

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
  // tsx (TypeScript plugins): it registers its loader hooks by URL from its own files (module.register
  // of ./esm/index.mjs) and compiles with esbuild's native binary; neither can live in a bundle. The
  // installed package gets what stays external from the registry (scripts/packaging/runtimeDependencies.mjs).
  external: ['better-sqlite3', 'react-devtools-core', 'tsx'],
  define: { 'process.env.NODE_ENV': '"production"', HERMES_BUILD_VERSION: JSON.stringify(version) },
};

/**
 * The bash grammar the approval judge loads (agent-core approvals/bashParser.ts), copied beside the
 * backend's bundle: an installed hermes has no node_modules holding it.
 */
function copyGrammar(outdir) {
  const require = createRequire(at('packages/agent-core/package.json'));
  mkdirSync(path.join(outdir, 'grammar'), { recursive: true });
  for (const file of ['web-tree-sitter/web-tree-sitter.wasm', 'tree-sitter-bash/tree-sitter-bash.wasm']) {
    copyFileSync(require.resolve(file), path.join(outdir, 'grammar', path.basename(file)));
  }
}

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
    vendored: { packages: { '@anthropic-ai/sdk': 'anthropic-sdk', openai: 'openai' }, importer: 'packages/agent-core' },
    after: copyGrammar,
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
    // Every package stays external but eventsource-parser, which is bundled: its own `source` condition
    // points at TypeScript that Node cannot load, and tsx (which applies tsconfig's customConditions to
    // node_modules too) loads that as an empty module, so `createParser` was missing for any script
    // run with tsx that imports this library (the benchmarks do).
    external: [...Object.keys(JSON.parse(readFileSync(at('packages/agent-core/package.json'), 'utf8')).dependencies).filter((name) => name !== 'eventsource-parser'), '@hermes/*'],
  },
  { name: 'plugin-host library', outdir: 'packages/plugin-host/dist', entryPoints: { index: 'packages/plugin-host/src/index.ts' }, packages: 'external' },
];

/**
 * esbuild's options for a CommonJS file run through V8's code cache: the bundle and its vendored files.
 * No comments (whose non-ASCII text made the whole source a two-byte string, decoded from UTF-8 at each
 * start: ~10 ms for the backend); the file is then ASCII and read as such. The linked source map leads
 * positions back to the sources. Strict as the ES modules it is made of; `import.meta.url` is the file's
 * own URL.
 */
const cachedCommonJs = {
  format: 'cjs',
  minifyWhitespace: true,
  banner: { js: '"use strict"; var __hermesImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
  define: { ...common.define, 'import.meta.url': '__hermesImportMetaUrl' },
};

/**
 * Routes the import() calls of a CommonJS file built for the code cache (dynamicImports.mjs), shares
 * one namespace per Node builtin (builtinNamespaces.mjs), warns when it is not ASCII, and gives its
 * content hash (the launcher's cheap staleness check).
 */
async function finishCachedFile(file) {
  writeFileSync(file, shareBuiltinNamespaces(await routeDynamicImports(readFileSync(file, 'utf8'))));
  const text = readFileSync(file);
  // runCached.ts reads an ASCII file without UTF-8 decoding; esbuild escapes non-ASCII text except in
  // regular expression literals (write `\u00a7` there).
  const nonAscii = /[^\0-\x7f]/.exec(text.toString('utf8'));
  if (nonAscii) process.stderr.write(`warning: ${path.basename(file)} is not ASCII (…${text.toString('utf8').slice(nonAscii.index - 40, nonAscii.index + 10)}…): it starts slower\n`);
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** Builds each vendored package into `outdir`/vendor/, resolved as `importer` resolves it; gives the esbuild results and `{ specifier: hash }`. */
async function buildVendored(outdir, { packages, importer }, extraOptions) {
  const built = await Promise.all(
    Object.entries(packages).map(async ([name, file]) => {
      const outfile = path.join(outdir, vendorSpecifier(file));
      const result = await build({
        ...common,
        ...extraOptions,
        ...cachedCommonJs,
        stdin: { contents: `export * from '${name}';\nexport { default } from '${name}';\n`, resolveDir: at(importer), sourcefile: `${name} (vendored)` },
        outfile,
      });
      return { result, specifier: vendorSpecifier(file), hash: await finishCachedFile(outfile) };
    }),
  );
  return { results: built.map((b) => b.result), hashes: Object.fromEntries(built.map((b) => [b.specifier, b.hash])) };
}

/**
 * A process started through V8's code cache (scripts/bundling/codeCache/runCached.ts): one CommonJS
 * bundle (vm.Script takes cached data, Node 20's ESM loader does not; CommonJS cannot be split, so
 * lazily imported code is in it too, compiled only when first run, but for the vendored packages),
 * then `main.cjs`, the launcher that runs it, told the content hashes of the bundle and its vendored files.
 */
async function buildCached({ outdir, cached, vendored, plugins = [] }, extra) {
  const { plugins: extraPlugins = [], ...extraOptions } = extra;
  const bundle = path.join(outdir, cached.bundle);
  const vendors = vendored ? buildVendored(outdir, vendored, extraOptions) : Promise.resolve({ results: [], hashes: {} });
  const result = await build({
    ...common,
    ...extraOptions,
    ...cachedCommonJs,
    entryPoints: [at(cached.entry)],
    outfile: bundle,
    plugins: [...extraPlugins, ...plugins, ...(vendored ? [vendoredExternal(vendored.packages)] : []), pluginImportRouted],
    // One CommonJS file holds the lazily imported MCP client too, so the zod modules it shares with our
    // eager code are wrapped in esbuild's lazy initialisers. esbuild then initialises them for a direct
    // import (the SDK's `zod/v4-mini`) but not through `zod/mini`, a second entry re-exporting the same
    // file (`export *`): our schemas ran before zod's and the backend died at start. One entry for both.
    alias: { 'zod/mini': 'zod/v4-mini' },
  });
  const buildHash = await finishCachedFile(bundle);
  const { results: vendorResults, hashes: moduleHashes } = await vendors;
  // The launcher is CommonJS too (`main.cjs`, started by the CommonJS bin): Node starts an ES module
  // entry ~10 ms later (its ESM loader), and the backend's start is the prompt's critical path.
  await build({
    ...common,
    ...extraOptions,
    ...cachedCommonJs,
    minifyWhitespace: false,
    metafile: false,
    entryPoints: { main: at(cached.launcher) },
    outdir,
    outExtension: { '.js': '.cjs' },
    external: [],
    // Its import() stays an import(): Node resolves it at run time, next to the launcher.
    supported: { 'dynamic-import': true },
    define: { ...cachedCommonJs.define, HERMES_BUNDLE_HASH: JSON.stringify(buildHash), HERMES_MODULE_HASHES: JSON.stringify(moduleHashes) },
    logOverride: { 'unsupported-dynamic-import': 'silent' },
  });
  // One metafile for the target: what the vendored files import is part of what it needs at run time.
  for (const vendor of vendorResults) if (result.metafile && vendor.metafile) Object.assign(result.metafile.inputs, vendor.metafile.inputs);
  return result;
}

/**
 * Builds the targets whose name contains one of `words` (all when none), each outdir emptied first.
 * `extra` is added to each target's esbuild options (the packaging script asks for metafiles, no
 * source maps); `outdirs` maps a target's outdir (as in `targets`) to another (the packaging
 * script's staging folder, so the repository's own bundles are left alone). Gives each target's
 * name, outdir and esbuild result (for a cached target, its bundle's).
 */
export async function buildTargets(words = [], extra = {}, outdirs = (outdir) => at(outdir)) {
  const selected = words.length ? targets.filter((t) => words.some((word) => t.name.includes(word))) : targets;
  for (const dir of new Set(selected.map((t) => outdirs(t.outdir)))) rmSync(dir, { recursive: true, force: true });
  return Promise.all(
    selected.map(async ({ name, outdir: targetOutdir, entryPoints, after, ...rest }) => {
      const outdir = outdirs(targetOutdir);
      try {
        let result;
        if (rest.cached) result = await buildCached({ outdir, ...rest }, extra);
        else {
          const entries = Object.fromEntries(Object.entries(entryPoints).map(([k, v]) => [k, at(v)]));
          result = await build({ ...common, ...rest, ...extra, entryPoints: entries, outdir, chunkNames: 'chunks/[name]-[hash]' });
        }
        after?.(outdir);
        return { name, outdir, result };
      } catch (error) {
        process.stderr.write(`build of ${name} failed\n`);
        throw error;
      }
    }),
  );
}

// `node scripts/build.mjs backend` builds only the targets whose name contains one of the words.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = performance.now();
  const built = await buildTargets(process.argv.slice(2));
  process.stdout.write(`built ${built.length} targets in ${Math.round(performance.now() - started)} ms\n`);
}
