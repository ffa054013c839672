import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['packages/*/src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    // tempDirCheck gives the run its own TMPDIR and fails it when tests leave temp dirs behind.
    globalSetup: ['scripts/testing/tempDirCheck.ts', 'scripts/testing/buildOnce.ts'],
    setupFiles: ['scripts/testing/tempDirsSetup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Child processes and pseudo-terminals: two cores, so keep the pool small.
    maxWorkers: 2,
  },
});
