// One test run for everything: Node unit tests next to the code, HTTP
// integration, sync, and Chromium e2e. The Svelte plugin compiles the
// renderer's rune-based state modules (*.svelte.ts) for their specs.
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [svelte({ configFile: false })],
  test: {
    include: ['src-shared/**/*.test.ts', 'src-main/**/*.test.ts', 'src-renderer/**/*.{spec,test}.ts', 'tests/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The machine has 2 cores; each test file may start its own servers.
    maxWorkers: 2,
  },
});
