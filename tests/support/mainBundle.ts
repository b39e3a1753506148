// The built main-process bundles (out/main: index.js, the Electron main;
// engineHost.js, the engine host), rebuilt with the very configuration
// `npm run build` uses (electron-vite's own config resolution, main target
// only) when missing or older than any source they are built from.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, sourcesNewerThan, withBuildLock } from './staleBuild';

export { repoRoot };
export const mainOutDir = join(repoRoot, 'out', 'main');
export const BUILT_MAIN = join(mainOutDir, 'index.js');
export const BUILT_HOST = join(mainOutDir, 'engineHost.js');
const SOURCES = ['src-main', 'src-shared', 'electron.vite.config.ts', 'package.json'];

function mainIsStale(): boolean {
  if (!existsSync(BUILT_MAIN) || !existsSync(BUILT_HOST)) return true;
  return sourcesNewerThan(SOURCES, Math.min(statSync(BUILT_MAIN).mtimeMs, statSync(BUILT_HOST).mtimeMs));
}

/** Builds out/main if needed; returns its directory. */
export async function ensureMainBuilt(): Promise<string> {
  if (!mainIsStale()) return mainOutDir;
  return withBuildLock('main', async () => {
    if (mainIsStale()) {
      process.env.NODE_ENV_ELECTRON_VITE = 'production'; // as `electron-vite build` sets it
      const { resolveConfig } = await import('electron-vite');
      const { build } = await import('vite');
      const resolved = await resolveConfig(
        { root: repoRoot, configFile: join(repoRoot, 'electron.vite.config.ts'), logLevel: 'warn' },
        'build',
        'production',
      );
      const main = resolved.config?.main;
      if (!main) throw new Error('electron.vite.config.ts has no main build');
      await build(main);
    }
    return mainOutDir;
  });
}
