// Background sync for the desktop app: a sync run now and then (and soon after
// local edits), exponential backoff with jitter after failures, a full stop on
// authentication errors until the key is replaced, status events for the UI.
//
// Electron main:  const scheduler = new SyncScheduler({ engine, publishEvent });
//                 scheduler.start();  ...  await scheduler.stop();
import { syncStatus } from './status';
import type { SyncStatus } from '../../src-shared/api/sync';
import { countOpen } from './outbox';
import { loadProfile, saveProfile, type RemoteProfile } from './profile';
import { backoffDelay, DEFAULT_RETRY, type RetryPolicy } from './retry';
import { runSync, type SyncOptions, type SyncSummary } from './runSync';
import type { ReplicaEngine } from './replica';
import type { SyncEvent, SyncProgress } from './session';
import { SyncBusyError } from './lock';
import { remoteAnswers } from './probe';
import { adoptAsChosen } from './pendingAdoption';

/** What the scheduler publishes (the Electron bridge forwards these to the renderer). */
export type SchedulerEvent =
  | { type: 'sync-status'; status: SyncStatus; running: boolean; nextRunAt: number | null }
  | { type: 'sync-progress'; progress: SyncProgress };

export interface SchedulerOptions {
  /** The engine assembled with sync: its replica gives the resources and where the remote's key is. */
  readonly engine: ReplicaEngine;
  readonly publishEvent?: (event: SchedulerEvent) => void;
  /** Between successful runs (default 60 s). */
  readonly intervalMs?: number;
  /** After a local edit, sync this soon (default 3 s; edits are debounced). */
  readonly afterEditMs?: number;
  /** Backoff after failed runs (the cap bounds the wait while offline). */
  readonly backoff?: RetryPolicy;
  /**
   * While runs fail, how often the remote is asked whether it answers again (default 2 s): when it does, the backoff
   * resets and a run starts at once, so queued edits go within seconds of the network coming back.
   */
  readonly probeMs?: number;
  /** Extra options for each run (retry policy, concurrency, ...). */
  readonly run?: Partial<Omit<SyncOptions, 'db' | 'catalog' | 'remote' | 'afterFirstPull' | 'signal' | 'onEvent'>>;
}

export class SyncScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<SyncSummary | undefined> | undefined;
  private abort: AbortController | undefined;
  private failures = 0;
  private stopped = true;
  private authStopped = false;
  private nextRunAt: number | null = null;
  private lastPending = -1;
  private watch: NodeJS.Timeout | undefined;
  private probe: NodeJS.Timeout | undefined;
  /** Bumped by profileChanged(): a run that started with the previous key must not stop sync for the new one. */
  private profileVersion = 0;

  constructor(private readonly options: SchedulerOptions) {}

  /** Starts the background loop (a first run right away). */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
    // Local edits show up as new outbox entries: sync soon after them.
    this.watch = setInterval(() => this.noticeEdits(), 1000);
    this.watch.unref?.();
  }

  /** Stops scheduling and aborts a run in progress (its committed work stays; the rest resumes next start). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.watch) clearInterval(this.watch);
    this.stopProbing();
    this.timer = this.watch = undefined;
    this.abort?.abort(new Error('sync stopped'));
    await this.running?.catch(() => undefined);
    this.publish();
  }

  /** Runs a sync now (or returns the run in progress). */
  syncNow(): Promise<SyncSummary | undefined> {
    if (this.running) return this.running;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const version = this.profileVersion;
    this.running = this.runOnce(version).finally(() => {
      this.running = undefined;
      // The key changed while this run was out: try the new one at once.
      if (!this.stopped) this.schedule(version !== this.profileVersion ? 0 : this.delayAfter());
      if (this.failures > 0 && !this.authStopped && !this.stopped) this.startProbing();
      else this.stopProbing();
      this.publish();
    });
    return this.running;
  }

  /** Sets (or replaces) the remote and its key; clears an authentication stop. */
  async setProfile(profile: RemoteProfile): Promise<void> {
    await saveProfile(this.options.engine.db, this.options.engine.replica.secrets, profile);
    this.profileChanged();
  }

  /** The stored profile changed (saved by someone else, e.g. ConfigureSyncRemote): clears an authentication stop, syncs now. */
  profileChanged(): void {
    this.profileVersion++;
    this.authStopped = false;
    this.failures = 0;
    if (!this.stopped) this.schedule(0);
    this.publish();
  }

  get started(): boolean {
    return !this.stopped;
  }

  status(): SyncStatus {
    return syncStatus(this.options.engine.db);
  }

  private delayAfter(): number {
    if (this.authStopped) return -1;
    if (this.failures === 0) return this.options.intervalMs ?? 60_000;
    return backoffDelay(this.options.backoff ?? { ...DEFAULT_RETRY, baseDelayMs: 2_000, maxDelayMs: 300_000 }, this.failures - 1);
  }

  private schedule(delay: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (delay < 0 || this.stopped) {
      this.nextRunAt = null;
      return;
    }
    this.nextRunAt = Date.now() + delay;
    this.timer = setTimeout(() => void this.syncNow(), delay);
    this.timer.unref?.();
  }

  /** Asks the remote every probeMs whether it answers; the first answer resets the backoff and syncs now. */
  private startProbing(): void {
    if (this.probe) return;
    const every = this.options.probeMs ?? 2_000;
    let asking = false;
    this.probe = setInterval(() => {
      if (asking || this.running) return;
      asking = true;
      void (async () => {
        try {
          const profile = await loadProfile(this.options.engine.db, this.options.engine.replica.secrets);
          if (!profile || !(await remoteAnswers(profile.baseUrl, every)) || this.stopped || this.running) return;
          this.stopProbing();
          this.failures = 0;
          void this.syncNow();
        } catch {
          // The profile could not be read (its key store failing): the next probe tries again.
        } finally {
          asking = false;
        }
      })();
    }, every);
    this.probe.unref?.();
  }

  private stopProbing(): void {
    if (this.probe) clearInterval(this.probe);
    this.probe = undefined;
  }

  private noticeEdits(): void {
    if (this.stopped || this.running || this.authStopped) return;
    const pending = countOpen(this.options.engine.db);
    if (pending > 0 && pending !== this.lastPending && this.failures === 0) {
      const soon = this.options.afterEditMs ?? 3_000;
      if (this.nextRunAt === null || this.nextRunAt - Date.now() > soon) this.schedule(soon);
    }
    this.lastPending = pending;
  }

  private async runOnce(version: number): Promise<SyncSummary | undefined> {
    const { engine } = this.options;
    const profile = await loadProfile(engine.db, engine.replica.secrets);
    if (!profile) {
      this.publish();
      return undefined;
    }
    this.abort = new AbortController();
    this.publish(true);
    try {
      const summary = await runSync({
        ...this.options.run,
        db: engine.db,
        catalog: engine.replica.catalog,
        remote: { baseUrl: profile.baseUrl, apiKey: profile.apiKey },
        afterFirstPull: (emit) => adoptAsChosen(engine, emit),
        signal: this.abort.signal,
        onEvent: (e: SyncEvent) => {
          if (e.type === 'progress') this.options.publishEvent?.({ type: 'sync-progress', progress: e.progress });
          if (e.type === 'phase') this.publish(true);
        },
      });
      if (summary.authError && version === this.profileVersion) this.authStopped = true;
      this.failures = summary.ok ? 0 : this.failures + 1;
      return summary;
    } catch (e) {
      // Another process (a CLI `outpost sync`) holds the data directory: try again later, no backoff growth.
      if (!(e instanceof SyncBusyError)) this.failures++;
      return undefined;
    } finally {
      this.abort = undefined;
    }
  }

  private publish(running = !!this.running): void {
    this.options.publishEvent?.({ type: 'sync-status', status: this.status(), running, nextRunAt: this.nextRunAt });
  }
}
