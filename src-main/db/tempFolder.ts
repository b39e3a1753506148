// The data directory's folder of temporary files: uploads while they stream in
// (HTTP and the desktop's port), downloads before their rename into the store,
// import staging databases. A process that dies (kill -9, a power cut) leaves
// its files there; the next holder of the data directory removes them.
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const tempFolder = (dataDir: string): string => join(dataDir, 'tmp');

/** When this process started (its files are no older). */
const processStart = (): number => Date.now() - process.uptime() * 1000;

/**
 * Removes what the folder holds from before this process started. Called once the data directory's lock is held:
 * no other process writes there then, so anything older is a dead process's.
 */
export function removeLeftoverTempFiles(dataDir: string, before = processStart()): number {
  const dir = tempFolder(dataDir);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0; // no folder yet
  }
  let removed = 0;
  for (const name of names) {
    const path = join(dir, name);
    try {
      if (statSync(path).mtimeMs >= before) continue;
      rmSync(path, { recursive: true, force: true });
      removed++;
    } catch {
      // Gone meanwhile, or not ours to remove: the next start tries again.
    }
  }
  return removed;
}
