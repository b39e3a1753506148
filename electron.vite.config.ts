// `npm run build` = `electron-vite build`: three bundles, none of which needs
// the Electron binary to build.
//   main     src-main/electron/main.ts    -> out/main/index.js   (ESM; runtime deps stay external)
//            src-main/host/main.ts        -> out/main/engineHost.js (the engine host: database, services, sync)
//            src-main/cli.ts              -> out/main/cli.js (`outpost serve | sync | seed | …`: bin/outpost.mjs runs it)
//   preload  src-main/electron/preload.ts -> out/preload/index.cjs (sandboxed preload: one CommonJS file)
//   renderer src-renderer/index.html      -> out/renderer        (relative base, so `outpost serve` can serve it at /)
import { resolve } from 'node:path';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'electron-vite';
import type { UserConfig } from 'vite';

const root = import.meta.dirname;

/** The renderer build on its own (plain Vite); the e2e tests build it without main/preload. */
export const rendererConfig = {
  root: resolve(root, 'src-renderer'),
  base: './',
  plugins: [svelte({ configFile: false })],
  build: {
    outDir: resolve(root, 'out/renderer'),
    emptyOutDir: true,
    target: 'es2023',
    rolldownOptions: {
      input: { index: resolve(root, 'src-renderer/index.html') },
    },
  },
} satisfies UserConfig;

export default defineConfig({
  main: {
    build: {
      outDir: resolve(root, 'out/main'),
      // Runtime dependencies (better-sqlite3 is native, cedar is wasm) are loaded from node_modules.
      externalizeDeps: { include: ['better-sqlite3'] },
      rolldownOptions: {
        // The engine host runs in its own process (utilityProcess.fork of out/main/engineHost.js).
        input: {
          index: resolve(root, 'src-main/electron/main.ts'),
          engineHost: resolve(root, 'src-main/host/main.ts'),
          cli: resolve(root, 'src-main/cli.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: resolve(root, 'out/preload'),
      // A sandboxed preload can only require('electron'): bundle everything else into one CommonJS file.
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve(root, 'src-main/electron/preload.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: rendererConfig,
});
