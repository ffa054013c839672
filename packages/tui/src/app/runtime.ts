/**
 * Where this copy of hermes runs from: the esbuild bundle (`dist/hermes.cjs`, started by
 * `dist/main.cjs`) or the TypeScript sources (`src/main.tsx` under tsx). Computed once by the entry
 * module, whose own URL is reliable (in the bundle, `import.meta.url` is the bundle's).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Runtime {
  bundled: boolean;
  /** `packages/tui`. */
  packageRoot: string;
  /** `packages/tui/dist` when bundled. */
  distDir?: string;
  /** The repository root, for developer tooling run from a source checkout. */
  repoRoot: string;
}

export function runtimeFrom(entryUrl: string): Runtime {
  const entryFile = fileURLToPath(entryUrl);
  const bundled = !/\.tsx?$/.test(entryFile);
  const entryDir = dirname(entryFile);
  const packageRoot = dirname(entryDir);
  return {
    bundled,
    packageRoot,
    distDir: bundled ? entryDir : undefined,
    repoRoot: join(packageRoot, '..', '..'),
  };
}
