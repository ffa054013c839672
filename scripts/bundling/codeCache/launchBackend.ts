/**
 * `packages/rpc-server/dist/main.cjs`, the built backend's entry: runs the CommonJS bundle
 * `dist/hermes-rpc.cjs` with V8's code cache (runCached.ts), and the files in `dist/vendor/` when it
 * first imports them. Built by scripts/build.mjs, which defines HERMES_BUNDLE_HASH and
 * HERMES_MODULE_HASHES; from the sources, packages/rpc-server/src/main.ts runs directly.
 */
import { fileURLToPath } from 'node:url';
import { runCachedBundle } from './runCached.ts';

declare const HERMES_BUNDLE_HASH: string;
/** The bundle's vendored files (the providers' SDKs), by the specifier it imports them with, and their hashes. */
declare const HERMES_MODULE_HASHES: Record<string, string>;

const argv = process.argv.slice(2);
// Each kind of start compiles different code: each keeps its own cache.
const role = argv.includes('--judge-only') ? 'judge' : argv.includes('--discover-plugins-only') ? 'discover' : 'serve';
runCachedBundle(fileURLToPath(new URL('./hermes-rpc.cjs', import.meta.url)), {
  buildHash: HERMES_BUNDLE_HASH,
  role,
  modules: HERMES_MODULE_HASHES,
  // `--judge-only` (`hermes approvals check`) creates nothing, not even a cache.
  cache: role !== 'judge',
  // The bundle's import() calls (tsx, Node builtins) are made here, next to it, by Node's own loader.
  dynamicImport: (specifier, options) => import(specifier, options),
});
