// Auto-update with electron-updater against a generic feed (a folder of
// latest*.yml and installers on any web server) named by OUTPOST_UPDATE_URL.
// Off unless the app is packaged and a feed is named: a field laptop may
// never see one. Checks only when the machine is online (at start, then every
// few hours); downloads in the background and installs when the user quits —
// after main has stopped sync (will-quit) — never restarting the app itself,
// so a sync is never interrupted. electron-updater is loaded only when on.

/** The part of electron-updater's autoUpdater used here. */
export interface UpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  setFeedURL(options: { provider: 'generic'; url: string }): void;
  checkForUpdates(): Promise<unknown>;
}

export interface UpdateOptions {
  readonly feedUrl: string | undefined;
  readonly isPackaged: boolean;
  /** Electron's net.isOnline(). */
  readonly isOnline: () => boolean;
  readonly loadUpdater: () => Promise<UpdaterLike>;
  readonly log: { info(message: string): void; warn(message: string): void };
  /** Between checks (default 4 h). */
  readonly intervalMs?: number;
}

export type UpdateState = 'off: not packaged' | 'off: no feed URL' | 'off: the feed URL is not http(s)' | 'on';

export interface UpdateChecks {
  readonly state: UpdateState;
  /** Checks now if online (returns whether it checked). */
  check(): Promise<boolean>;
  stop(): void;
}

const HOURS = 3_600_000;

export async function startUpdateChecks(options: UpdateOptions): Promise<UpdateChecks> {
  const off = (state: UpdateState): UpdateChecks => ({ state, check: async () => false, stop: () => {} });
  if (!options.isPackaged) return off('off: not packaged');
  const url = options.feedUrl?.trim();
  if (!url) return off('off: no feed URL');
  if (!/^https?:\/\//i.test(url)) {
    options.log.warn(`updates: OUTPOST_UPDATE_URL must be an http(s) URL; updates are off`);
    return off('off: the feed URL is not http(s)');
  }
  const updater = await options.loadUpdater();
  updater.setFeedURL({ provider: 'generic', url });
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
