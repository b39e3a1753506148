import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src-shared/**/*.test.ts', 'src-main/**/*.test.ts', 'tests/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The machine has 2 cores; each test file may start its own servers.
    maxWorkers: 2,
  },
});
