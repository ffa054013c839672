import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['packages/*/src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    globalSetup: ['scripts/testing/buildOnce.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Child processes and pseudo-terminals: two cores, so keep the pool small.
    maxWorkers: 2,
  },
});
