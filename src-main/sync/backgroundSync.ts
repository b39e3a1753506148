// Background sync as a host runs it (the desktop app, `outpost serve`): a
// SyncScheduler that controls the engine's replica while it runs, so the sync
// operations (ConfigureSyncRemote, DeleteSyncRemote, SyncNow) reach it.
// Background runs happen while a remote with a key is configured.
import type { SyncController } from '../engine';
import type { ReplicaEngine } from './replica';
import { SyncScheduler, type SchedulerOptions } from './scheduler';

export interface BackgroundSyncOptions extends SchedulerOptions {
  /** Runs in the background (default); false: only on request (SyncNow), as `outpost serve --no-sync`. */
  readonly background?: boolean;
}

export class BackgroundSync implements SyncController {
  readonly scheduler: SyncScheduler;
  private readonly engine: ReplicaEngine;
  private readonly background: boolean;

  constructor(options: BackgroundSyncOptions) {
    this.engine = options.engine;
    this.background = options.background ?? true;
    this.scheduler = new SyncScheduler(options);
  }

  /** Becomes the replica's sync controller; runs in the background when a remote is configured. */
  async start(): Promise<void> {
    this.engine.replica.controlledBy(this);
    if (this.background && (await this.engine.replica.remoteProfile.read())?.hasApiKey) this.scheduler.start();
  }

  /** Stops background runs (a run in progress is aborted; its committed work stays) and leaves the engine. */
  async stop(): Promise<void> {
    if (this.engine.replica.syncController() === this) this.engine.replica.controlledBy(undefined);
    await this.scheduler.stop();
  }

  syncNow(): void {
    // A remote linked since the start (the Sync view, an `outpost sync --remote` handed to this server): start the loop, which runs at once.
    if (this.background && !this.scheduler.started) return this.scheduler.start();
    // Failures are recorded in the sync status (and published); nothing waits for this promise.
    this.scheduler.syncNow().catch((e: unknown) => console.error('outpost: sync run failed:', e));
  }

  async remoteChanged(): Promise<void> {
    if (this.scheduler.started) this.scheduler.profileChanged();
    else if (this.background) this.scheduler.start();
  }

  async remoteRemoved(): Promise<void> {
    await this.scheduler.stop();
  }
}
