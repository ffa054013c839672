/**
 * One namespace per Node builtin in a CommonJS bundle (bundling/builtinNamespaces.mjs): the bundle
 * behaves as esbuild wrote it, its source map positions stay put, and other modules keep their own.
 */
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/tempDirs.ts';
import { BUILTIN_NAMESPACE, shareBuiltinNamespaces } from './builtinNamespaces.mjs';

interface Exported {
  fsA: typeof import('node:fs') & { default: typeof import('node:fs') };
  fsB: typeof import('node:fs') & { default: typeof import('node:fs') };
  pathA: typeof import('node:path');
  libA: { default: { answer: number } };
  libB: { default: { answer: number } };
  read: () => string;
}

/** Two ES modules importing node:fs (default and namespace), node:path and a CommonJS file, bundled as the build bundles. */
async function bundled(): Promise<{ dir: string; text: string }> {
  const dir = tempDir('hermes-builtin-ns-');
  writeFileSync(join(dir, 'lib.cjs'), 'module.exports = { answer: 42 };\n');
  writeFileSync(join(dir, 'a.mjs'), "import fs from 'node:fs';\nimport * as fsA from 'node:fs';\nimport * as pathA from 'node:path';\nimport lib from './lib.cjs';\nexport { fsA, pathA };\nexport const libA = lib;\nexport const read = () => fs.readFileSync(pathA.join(import.meta.dirname ?? __dirname, 'lib.cjs'), 'utf8');\n");
  writeFileSync(join(dir, 'b.mjs'), "import * as fsB from 'node:fs';\nimport * as libB from './lib.cjs';\nexport { fsB, libB };\n");
  writeFileSync(join(dir, 'entry.mjs'), "export * from './a.mjs';\nexport * from './b.mjs';\n");
  const result = await build({ entryPoints: [join(dir, 'entry.mjs')], bundle: true, platform: 'node', format: 'cjs', minifyWhitespace: true, write: false, logLevel: 'silent' });
  return { dir, text: result.outputFiles[0]!.text };
}

/** Requires `text` as a new file (require() would give a file it loaded before from its cache). */
function run(dir: string, text: string, name: string): Exported {
  const file = join(dir, `${name}.cjs`);
  writeFileSync(file, text);
  return createRequire(file)(file) as Exported;
}

describe('shareBuiltinNamespaces', () => {
  it('gives every import of a builtin one namespace, which reads as esbuild made it, and leaves other modules theirs', async () => {
    const { dir, text } = await bundled();
    const before = run(dir, text, 'before');
    expect(before.fsA).not.toBe(before.fsB);

    const shared = shareBuiltinNamespaces(text);
    expect(shared.match(new RegExp(`${BUILTIN_NAMESPACE}\\(require\\("node:`, 'g'))).toHaveLength(4);
    const after = run(dir, shared, 'after');
    expect(after.fsA).toBe(after.fsB);
    expect(after.fsA.default).toBe(createRequire(import.meta.url)('node:fs'));
    expect(after.fsB.readFileSync).toBe(before.fsB.readFileSync);
    expect(after.pathA.join('a', 'b')).toBe(join('a', 'b'));
    expect(after.read()).toContain('answer: 42');
    expect(after.libA).toEqual(before.libA);
    expect(after.libB.default).toEqual({ answer: 42 });
    expect(after.libB).not.toBe(after.libA);
  });

  it('moves no position of the bundle: each line keeps its length, the helper comes after them', async () => {
    const { text } = await bundled();
    const withMap = `${text}//# sourceMappingURL=out.cjs.map\n`;
    const shared = shareBuiltinNamespaces(withMap).split('\n');
    const lines = withMap.split('\n');
    const mapLine = shared.findIndex((line) => line.startsWith('//# sourceMappingURL='));
    expect(shared[mapLine - 1]).toMatch(new RegExp(`^function ${BUILTIN_NAMESPACE}\\(`));
    expect(shared.slice(0, mapLine - 1).map((line) => line.length)).toEqual(lines.slice(0, lines.length - 2).map((line) => line.length));
  });

  it('leaves a bundle without builtin imports as it is', () => {
    const source = 'var lib = __toESM(require("./lib.cjs"), 1);\n';
    expect(shareBuiltinNamespaces(source)).toBe(source);
  });
});
