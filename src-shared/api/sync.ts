// Outpost extension operations for local-first sync: status and progress, the
// conflict log (list, undo, dismiss) and the outbox (list, retry a failed entry).
import { z } from 'zod';
import { defineOperation } from './operation';
import { message, nullableTimestampOut, pageSizeIn, response, timestampOut } from './wire';

export const SyncRunOut = response({
  /** Rows applied per pulled resource. */
  pulled: z.array(response({ resource: z.string(), rows: z.number().int() })),
  pushed: z.number().int(),
  failed: z.number().int(),
  retries: z.number().int(),
  /** Creates whose outcome was unknown, found on the remote instead of being sent twice. */
  recovered: z.number().int(),
  conflicts: z.number().int(),
});

export const SyncStatusOut = response({
  /** This database replicates with a remote. */
  replica: z.boolean(),
  remoteUrl: z.string(),
  /** idle | syncing | error | auth_error */
  state: z.string(),
  /** connecting | pull | push | done ('' when idle). */
  phase: z.string(),
  pendingCount: z.number().int(),
  failedCount: z.number().int(),
  openConflictCount: z.number().int(),
  lastSyncStartedDate: nullableTimestampOut,
  lastSyncFinishedDate: nullableTimestampOut,
  lastSuccessDate: nullableTimestampOut,
  lastError: z.string(),
  lastRun: SyncRunOut.nullable(),
});
export type SyncStatus = z.infer<typeof SyncStatusOut>;

export const SyncConflictOut = response({
  conflictId: z.string(),
  /** field: both sides changed a field; remote_missing: the record is gone from the remote. */
  kind: z.string(),
  resource: z.string(),
  recordId: z.string(),
  field: z.string(),
  /** local | remote: whose value was kept. */
  winner: z.string(),
  localValue: z.unknown(),
  remoteValue: z.unknown(),
  localTime: nullableTimestampOut,
  remoteTime: nullableTimestampOut,
  message: z.string(),
  createdDate: timestampOut,
  /** open | undone | dismissed */
  state: z.string(),
  resolvedDate: nullableTimestampOut,
});
export type SyncConflict = z.infer<typeof SyncConflictOut>;

export const SyncOutboxEntryOut = response({
  seq: z.string(),
  operation: z.string(),
  /** pending | inflight | done | failed | superseded */
  state: z.string(),
  attempts: z.number().int(),
  recordIds: z.array(z.string()),
  errorCode: z.number().int(),
  lastError: z.string(),
  createdDate: timestampOut,
});

const conflictPath = { conflictId: z.string().min(1, 'is required') };
const conflictBody = response({ conflict: SyncConflictOut });

export const syncOperations = {
  GetSyncStatus: defineOperation({
    name: 'GetSyncStatus', method: 'GET', path: '/api/v1/outpost/sync/status', input: 'path', tag: 'Sync', extension: true,
    summary: 'Sync status and progress: pending edits, failures, conflicts, last run', request: message({}), response: SyncStatusOut,
  }),
  ListSyncConflicts: defineOperation({
    name: 'ListSyncConflicts', method: 'GET', path: '/api/v1/outpost/sync/conflicts', input: 'query', tag: 'Sync', extension: true,
    summary: 'List sync conflicts, newest first (state: open (default) | all; record_id narrows to one record)',
    request: message({ pageSize: pageSizeIn.optional(), pageToken: z.string().optional(), state: z.enum(['open', 'all']).optional(), recordId: z.string().optional() }),
    response: response({ conflicts: z.array(SyncConflictOut), nextPageToken: z.string() }),
  }),
  UndoSyncConflict: defineOperation({
    name: 'UndoSyncConflict', method: 'POST', path: '/api/v1/outpost/sync/conflicts/{conflict_id}:undo', input: 'body', tag: 'Sync', extension: true,
    summary: 'Undo a conflict resolution: the losing value is written again as a new (synced) edit',
    request: message(conflictPath), response: conflictBody,
  }),
  DismissSyncConflict: defineOperation({
    name: 'DismissSyncConflict', method: 'POST', path: '/api/v1/outpost/sync/conflicts/{conflict_id}:dismiss', input: 'body', tag: 'Sync', extension: true,
    summary: 'Accept a conflict resolution as is', request: message(conflictPath), response: conflictBody,
  }),
  ListSyncOutbox: defineOperation({
    name: 'ListSyncOutbox', method: 'GET', path: '/api/v1/outpost/sync/outbox', input: 'query', tag: 'Sync', extension: true,
    summary: 'List local edits waiting for or refused by the remote (state: open (default) | failed | all), oldest first',
    request: message({ pageSize: pageSizeIn.optional(), pageToken: z.string().optional(), state: z.enum(['open', 'failed', 'all']).optional() }),
    response: response({ entries: z.array(SyncOutboxEntryOut), nextPageToken: z.string() }),
  }),
  RetrySyncEntry: defineOperation({
    name: 'RetrySyncEntry', method: 'POST', path: '/api/v1/outpost/sync/outbox/{seq}:retry', input: 'body', tag: 'Sync', extension: true,
    summary: 'Queue a failed outbox entry again', request: message({ seq: z.string().regex(/^\d+$/, 'must be an entry number') }),
    response: response({ entry: SyncOutboxEntryOut }),
  }),
} as const;
