import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Real databases and child processes: keep parallelism modest on 2 cores.
    maxWorkers: 2,
    pool: 'forks',
  },
});
