import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Vitest global setup: end-to-end tests run the shipped bundles, so build them first (esbuild takes
 * about a second). Set HERMES_SKIP_BUILD=1 when the build has just been run.
 */
export default function setup(): void {
  if (process.env.HERMES_SKIP_BUILD === '1') return;
  const root = path.dirname(path.dirname(path.dirname(fileURLToPath(import.meta.url))));
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { stdio: 'inherit', cwd: root });
}
