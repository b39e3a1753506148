// Live sync status for the renderer, whatever the platform: the desktop app
// pushes the scheduler's events (window.outpost.onEvent), the browser polls
// GetSyncStatus. Views and the navigation badge only see SyncUpdate.
import type { SyncStatus } from '../../../../src-shared/api/sync';

/** Rows moved by the run in progress (the scheduler's `sync-progress` event). */
export interface SyncProgress {
  readonly phase: string;
  readonly pulled: Readonly<Record<string, number>>;
  readonly pushed: number;
  readonly failed: number;
  readonly pendingAtStart: number;
}

export type SyncUpdate =
  | { readonly kind: 'status'; readonly status: SyncStatus; readonly running: boolean }
  | { readonly kind: 'progress'; readonly progress: SyncProgress }
  /** The status could not be read (browser polling): shown, never swallowed. */
  | { readonly kind: 'error'; readonly error: unknown };

export type SyncWatcher = (listener: (update: SyncUpdate) => void) => () => void;
