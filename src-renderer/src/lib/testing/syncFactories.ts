// Wire-shaped sync objects for renderer specs.
import type { SyncConflict, SyncStatus } from '../../../../src-shared/api/sync';
import type { SyncOutboxEntry } from '../services/syncService';

export function syncStatus(overrides: Partial<SyncStatus> = {}): SyncStatus {
  return {
    replica: true,
    remoteUrl: 'https://remote.example',
    state: 'idle',
    phase: '',
    pendingCount: 0,
    failedCount: 0,
    openConflictCount: 0,
    lastSyncStartedDate: '2026-09-01T10:00:00Z',
    lastSyncFinishedDate: '2026-09-01T10:00:02Z',
    lastSuccessDate: '2026-09-01T10:00:02Z',
    lastError: '',
    lastRun: {
      pulled: [{ resource: 'annotations', rows: 3 }],
      pendingAtStart: 1,
      pushed: 1,
      failed: 0,
      retries: 0,
      recovered: 0,
      conflicts: 0,
      durationMs: 2000,
      requests: 12,
    },
    ...overrides,
  };
}

export function syncConflict(overrides: Partial<SyncConflict> = {}): SyncConflict {
  return {
    conflictId: 'c1',
    kind: 'field',
    resource: 'annotation',
    recordId: 'a1',
    recordName: 'Pump 3 overheat',
    field: 'name',
    winner: 'remote',
    localValue: 'Mine',
    remoteValue: 'Theirs',
    localTime: '2026-09-01T09:00:00Z',
    remoteTime: '2026-09-01T09:30:00Z',
    message: '',
    createdDate: '2026-09-01T10:00:01Z',
    state: 'open',
    resolvedDate: null,
    undoable: true,
    ...overrides,
  };
}

export function outboxEntry(overrides: Partial<SyncOutboxEntry> = {}): SyncOutboxEntry {
  return {
    seq: '7',
    operation: 'UpdateAnnotation',
    state: 'failed',
    attempts: 1,
    records: [{ resource: 'annotation', recordId: 'a1', name: 'Pump 3 overheat' }],
    errorCode: 3,
    lastError: 'annotation.name: must not be empty',
    createdDate: '2026-09-01T09:00:00Z',
    dismissable: false,
    discardable: false,
    ...overrides,
  };
}
