// The repo's temp-dir check around the one leaking fixture (see tempDirCheck.test.ts).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: new URL('../../..', import.meta.url).pathname,
    include: ['scripts/testing/leakingRun/leaky.fixture.ts'],
    globalSetup: ['scripts/testing/tempDirCheck.ts'],
    setupFiles: ['scripts/testing/tempDirsSetup.ts'],
  },
});
