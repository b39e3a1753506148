// Building out/ once for the tests that need it: whether a build is older than
// any of its sources, and one build at a time across test files (vitest runs
// them in parallel processes). Used by the renderer (e2e) and main-bundle builds.
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const repoRoot = resolve(import.meta.dirname, '..', '..');

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

/** Whether any of `sources` (repository-relative) changed after `builtMs`. */
export function sourcesNewerThan(sources: readonly string[], builtMs: number): boolean {
  return sources.some((s) => existsSync(join(repoRoot, s)) && newestMtime(join(repoRoot, s)) > builtMs);
}

const STALE_LOCK_MS = 5 * 60_000;

/** Runs `fn` holding the lock `name` under out/ (a lock left by a killed run is taken over after 5 minutes). */
export async function withBuildLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const lock = join(repoRoot, 'out', `.${name}-build.lock`);
  mkdirSync(join(repoRoot, 'out'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const held = statSync(lock, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      await sleep(200);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
