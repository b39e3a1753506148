// Auto-update with electron-updater against the feed the build names:
// electron-builder's `publish` (a generic provider: a folder of latest*.yml and
// installers on any https server) writes it into resources/app-update.yml,
// which electron-updater reads. Nothing in the user's environment can point
// the app at another feed. Off unless the app is packaged, the build names an
// https feed and the user has not turned checks off (Help › Check for Updates
// Automatically, kept in userData). Checks only when the machine is online (at
// start, then every few hours); downloads in the background and installs when
// the user quits — after main has stopped sync (will-quit) — never restarting
// the app itself, so an update never installs during a sync.
// electron-updater is loaded only when on.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The part of electron-updater's autoUpdater used here. */
export interface UpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  checkForUpdates(): Promise<unknown>;
}

export interface UpdateOptions {
  /** The feed named in the build (readBuildFeedUrl), undefined when the build names none. */
  readonly feedUrl: string | undefined;
  readonly isPackaged: boolean;
  /** The user's setting (loadUpdateSetting). */
  readonly enabled: boolean;
  /** Electron's net.isOnline(). */
  readonly isOnline: () => boolean;
  readonly loadUpdater: () => Promise<UpdaterLike>;
  readonly log: { info(message: string): void; warn(message: string): void };
  /** Between checks (default 4 h). */
  readonly intervalMs?: number;
}

export type UpdateState =
  'off: not packaged' | 'off: this build names no update feed' | 'off: the feed is not https' | 'off: turned off in the app' | 'on';

export interface UpdateChecks {
  readonly state: UpdateState;
  /** Checks now if online (returns whether it checked). */
  check(): Promise<boolean>;
  stop(): void;
}

const HOURS = 3_600_000;

/** The `url` electron-builder's publish configuration wrote into `<resources>/app-update.yml`, if any. */
export function readBuildFeedUrl(resourcesPath: string | undefined): string | undefined {
  const file = resourcesPath ? join(resourcesPath, 'app-update.yml') : undefined;
  if (!file || !existsSync(file)) return undefined;
  return /^url:\s*['"]?([^'"\s]+)['"]?\s*$/m.exec(readFileSync(file, 'utf8'))?.[1];
}

/** The user's choice (default: on), kept as JSON in the app's userData folder. */
export function loadUpdateSetting(file: string): boolean {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { checkForUpdates?: unknown }).checkForUpdates !== false;
  } catch {
    return true;
  }
}

export function saveUpdateSetting(file: string, checkForUpdates: boolean): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ checkForUpdates })}\n`);
}

export async function startUpdateChecks(options: UpdateOptions): Promise<UpdateChecks> {
  const off = (state: UpdateState): UpdateChecks => ({ state, check: async () => false, stop: () => {} });
  if (!options.isPackaged) return off('off: not packaged');
  const url = options.feedUrl?.trim();
  if (!url) return off('off: this build names no update feed');
  if (!/^https:\/\//i.test(url)) {
    // An http feed could be answered by anyone on the network with an installer of their choosing.
    options.log.warn(`updates: the build's feed ${url} is not https; updates are off`);
    return off('off: the feed is not https');
  }
  if (!options.enabled) return off('off: turned off in the app');
  const updater = await options.loadUpdater();
  updater.autoDownload = true;
  updater.autoInstallOnAppQuit = true;
  const check = async () => {
    if (!options.isOnline()) return false;
    try {
      await updater.checkForUpdates();
    } catch (error) {
      // A feed that is down or unreachable is not the user's problem now: try again later.
      options.log.warn(`updates: check failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    return true;
  };
  const timer = setInterval(() => void check(), options.intervalMs ?? 4 * HOURS);
  timer.unref?.();
  void check();
  options.log.info(`updates: checking ${url}`);
  return { state: 'on', check, stop: () => clearInterval(timer) };
}
