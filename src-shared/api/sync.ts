// Outpost extension operations for local-first sync: status and progress, the
// conflict log (list, undo, dismiss), the outbox (list, retry a failed entry),
// the remote profile (configure, read, remove; the API key is write-only) and
// "sync now".
import { z } from 'zod';
import type { ErrorDetail } from '../errors';
import { defineOperation } from './operation';
import { boolIn, message, nullableTimestampOut, pageSizeIn, response, timestampOut } from './wire';

export const SyncRunOut = response({
  /** Rows applied per pulled resource. */
  pulled: z.array(response({ resource: z.string(), rows: z.number().int() })),
  /** Edits waiting to be sent when the run started. */
  pendingAtStart: z.number().int(),
  pushed: z.number().int(),
  failed: z.number().int(),
  retries: z.number().int(),
  /** Creates whose outcome was unknown, found on the remote instead of being sent twice. */
  recovered: z.number().int(),
  conflicts: z.number().int(),
  durationMs: z.number().int(),
  /** Requests sent to the remote. */
  requests: z.number().int(),
});

export const SyncStatusOut = response({
  /** This database replicates with a remote. */
  replica: z.boolean(),
  remoteUrl: z.string(),
  /** idle | syncing | offline (the remote did not answer: edits wait here) | error | auth_error */
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
  /** The record's name here; '' when it is not held here or has none (an annotation log). */
  recordName: z.string(),
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
  /** Whether UndoSyncConflict can write the losing value back (an open field conflict of a resource that has an undo). */
  undoable: z.boolean(),
});
export type SyncConflict = z.infer<typeof SyncConflictOut>;

export const SyncOutboxEntryOut = response({
  seq: z.string(),
  operation: z.string(),
  /** pending | inflight | done | failed | superseded | dismissed */
  state: z.string(),
  attempts: z.number().int(),
  /** The records the edit writes, with their names here ('' when not held here or it has none). */
  records: z.array(response({ resource: z.string(), recordId: z.string(), name: z.string() })),
  errorCode: z.number().int(),
  lastError: z.string(),
  createdDate: timestampOut,
  /**
   * Whether DismissSyncEntry can set it aside (it is then never sent): a refused entry that created nothing here.
   * A refused create cannot be: its record exists only here.
   */
  dismissable: z.boolean(),
  /**
   * Whether DismissSyncEntry with discard_record can set it aside: a refused create (annotation, comment, saved
   * search, policy, test report, import, step, measurement, file or artifact upload). Its record exists only here
   * and is deleted here with it, with the edits that waited on it. Not a new artifact version, nor a state change
   * or assignment log (they changed another record).
   */
  discardable: z.boolean(),
});

/** The choice, made when linking, to send the records made before the link to a remote organization with the first sync. */
export const PendingAdoptionOut = response({ organizationId: z.string() });

export const SyncRemoteOut = response({
  /** The remote's normalized base URL (origin + path, no trailing slash). */
  baseUrl: z.string(),
  /** Whether an API key is stored for it (the key itself is never returned). */
  hasApiKey: z.boolean(),
  /**
   * The adoption chosen when linking (ConfigureSyncRemote adopt_pre_link_records) that no sync has run yet; the next
   * run, whoever starts it, adopts them once it has read the remote user. null: none waits.
   */
  adoptPreLinkRecords: PendingAdoptionOut.nullable(),
});
export type SyncRemote = z.infer<typeof SyncRemoteOut>;

/** Records of one kind made here before the first link, in the profile's own (local) organizations. */
export const PreLinkKindOut = response({
  /** The kind, as the sync names it (annotation, saved_search, test_report, ...). */
  resource: z.string(),
  /** Its plural label for people ("annotations"). */
  label: z.string(),
  count: z.number().int(),
  /** Whether AdoptPreLinkRecords sends them to the remote organization; when not, `reason` says why they stay. */
  adoptable: z.boolean(),
  reason: z.string(),
});

/**
 * What was made here before the first link and is not (yet) in the remote's organizations: after the link the owner
 * acts as the remote user, so these records are no longer shown. They stay here, counted, until adopted.
 */
export const PreLinkRecordsOut = response({
  /** Whether the remote's identity is known (a first sync has run); before it, nothing can be adopted. */
  identityKnown: z.boolean(),
  /** The local organizations the records are in. */
  localOrganizations: z.array(response({ organizationId: z.string(), name: z.string() })),
  /** The remote organizations they can go to (organization_id is required when there are several). */
  remoteOrganizations: z.array(response({ organizationId: z.string(), name: z.string() })),
  total: z.number().int(),
  /** How many of `total` AdoptPreLinkRecords would send. */
  adoptable: z.number().int(),
  kinds: z.array(PreLinkKindOut),
});
export type PreLinkRecords = z.infer<typeof PreLinkRecordsOut>;

/**
 * Why a link was not made: which of the link check's three steps failed (the `reason` of a google.rpc.ErrorInfo
 * detail in domain LINK_CHECK_DOMAIN, on a FAILED_PRECONDITION). Nothing is stored when one does.
 */
export const LinkCheckFailure = {
  /** Nothing answered at the URL as an Outpost or Sift API (no connection, a timeout, another kind of server). */
  unreachable: 'REMOTE_UNREACHABLE',
  /** The remote answered but refused the API key (401/403). */
  keyRefused: 'REMOTE_KEY_REFUSED',
  /** The key was accepted, but the remote did not say which user and organization it belongs to (or not one this profile can use). */
  identity: 'REMOTE_IDENTITY_UNKNOWN',
} as const;
export type LinkCheckFailureReason = (typeof LinkCheckFailure)[keyof typeof LinkCheckFailure];
export const LINK_CHECK_DOMAIN = 'outpost.sync.link';

/** Which step of a link check an error's details say failed (undefined: not a link check's refusal). */
export function linkCheckFailureOf(details: readonly ErrorDetail[]): LinkCheckFailureReason | undefined {
  const reasons: readonly string[] = Object.values(LinkCheckFailure);
  for (const d of details) {
    if (d['@type'] === 'type.googleapis.com/google.rpc.ErrorInfo' && d.domain === LINK_CHECK_DOMAIN && reasons.includes(String(d.reason)))
      return d.reason as LinkCheckFailureReason;
  }
  return undefined;
}

/** What a link check found: the remote answers, accepts the key, and whose it is; and what stays local after linking. */
export const SyncRemoteCheckOut = response({
  /** The normalized base URL that was checked. */
  baseUrl: z.string(),
  userId: z.string(),
  userEmail: z.string(),
  /** The remote user's organizations. */
  organizations: z.array(response({ organizationId: z.string(), name: z.string() })),
  /** Whether this database is linked already (saving then replaces the key; nothing new is left behind). */
  linked: z.boolean(),
  /**
   * The records made here that stay local once linked: on a first link, those outside the remote user's organizations
   * (after the link the owner works as the remote user); they can be adopted (AdoptPreLinkRecords) after the first sync.
   */
  staysLocal: PreLinkRecordsOut,
});
export type SyncRemoteCheck = z.infer<typeof SyncRemoteCheckOut>;

/** A record adoption left here, and why (e.g. its asset has no namesake in the remote organization). */
export const LeftBehindOut = response({ resource: z.string(), recordId: z.string(), name: z.string(), reason: z.string() });

/** An http(s) base URL without credentials (the key travels as api_key, into the secret store). */
const remoteUrlIn = z
  .string({ error: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(2048, 'must be at most 2048 characters')
  .superRefine((text, ctx) => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: `must be an absolute http:// or https:// URL, got '${text.slice(0, 100)}'` });
      return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      ctx.addIssue({ code: 'custom', message: `must use http or https, not ${url.protocol.replace(':', '')}` });
    else if (url.username || url.password)
      ctx.addIssue({ code: 'custom', message: 'must not contain credentials: pass the key as api_key' });
    else if (url.search || url.hash) ctx.addIssue({ code: 'custom', message: 'must not contain a query or fragment' });
  });

/** A bearer token: one line, no spaces (it goes into an Authorization header). */
const apiKeyIn = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(4096, 'must be at most 4096 characters')
  .regex(/^\S+$/, 'must not contain spaces or line breaks');

const conflictPath = { conflictId: z.string().min(1, 'is required') };
const entryPath = { seq: z.string().regex(/^\d+$/, 'must be an entry number') };
const conflictBody = response({ conflict: SyncConflictOut });

export const syncOperations = {
  GetSyncStatus: defineOperation({
    name: 'GetSyncStatus',
    method: 'GET',
    path: '/api/v1/outpost/sync/status',
    input: 'path',
    tag: 'Sync',
    extension: true,
    summary: 'Sync status and progress: pending edits, failures, conflicts, last run',
    request: message({}),
    response: SyncStatusOut,
  }),
  ListSyncConflicts: defineOperation({
    name: 'ListSyncConflicts',
    method: 'GET',
    path: '/api/v1/outpost/sync/conflicts',
    input: 'query',
    tag: 'Sync',
    extension: true,
    summary: 'List sync conflicts, newest first (state: open (default) | all; record_id narrows to one record)',
    request: message({
      pageSize: pageSizeIn.optional(),
      pageToken: z.string().optional(),
      state: z.enum(['open', 'all']).optional(),
      recordId: z.string().optional(),
    }),
    response: response({ conflicts: z.array(SyncConflictOut), nextPageToken: z.string() }),
  }),
  UndoSyncConflict: defineOperation({
    name: 'UndoSyncConflict',
    method: 'POST',
    path: '/api/v1/outpost/sync/conflicts/{conflict_id}:undo',
    input: 'body',
    tag: 'Sync',
    extension: true,
    effect: 'local',
    summary: 'Undo a conflict resolution: the losing value is written again as a new (synced) edit',
    request: message(conflictPath),
    response: conflictBody,
  }),
  DismissSyncConflict: defineOperation({
    name: 'DismissSyncConflict',
    method: 'POST',
    path: '/api/v1/outpost/sync/conflicts/{conflict_id}:dismiss',
    input: 'body',
    tag: 'Sync',
    extension: true,
    effect: 'local',
    summary: 'Accept a conflict resolution as is',
    request: message(conflictPath),
    response: conflictBody,
  }),
  ListSyncOutbox: defineOperation({
    name: 'ListSyncOutbox',
    method: 'GET',
    path: '/api/v1/outpost/sync/outbox',
    input: 'query',
    tag: 'Sync',
    extension: true,
    summary: 'List local edits waiting for or refused by the remote (state: open (default) | failed | all), oldest first',
    request: message({
      pageSize: pageSizeIn.optional(),
      pageToken: z.string().optional(),
      state: z.enum(['open', 'failed', 'all']).optional(),
    }),
    response: response({ entries: z.array(SyncOutboxEntryOut), nextPageToken: z.string() }),
  }),
  RetrySyncEntry: defineOperation({
    name: 'RetrySyncEntry',
    method: 'POST',
    path: '/api/v1/outpost/sync/outbox/{seq}:retry',
    input: 'body',
    tag: 'Sync',
    extension: true,
    effect: 'local',
    summary:
      'Queue a failed outbox entry again, with the entries refused because they refer to a record it creates; a refused annotation or saved-search create goes as its record is now here',
    request: message(entryPath),
    response: response({ entry: SyncOutboxEntryOut }),
  }),
  DismissSyncEntry: defineOperation({
    name: 'DismissSyncEntry',
    method: 'POST',
    path: '/api/v1/outpost/sync/outbox/{seq}:dismiss',
    input: 'body',
    tag: 'Sync',
    extension: true,
    effect: 'local',
    summary:
      'Set a refused edit aside: it is never sent and leaves the refused list. A refused create only with discard_record: the record it created, which exists only here, is deleted here (with its files) and the edits that waited on it are set aside',
    request: message({ ...entryPath, discardRecord: boolIn.optional() }),
    response: response({ entry: SyncOutboxEntryOut }),
  }),
  GetSyncRemote: defineOperation({
    name: 'GetSyncRemote',
    method: 'GET',
    path: '/api/v1/outpost/sync/remote',
    input: 'path',
    tag: 'Sync',
    extension: true,
    summary: 'The remote this database syncs with (null when none); the API key is never returned, only has_api_key',
    request: message({}),
    response: response({ remote: SyncRemoteOut.nullable() }),
  }),
  ConfigureSyncRemote: defineOperation({
    name: 'ConfigureSyncRemote',
    method: 'PUT',
    path: '/api/v1/outpost/sync/remote',
    input: 'body',
    tag: 'Sync',
    extension: true,
    effect: 'local',
    summary:
      "Link this database to a remote (base URL + API key, kept in the secret store) or replace its key; api_key may be omitted to keep the stored one. The link is checked first as TestSyncRemote does, and nothing is stored when the check fails. adopt_pre_link_records (a first link) is the choice to send the records made here before it to a remote organization (organization_id: one of the key user's; may be omitted when there is one): stored with the link and adopted by the first sync, whoever starts it (AdoptPreLinkRecords). Without it a new link keeps them here, and a new key for the same remote leaves an earlier choice as it is; removing the remote forgets it",
    request: message({
      baseUrl: remoteUrlIn,
      apiKey: apiKeyIn.optional(),
      adoptPreLinkRecords: message({ organizationId: z.string().optional() }).optional(),
    }),
    response: response({ remote: SyncRemoteOut }),
  }),
  TestSyncRemote: defineOperation({
    name: 'TestSyncRemote',
    method: 'POST',
    path: '/api/v1/outpost/sync/remote:test',
    input: 'body',
    tag: 'Sync',
    extension: true,
    effect: 'read',
    summary:
      'Check a remote before linking it, storing nothing: it answers (Ping), accepts the key and says whose it is (GetMe); a failed step is FAILED_PRECONDITION with a google.rpc.ErrorInfo reason (REMOTE_UNREACHABLE, REMOTE_KEY_REFUSED, REMOTE_IDENTITY_UNKNOWN). Also says how many records made here stay local after a first link. ConfigureSyncRemote runs the same check before it saves; api_key may be omitted to check the stored one',
    request: message({ baseUrl: remoteUrlIn, apiKey: apiKeyIn.optional() }),
    response: SyncRemoteCheckOut,
  }),
  DeleteSyncRemote: defineOperation({
    name: 'DeleteSyncRemote',
    method: 'DELETE',
    path: '/api/v1/outpost/sync/remote',
    input: 'path',
    tag: 'Sync',
    extension: true,
    effect: 'local',
    summary: 'Stop syncing and forget the remote and its API key (local data and queued edits stay)',
    request: message({}),
    response: response({}),
  }),
  SyncNow: defineOperation({
    name: 'SyncNow',
    method: 'POST',
    path: '/api/v1/outpost/sync:run',
    input: 'body',
    tag: 'Sync',
    extension: true,
    effect: 'local',
    summary: 'Start a sync run now (or join the one in progress); returns the status (state syncing)',
    request: message({}),
    response: SyncStatusOut,
  }),
  GetPreLinkRecords: defineOperation({
    name: 'GetPreLinkRecords',
    method: 'GET',
    path: '/api/v1/outpost/sync/pre-link-records',
    input: 'path',
    tag: 'Sync',
    extension: true,
    summary: 'Count the records made here before the first link (in the local organizations, not shown since the link), by kind',
    request: message({}),
    response: PreLinkRecordsOut,
  }),
  AdoptPreLinkRecords: defineOperation({
    name: 'AdoptPreLinkRecords',
    method: 'POST',
    path: '/api/v1/outpost/sync/pre-link-records:adopt',
    input: 'body',
    tag: 'Sync',
    extension: true,
    effect: 'local',
    summary:
      'Send the records made before the first link to a remote organization: each becomes an ordinary offline create (queued in the outbox, pushed by the next sync) and the local original goes, in one transaction; references resolve by name in that organization, and a record whose references do not stays here, listed with the reason. Running it again adopts only what is left',
    request: message({ organizationId: z.string().optional() }),
    response: response({
      adopted: z.array(response({ resource: z.string(), label: z.string(), count: z.number().int() })),
      leftBehind: z.array(LeftBehindOut),
      remaining: PreLinkRecordsOut,
    }),
  }),
} as const;
