// Where a profile lives by default. Its own module (no SQLite import) so the
// Electron main process can name the data directory without loading SQLite.
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';

/** The per-user data directory: XDG on Linux, the platform's app-data folder elsewhere. */
export function defaultDataDir(): string {
  if (process.env.OUTPOST_DATA_DIR) return process.env.OUTPOST_DATA_DIR;
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Outpost');
  if (process.platform === 'win32') return join(process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Outpost');
  return join(process.env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'outpost');
}

/**
 * The demo profile's directory, beside the real one (`~/.local/share/outpost-demo` beside
 * `~/.local/share/outpost`): the demo dataset never shares a database with the user's records.
 */
export function demoDataDir(realDataDir: string = defaultDataDir()): string {
  return join(dirname(realDataDir), `${basename(realDataDir)}-demo`);
}
