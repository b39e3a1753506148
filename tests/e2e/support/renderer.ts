// The built renderer for e2e tests: out/renderer, rebuilt (renderer only,
// with the same config `npm run build` uses) when missing or older than any
// source it is built from.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '..', '..', '..');
export const rendererOutDir = join(repoRoot, 'out', 'renderer');
const SOURCES = ['src-renderer', 'src-shared', 'electron.vite.config.ts', 'package.json'];

function newestMtime(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

export function rendererIsStale(): boolean {
  const index = join(rendererOutDir, 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return SOURCES.some((s) => existsSync(join(repoRoot, s)) && newestMtime(join(repoRoot, s)) > built);
}

/** Builds out/renderer if needed; returns its path. */
export async function ensureRendererBuilt(): Promise<string> {
  if (rendererIsStale()) {
    const { build } = await import('vite');
    const { rendererConfig } = await import('../../../electron.vite.config');
    await build({ configFile: false, logLevel: 'warn', ...rendererConfig });
  }
  return rendererOutDir;
}
