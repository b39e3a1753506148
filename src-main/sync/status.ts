// The sync status: what a run records about itself (a database setting, so
// GetSyncStatus, the scheduler and another process read the same), and the
// status as the API answers it.
import { formatOptionalTimestamp } from '../../src-shared/api/time';
import type { SyncStatus } from '../../src-shared/api/sync';
import type { Db } from '../db/database';
import { isReplica } from '../engine';
import { countOpenConflicts } from './conflicts';
import { syncLockHeld } from './lock';
import { countFailed, countOpen } from './outbox';
import { REMOTE_URL_SETTING } from './profile';

const STATUS_SETTING = 'sync.status';

/** What the sync run records about itself (the stored half of SyncStatus). */
export interface StoredSyncStatus {
  state: 'idle' | 'syncing' | 'error' | 'auth_error' | 'offline';
  phase: string;
  lastSyncStarted: number | null;
  lastSyncFinished: number | null;
  lastSuccess: number | null;
  lastError: string;
  lastRun: SyncStatus['lastRun'];
}

export function readStoredStatus(db: Db): StoredSyncStatus {
  const text = db.setting(STATUS_SETTING);
  const empty: StoredSyncStatus = {
    state: 'idle',
    phase: '',
    lastSyncStarted: null,
    lastSyncFinished: null,
    lastSuccess: null,
    lastError: '',
    lastRun: null,
  };
  if (!text) return empty;
  const stored = { ...empty, ...(JSON.parse(text) as Partial<StoredSyncStatus>) };
  // A run recorded by an earlier version lacks the counts added since.
  if (stored.lastRun)
    stored.lastRun = {
      ...{ pendingAtStart: 0, durationMs: 0, requests: 0 },
      ...(stored.lastRun as Partial<NonNullable<StoredSyncStatus['lastRun']>>),
    } as StoredSyncStatus['lastRun'];
  return stored;
}

export function writeStoredStatus(db: Db, patch: Partial<StoredSyncStatus>): StoredSyncStatus {
  const next = { ...readStoredStatus(db), ...patch };
  db.setSetting(STATUS_SETTING, JSON.stringify(next));
  return next;
}

export function syncStatus(db: Db): SyncStatus {
  let s = readStoredStatus(db);
  // (A `syncing` status left by a killed process: no live process holds the lease.)
  if (s.state === 'syncing' && !syncLockHeld(db)) s = { ...s, state: 'error', lastError: s.lastError || 'the last sync was interrupted' };
  return {
    replica: isReplica(db),
    remoteUrl: db.setting(REMOTE_URL_SETTING) ?? '',
    state: s.state,
    phase: s.state === 'syncing' ? s.phase : '',
    pendingCount: countOpen(db),
    failedCount: countFailed(db),
    openConflictCount: countOpenConflicts(db),
    lastSyncStartedDate: formatOptionalTimestamp(s.lastSyncStarted),
    lastSyncFinishedDate: formatOptionalTimestamp(s.lastSyncFinished),
    lastSuccessDate: formatOptionalTimestamp(s.lastSuccess),
    lastError: s.lastError,
    lastRun: s.lastRun,
  };
}
