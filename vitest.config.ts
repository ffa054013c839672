import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * eventsource and eventsource-parser (the MCP SDK's SSE client) publish a `source` condition of their
 * own, pointing at TypeScript Node cannot load: they are pinned to their built files. Workers run with
 * `--conditions source`, so the SDK's two modules that import them are inlined (resolved by vite, which
 * applies the aliases).
 */
const builtEventsource = [
  { find: /^eventsource$/, replacement: fileURLToPath(new URL('./node_modules/eventsource/dist/index.js', import.meta.url)) },
  { find: /^eventsource-parser$/, replacement: fileURLToPath(new URL('./node_modules/eventsource-parser/dist/index.js', import.meta.url)) },
  { find: /^eventsource-parser\/stream$/, replacement: fileURLToPath(new URL('./node_modules/eventsource-parser/dist/stream.js', import.meta.url)) },
];

export default defineConfig({
  resolve: { conditions: ['source'], alias: builtEventsource },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['packages/*/src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    // tempDirCheck gives the run its own TMPDIR and fails it when tests leave temp dirs behind.
    globalSetup: ['scripts/testing/tempDirCheck.ts', 'scripts/testing/buildOnce.ts'],
    setupFiles: ['scripts/testing/tempDirsSetup.ts'],
    server: { deps: { inline: [/@modelcontextprotocol\/sdk\/dist\/esm\/client\/(?:sse|streamableHttp)\.js/, /node_modules\/eventsource/] } },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Child processes and pseudo-terminals: two cores, so keep the pool small.
    maxWorkers: 2,
  },
});
