// Sync as the Sync view and the navigation badge use it: the remote profile,
// "sync now", failed outbox entries and open conflicts, plus the wording of
// states (pure helpers, tested in syncService.spec.ts).
import type { SyncConflict, SyncRemote, SyncRemoteCheck, SyncStatus } from '../../../../src-shared/api/sync';
import type { Client } from '../../../../src-shared/client';
import { counted, enumLabel, formatTime } from '../format';
import { DEFAULT_SORT, type AnnotationQuery } from './annotationService';

// Views that show sync counts import it from here with the rest of the sync words.
export { counted };

export type { SyncConflict, SyncRemote, SyncRemoteCheck, SyncStatus };
export type SyncOutboxEntry = Awaited<ReturnType<Client['ListSyncOutbox']>>['entries'][number];

export async function getRemote(client: Client): Promise<SyncRemote | null> {
  return (await client.GetSyncRemote({})).remote;
}

/** Checks a link without storing anything (an empty key: the stored one); refused with the failed step (errors.ts linkCheck). */
export async function testRemote(client: Client, baseUrl: string, apiKey: string): Promise<SyncRemoteCheck> {
  const key = apiKey.trim();
  return await client.TestSyncRemote({ baseUrl: baseUrl.trim(), ...(key ? { apiKey: key } : {}) });
}

/**
 * An empty key keeps the stored one (the key is write-only: the form never shows it). `adoptTo`: send the records made
 * here before this first link with the first sync (the engine keeps the choice with the link), to that organization
 * ('' = the remote user's only one).
 */
export async function configureRemote(client: Client, baseUrl: string, apiKey: string, adoptTo?: string): Promise<SyncRemote> {
  const key = apiKey.trim();
  const adopt = adoptTo === undefined ? {} : { adoptPreLinkRecords: adoptTo ? { organizationId: adoptTo } : {} };
  return (await client.ConfigureSyncRemote({ baseUrl: baseUrl.trim(), ...(key ? { apiKey: key } : {}), ...adopt })).remote;
}

export async function removeRemote(client: Client): Promise<void> {
  await client.DeleteSyncRemote({});
}

export const syncNow = (client: Client): Promise<SyncStatus> => client.SyncNow({});

export const getStatus = (client: Client): Promise<SyncStatus> => client.GetSyncStatus({});

/** Edits the remote refused (4xx other than auth), oldest first. */
export async function listFailedEntries(client: Client): Promise<SyncOutboxEntry[]> {
  return (await client.ListSyncOutbox({ state: 'failed', pageSize: 200 })).entries;
}

export async function retryEntry(client: Client, seq: string): Promise<SyncOutboxEntry> {
  return (await client.RetrySyncEntry({ seq })).entry;
}

/**
 * Sets a refused edit aside (offered when the entry is `dismissable`); with `discardRecord`, a refused create and the
 * record it made here, which is deleted (offered when the entry is `discardable`, after the user confirmed).
 */
export async function dismissEntry(client: Client, seq: string, discardRecord = false): Promise<SyncOutboxEntry> {
  return (await client.DismissSyncEntry(discardRecord ? { seq, discardRecord } : { seq })).entry;
}

/** Open conflicts, newest first. */
export async function listOpenConflicts(client: Client): Promise<SyncConflict[]> {
  return (await client.ListSyncConflicts({ state: 'open', pageSize: 200 })).conflicts;
}

export async function undoConflict(client: Client, conflictId: string): Promise<SyncConflict> {
  return (await client.UndoSyncConflict({ conflictId })).conflict;
}

export async function dismissConflict(client: Client, conflictId: string): Promise<SyncConflict> {
  return (await client.DismissSyncConflict({ conflictId })).conflict;
}

/** How a record appears in the sync lists: its kind in words and its name here, else the start of its id. */
export function recordLabel(resource: string, recordId: string, name: string): { kind: string; text: string; named: boolean } {
  return { kind: resource.replace(/_/g, ' '), text: name || recordId.slice(0, 8), named: name !== '' };
}

/**
 * Where a record of the Sync view can be opened: an annotation held here, in the Annotations view listing only it
 * (to correct what the remote refused, then Retry). Other kinds, and records not held here, have no such place.
 */
export function recordQuery(resource: string, recordId: string, name: string): AnnotationQuery | undefined {
  if (resource !== 'annotation' || name === '') return undefined;
  return { filter: `annotation_id == '${recordId.replace(/['\\]/g, '')}'`, sort: DEFAULT_SORT };
}

export type SyncTone = 'ok' | 'busy' | 'warn' | 'error' | 'off';

export interface SyncBadge {
  readonly text: string;
  readonly tone: SyncTone;
  /** Longer wording for a tooltip / screen readers. */
  readonly title: string;
}

/** What an offline replica says: never the connection error itself (no URL, port or errno), only what waits here. */
export const offlineTitle = (status: SyncStatus) =>
  `Offline: ${counted(status.pendingCount, 'edits')} saved here; will send when connected`;

/** The navigation badge: what needs attention first (auth stop, error, failures, pending), else "synced". */
export function badgeOf(status: SyncStatus | undefined, running = false): SyncBadge | undefined {
  if (!status || !status.remoteUrl) return undefined;
  if (status.state === 'auth_error')
    return { text: 'Key refused', tone: 'error', title: status.lastError || 'The remote refused the API key: sync is stopped.' };
  // A connection that fails is a normal state (no network, the remote restarting): not an error, and a probe
  // finds the remote again; a run that starts meanwhile does not flip the badge back and forth.
  if (status.state === 'offline') return { text: 'Offline', tone: 'busy', title: offlineTitle(status) };
  if (running || status.state === 'syncing') return { text: 'Syncing', tone: 'busy', title: `Syncing with ${status.remoteUrl}` };
  if (status.state === 'error') return { text: 'Error', tone: 'error', title: status.lastError || 'The last sync failed.' };
  const attention = status.failedCount + status.openConflictCount;
  if (attention > 0)
    return {
      text: String(attention),
      tone: 'warn',
      title: `${counted(status.failedCount, 'refused edits')}, ${counted(status.openConflictCount, 'open conflicts')}`,
    };
  if (status.pendingCount > 0)
    return { text: String(status.pendingCount), tone: 'busy', title: `${counted(status.pendingCount, 'edits')} waiting to be sent` };
  return { text: '✓', tone: 'ok', title: `In sync with ${status.remoteUrl}` };
}

/** The state line of the status panel. */
export function stateLabel(status: SyncStatus, running = false): string {
  if (!status.remoteUrl) return 'Not linked';
  if (status.state === 'offline') return offlineTitle(status);
  if (running || status.state === 'syncing') return status.phase ? `Syncing (${phaseLabel(status.phase)})` : 'Syncing';
  switch (status.state) {
    case 'auth_error':
      return 'Stopped: API key refused';
    case 'error':
      return 'Last sync failed';
    default:
      if (status.failedCount + status.openConflictCount > 0)
        return `Needs attention: ${counted(status.failedCount, 'refused edits')}, ${counted(status.openConflictCount, 'conflicts')}`;
      return status.lastSuccessDate ? `Synced ${formatTime(status.lastSuccessDate)}` : 'Not synced yet';
  }
}

export function phaseLabel(phase: string): string {
  switch (phase) {
    case 'connecting':
      return 'connecting';
    case 'pull':
      return 'receiving';
    case 'push':
      return 'sending';
    case 'done':
      return 'finishing';
    default:
      return phase;
  }
}

/** Rows pulled per resource as `12 annotations, 3 annotation logs` (nothing: `nothing new`). */
export function pulledSummary(pulled: readonly { resource: string; rows: number }[] | Readonly<Record<string, number>>): string {
  const rows = Array.isArray(pulled) ? pulled : Object.entries(pulled).map(([resource, n]) => ({ resource, rows: n as number }));
  const parts = rows.filter((r) => r.rows > 0).map((r) => counted(r.rows, r.resource.replace(/_/g, ' ')));
  return parts.length ? parts.join(', ') : 'nothing new';
}

/** A conflict value as one line of text (values are canonical JSON: strings, numbers, lists, null). */
export function conflictValue(value: unknown, field: string): string {
  // '*': a whole record (one the remote no longer has, kept here), not a field's value.
  if (field === '*')
    return value === null || value === undefined ? '(gone)' : typeof value === 'object' ? 'the record, kept here' : String(value);
  if (value === null || value === undefined || value === '') return '(empty)';
  if ((field === 'start_time' || field === 'end_time') && typeof value === 'number')
    return new Date(value / 1000).toISOString().replace('.000Z', 'Z');
  if (field === 'state' && typeof value === 'string') return enumLabel(value, 'ANNOTATION_STATE_');
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return JSON.stringify(value);
}

/** `UpdateAnnotation` -> `Update annotation`. */
export function operationLabel(operation: string): string {
  const words = operation.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
