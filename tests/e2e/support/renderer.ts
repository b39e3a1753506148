// The built renderer for e2e tests: out/renderer, rebuilt (renderer only,
// with the same config `npm run build` uses) when missing or older than any
// source it is built from.
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
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

const LOCK = join(repoRoot, 'out', '.renderer-build.lock');
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
      // A lock left by a killed run must not block forever.
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

/** Builds out/renderer if needed; returns its path. */
export async function ensureRendererBuilt(): Promise<string> {
  if (!rendererIsStale()) return rendererOutDir;
  return withBuildLock(async () => {
    if (rendererIsStale()) {
      const { build } = await import('vite');
      const { rendererConfig } = await import('../../../electron.vite.config');
      await build({ configFile: false, logLevel: 'warn', ...rendererConfig });
    }
    return rendererOutDir;
  });
}
