// One sync run's shared state: the local database, the remote, who we are
// there, what the remote supports, retry policy, and progress counters that
// the status and the UI observe.
import type { Db } from '../db/database';
import type { Applier } from './apply';
import type { SyncIdentity } from './identity';
import type { Remote } from './remote';
import type { PushWindow } from './pushWindow';
import type { RetryPolicy } from './retry';
import type { RemoteFeatures } from './spec';

export interface SyncProgress {
  phase: 'connecting' | 'pull' | 'push' | 'done';
  /** Rows applied per pulled resource. */
  pulled: Record<string, number>;
  pushed: number;
  failed: number;
  retries: number;
  /** Creates whose outcome was unknown and that were found on the remote instead of being sent again. */
  recovered: number;
  conflicts: number;
  /** Open outbox entries when the run started. */
  pendingAtStart: number;
}

export type SyncEvent =
  | { type: 'phase'; phase: SyncProgress['phase'] }
  | { type: 'progress'; progress: SyncProgress }
  | { type: 'pulled'; resource: string; rows: number }
  | { type: 'entry-failed'; seq: number; operation: string; message: string }
  | { type: 'warning'; message: string };

export interface SyncSession {
  readonly db: Db;
  readonly remote: Remote;
  readonly identity: SyncIdentity;
  readonly features: RemoteFeatures;
  readonly applier: Applier;
  readonly retry: RetryPolicy;
  /** How many push requests may be on their way at once (shrinks while the remote says it is overloaded). */
  readonly pushWindow: PushWindow;
  readonly pageSize: number;
  /** How far back (micros) each incremental pull re-reads to catch late commits. */
  readonly overlap: number;
  /** How often (micros) deletions that leave no trace in incremental pulls (annotation logs, test steps and measurements) are reconciled by a full listing. */
  readonly reconcileEvery: number;
  /** How long after a create whose outcome is unknown was last sent before it is looked up (ms). */
  readonly createQuietMs: number;
  readonly signal?: AbortSignal;
  readonly progress: SyncProgress;
  lastTransient?: string;
  event(e: SyncEvent): void;
  /** Progress changed (throttled by the listener). */
  tick(): void;
  throwIfAborted(): void;
}

export const emptyProgress = (): SyncProgress => ({
  phase: 'connecting',
  pulled: {},
  pushed: 0,
  failed: 0,
  retries: 0,
  recovered: 0,
  conflicts: 0,
  pendingAtStart: 0,
});
