/**
 * `packages/tui/dist/main.cjs`, the built TUI's entry: runs the CommonJS bundle `dist/hermes.cjs`
 * with V8's code cache (runCached.ts). Built by scripts/build.mjs, which defines HERMES_BUNDLE_HASH;
 * from the sources, packages/tui/src/main.tsx runs directly.
 */
import { fileURLToPath } from 'node:url';
import { runCachedBundle } from './runCached.ts';
import { spawnEarly } from '../../../packages/tui/src/rpc/earlyBackend.ts';

declare const HERMES_BUNDLE_HASH: string;

const SUBCOMMANDS = new Set(['chat', 'sessions', 'approvals', 'plugins']);
const argv = process.argv.slice(2);
const subcommand = argv.find((arg) => SUBCOMMANDS.has(arg));
// Each kind of start compiles different code: each keeps its own cache. `--help` and `--version`
// compile next to nothing: a cache made by them would stand in for the TUI's and never be replaced.
// `hermes approvals check` creates nothing, not even a cache.
const uncached = subcommand === 'approvals' || argv.some((arg) => ['-h', '--help', '-v', '--version'].includes(arg));
// The TUI's backend starts before the bundle loads (packages/tui/src/rpc/earlyBackend.ts).
if (!subcommand) spawnEarly(argv);
runCachedBundle(fileURLToPath(new URL('./hermes.cjs', import.meta.url)), {
  buildHash: HERMES_BUNDLE_HASH,
  // A flag's value (`--model gpt-4o`) is not told from a plugin's command here: both are the TUI's.
  role: subcommand ?? 'tui',
  cache: !uncached,
  // The bundle's import() calls are made here, next to it, by Node's own loader.
  dynamicImport: (specifier, options) => import(specifier, options),
});
