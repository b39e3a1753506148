// The built main-process bundles (out/main: index.js, the Electron main;
// engineHost.js, the engine host), rebuilt with the very configuration
// `npm run build` uses (electron-vite's own config resolution, main target
// only) when missing or older than any source they are built from.
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const repoRoot = resolve(import.meta.dirname, '..', '..');
export const mainOutDir = join(repoRoot, 'out', 'main');
export const BUILT_MAIN = join(mainOutDir, 'index.js');
export const BUILT_HOST = join(mainOutDir, 'engineHost.js');
const SOURCES = ['src-main', 'src-shared', 'electron.vite.config.ts', 'package.json'];

function newestMtime(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function mainIsStale(): boolean {
  if (!existsSync(BUILT_MAIN) || !existsSync(BUILT_HOST)) return true;
  const built = Math.min(statSync(BUILT_MAIN).mtimeMs, statSync(BUILT_HOST).mtimeMs);
  return SOURCES.some((s) => existsSync(join(repoRoot, s)) && newestMtime(join(repoRoot, s)) > built);
}

const LOCK = join(repoRoot, 'out', '.main-build.lock');
const STALE_LOCK_MS = 5 * 60_000;

/** One build at a time across test files (vitest runs them in parallel processes). */
async function withBuildLock<T>(fn: () => Promise<T>): Promise<T> {
  mkdirSync(join(repoRoot, 'out'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const held = statSync(LOCK, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) rmSync(LOCK, { recursive: true, force: true });
      await sleep(200);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** Builds out/main if needed; returns its directory. */
export async function ensureMainBuilt(): Promise<string> {
  if (!mainIsStale()) return mainOutDir;
  return withBuildLock(async () => {
    if (mainIsStale()) {
      process.env.NODE_ENV_ELECTRON_VITE = 'production'; // as `electron-vite build` sets it
      const { resolveConfig } = await import('electron-vite');
      const { build } = await import('vite');
      const resolved = await resolveConfig({ root: repoRoot, configFile: join(repoRoot, 'electron.vite.config.ts'), logLevel: 'warn' }, 'build', 'production');
      const main = resolved.config?.main;
      if (!main) throw new Error('electron.vite.config.ts has no main build');
      await build(main);
    }
    return mainOutDir;
  });
}
