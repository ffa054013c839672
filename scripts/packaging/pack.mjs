#!/usr/bin/env node
// `npm run pack [-- --out DIR]`: one installable tarball, hermes-agent-<version>.tgz, holding the
// bundled TUI (with the demo model server) and backend; `npm i -g ./hermes-agent-<version>.tgz` gives
// `hermes` and `hermes-rpc`. What the bundles cannot carry comes from the registry at install: the
// packages they keep external (runtimeDependencies.mjs). The layout it installs:
//   bin/hermes.cjs, dist/            the TUI (runtime.ts: packageRoot, distDir)
//   rpc-server/bin/hermes-rpc.cjs,
//   rpc-server/dist/ (+ grammar/)    the backend, found by the TUI through the `#backend` import
//                                    that the TUI's package.json maps to @hermes/rpc-server in the repository
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildTargets } from '../build.mjs';
import { checkDependencyPatches } from './dependencyPatches.mjs';
import { runtimeDependencies } from './runtimeDependencies.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const readJson = (file) => JSON.parse(readFileSync(path.join(root, file), 'utf8'));

const PACKAGE_NAME = 'hermes-agent';

const writeJson = (file, value) => writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);

function copy(from, to) {
  mkdirSync(path.dirname(to), { recursive: true });
  copyFileSync(path.join(root, from), to);
}

/** Builds the shipped bundles into `stage` and writes the package there; gives its runtime dependencies. */
async function stagePackage(stage) {
  checkDependencyPatches(root);
  const rootManifest = readJson('package.json');
  const outdirs = { 'packages/tui/dist': path.join(stage, 'dist'), 'packages/rpc-server/dist': path.join(stage, 'rpc-server', 'dist') };
  // No source maps: they would triple the download and name files an installed copy does not have.
  // The metafiles' paths are relative to `root`, wherever pack runs from.
  const built = await buildTargets(['(TUI)', '(backend)'], { metafile: true, sourcemap: false, absWorkingDir: root }, (outdir) => {
    if (!outdirs[outdir]) throw new Error(`pack: no place in the package for ${outdir}`);
    return outdirs[outdir];
  });
  const { dependencies, optional } = runtimeDependencies(
    built.map((target) => target.result.metafile),
    root,
  );
  copy('packages/tui/bin/hermes.cjs', path.join(stage, 'bin', 'hermes.cjs'));
  copy('packages/rpc-server/bin/hermes-rpc.cjs', path.join(stage, 'rpc-server', 'bin', 'hermes-rpc.cjs'));
  copy('README.md', path.join(stage, 'README.md'));
  const backendManifest = readJson('packages/rpc-server/package.json');
  writeJson(path.join(stage, 'rpc-server', 'package.json'), {
    name: backendManifest.name,
    version: rootManifest.version,
    private: true,
    type: 'module',
    bin: backendManifest.bin,
  });
  writeJson(path.join(stage, 'package.json'), {
    name: PACKAGE_NAME,
    version: rootManifest.version,
    description: rootManifest.description,
    type: 'module',
    bin: { hermes: 'bin/hermes.cjs', 'hermes-rpc': `rpc-server/${backendManifest.bin['hermes-rpc']}` },
    imports: { '#backend/package.json': './rpc-server/package.json' },
    files: ['bin', 'dist', 'rpc-server', 'README.md'],
    engines: rootManifest.engines,
    dependencies,
  });
  return { dependencies, optional };
}

/** Packs the repository into `outDir`; gives the tarball's path, its size and what it depends on. */
export async function pack(outDir) {
  const stage = mkdtempSync(path.join(os.tmpdir(), 'hermes-pack-'));
  try {
    const { dependencies, optional } = await stagePackage(stage);
    mkdirSync(outDir, { recursive: true });
    const [report] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', outDir], { cwd: stage, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));
    const tarball = path.join(outDir, report.filename);
    return { tarball, bytes: statSync(tarball).size, unpackedBytes: report.unpackedSize, files: report.entryCount, dependencies, optional };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  const packed = await pack(path.resolve(values.out ?? root));
  const kB = (bytes) => `${Math.round(bytes / 1024)} kB`;
  process.stdout.write(
    `${path.relative(process.cwd(), packed.tarball) || packed.tarball}: ${kB(packed.bytes)} (${kB(packed.unpackedBytes)} unpacked, ${packed.files} files)\n` +
      `installs from the registry: ${Object.entries(packed.dependencies).map(([n, v]) => `${n}@${v}`).join(', ')}\n` +
      Object.entries(packed.optional).map(([n, by]) => `left out: ${n} (an optional peer of ${by}, imported only on demand)\n`).join(''),
  );
}
