/**
 * The installed package's dependencies come from what the bundles really leave external (esbuild's
 * metafile of a real build), pinned to the versions installed, with optional peers left out.
 */
import fs from 'node:fs';
import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/tempDirs.ts';
import { runtimeDependencies } from './runtimeDependencies.mjs';

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/** A workspace: app (importing `native`, and `lib`, which imports `devtools` as an optional peer), built with both external. */
async function workspace(appDependencies: Record<string, string>): Promise<{ root: string; metafile: Metafile }> {
  const root = tempDir('hermes-runtime-deps-');
  write(path.join(root, 'app', 'package.json'), JSON.stringify({ name: 'app', dependencies: appDependencies }));
  write(path.join(root, 'app', 'main.js'), "import native from 'native/sub';\nimport 'lib';\nimport 'node:fs';\nexport default native;\n");
  write(path.join(root, 'node_modules', 'native', 'package.json'), JSON.stringify({ name: 'native', version: '3.2.1' }));
  write(path.join(root, 'node_modules', 'lib', 'package.json'), JSON.stringify({ name: 'lib', version: '1.0.0', main: 'index.js', peerDependenciesMeta: { devtools: { optional: true } } }));
  write(path.join(root, 'node_modules', 'lib', 'index.js'), "export const load = () => import('devtools');\n");
  const { metafile } = await build({
    entryPoints: [path.join(root, 'app', 'main.js')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    write: false,
    metafile: true,
    absWorkingDir: root,
    external: ['native', 'devtools'],
    logLevel: 'silent',
  });
  return { root, metafile };
}

describe('runtimeDependencies', () => {
  it('pins each external its importer declares to the installed version, and leaves out optional peers', async () => {
    const { root, metafile } = await workspace({ native: '^3.0.0' });
    expect(runtimeDependencies([metafile], root)).toEqual({ dependencies: { native: '3.2.1' }, optional: { devtools: 'lib' } });
  });

  it('an external that its importer does not declare is an error naming the file and the fix', async () => {
    const { root, metafile } = await workspace({});
    expect(() => runtimeDependencies([metafile], root)).toThrow(
      `app/main.js imports native/sub, which the bundles keep external, but ${path.join(root, 'app', 'package.json')} does not declare native: add it to its dependencies`,
    );
  });
});
