// Unit tests of the renderer (services, state, transports): Node environment,
// no DOM. The Svelte plugin compiles the rune-based state modules (*.svelte.ts).
// Run: npx vitest run --config src-renderer/vitest.config.ts
import { resolve } from 'node:path';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: resolve(import.meta.dirname, '..'),
  plugins: [svelte({ configFile: false })],
  test: {
    include: ['src-renderer/**/*.{spec,test}.ts'],
    environment: 'node',
  },
});
