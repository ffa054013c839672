/**
 * The providers' SDKs stay out of the backend's bundle (bundling/vendored.mjs): an import() of the
 * package becomes an import of its own file, and any other way of importing it stops the build.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/tempDirs.ts';
import { vendoredExternal } from './vendored.mjs';

async function bundle(source: string) {
  const dir = tempDir('hermes-vendored-');
  writeFileSync(join(dir, 'entry.js'), source);
  return build({
    entryPoints: [join(dir, 'entry.js')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    nodePaths: [join(process.cwd(), 'node_modules')],
    plugins: [vendoredExternal({ openai: 'openai' })],
    logLevel: 'silent',
  });
}

describe('vendored packages', () => {
  it('makes import() of the package an import of its own file, and bundles none of it', async () => {
    const result = await bundle("export const sdk = () => import('openai');\n");
    const text = result.outputFiles[0]!.text;
    expect(text).toContain('import("./vendor/openai.cjs")');
    expect(text).not.toContain('node_modules/openai');
  });

  it.each([
    ['a static import', "import OpenAI from 'openai';\nexport default OpenAI;\n"],
    ['a subpath', "export const streaming = () => import('openai/streaming');\n"],
    ['require()', "module.exports = require('openai');\n"],
  ])('stops the build on %s, saying how to import it', async (_, source) => {
    await expect(bundle(source)).rejects.toThrow(/openai.* is built on its own into vendor\/.*import it only as import\('openai'\)/);
  });
});
