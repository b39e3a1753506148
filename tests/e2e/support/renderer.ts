// The built renderer for e2e tests: out/renderer, rebuilt (renderer only,
// with the same config `npm run build` uses) when missing or older than any
// source it is built from.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, sourcesNewerThan, withBuildLock } from '../../support/staleBuild';

export { repoRoot };
export const rendererOutDir = join(repoRoot, 'out', 'renderer');
const SOURCES = ['src-renderer', 'src-shared', 'electron.vite.config.ts', 'package.json'];

export function rendererIsStale(): boolean {
  const index = join(rendererOutDir, 'index.html');
  return !existsSync(index) || sourcesNewerThan(SOURCES, statSync(index).mtimeMs);
}

/** Builds out/renderer if needed; returns its path. */
export async function ensureRendererBuilt(): Promise<string> {
  if (!rendererIsStale()) return rendererOutDir;
  return withBuildLock('renderer', async () => {
    if (rendererIsStale()) {
      const { build } = await import('vite');
      const { rendererConfig } = await import('../../../electron.vite.config');
      await build({ configFile: false, logLevel: 'warn', ...rendererConfig });
    }
    return rendererOutDir;
  });
}
