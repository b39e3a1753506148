// The live sync status shared by the navigation badge and the Sync view: one
// subscription per app (scheduler events on the desktop, polling on the web,
// see transport/syncUpdates.ts) plus an explicit refresh after the user's own actions.
import type { Client } from '../../../../src-shared/client';
import { toErrorInfo, type ErrorInfo } from '../errors';
import { badgeOf, getStatus, type SyncStatus } from '../services/syncService';
import type { SyncProgress, SyncUpdate, SyncWatcher } from '../transport/syncUpdates';

export class SyncMonitor {
  status = $state<SyncStatus | undefined>();
  running = $state(false);
  /** Rows moved by the run in progress (desktop: live events; web: only the finished run's totals). */
  progress = $state<SyncProgress | undefined>();
  error = $state<ErrorInfo | undefined>();
  /** Counts finished runs seen, so views can reload what a run may have changed. */
  finishedRuns = $state(0);

  badge = $derived(badgeOf(this.status, this.running));

  readonly #client: Client;
  readonly #watch: SyncWatcher;

  constructor(client: Client, watch: SyncWatcher) {
    this.#client = client;
    this.#watch = watch;
  }

  /** Subscribes to updates and reads the status once; returns the unsubscribe function. */
  start(): () => void {
    const stop = this.#watch((update) => this.apply(update));
    void this.refresh();
    return stop;
  }

  async refresh(): Promise<void> {
    try {
      const status = await getStatus(this.#client);
      this.apply({ kind: 'status', status, running: status.state === 'syncing' });
    } catch (error) {
      this.apply({ kind: 'error', error });
    }
  }

  apply(update: SyncUpdate): void {
    if (update.kind === 'progress') {
      this.progress = update.progress;
      this.running = true;
      return;
    }
    if (update.kind === 'error') {
      this.error = toErrorInfo(update.error);
      return;
    }
    const previous = this.status;
    this.status = update.status;
    this.running = update.running;
    this.error = undefined;
    if (!update.running) this.progress = undefined;
    if (previous && update.status.lastSyncFinishedDate !== previous.lastSyncFinishedDate) this.finishedRuns++;
  }
}
