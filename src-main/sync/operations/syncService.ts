// The user-facing side of sync, over the sync tables (migration 0007): status,
// the conflict log (list, undo, dismiss) and the outbox (list, retry). The
// replication itself lives in src-main/sync and writes the status here.
// An undo is an ordinary edit through invoke(), so it is itself synced.
import { formatOptionalTimestamp, formatTimestamp } from '../../../src-shared/api/time';
import type { SyncConflict } from '../../../src-shared/api/sync';
import { ApiError } from '../../../src-shared/errors';
import type { Db } from '../../db/database';
import type { RequestContext } from '../../engine';
import { canUndoField, undoFieldWrite } from './conflictUndo';
import type { CreatedRef } from '../types';
import { createdOnlyHere, forgetLocalIds } from '../idMap';
import { dismissEntries, dropBases, loadEntry, OPEN_STATES, requeueFailed, requeueFailedDependents, setRequest } from '../outbox';
import type { ResourceCatalog } from '../catalog';
import { takeCreateBases } from '../recorder';
import { heldHere, recordName } from './localRecords';
import { currentCreateRequest, discardRecords, whyKept } from './refusedCreates';

interface ConflictRow {
  pk: number;
  id: string;
  kind: string;
  resource: string;
  record_id: string;
  field: string;
  winner: string;
  local_value: string | null;
  remote_value: string | null;
  local_time: number | null;
  remote_time: number | null;
  message: string;
  created_date: number;
  state: string;
  resolved_date: number | null;
}

const losingValue = (r: ConflictRow) => JSON.parse((r.winner === 'remote' ? r.local_value : r.remote_value) ?? 'null') as unknown;

function conflictToWire(catalog: ResourceCatalog, db: Db, r: ConflictRow): SyncConflict {
  return {
    conflictId: r.id,
    kind: r.kind,
    resource: r.resource,
    recordId: r.record_id,
    recordName: recordName(catalog, db, r.resource, r.record_id),
    field: r.field,
    winner: r.winner,
    localValue: r.local_value === null ? null : JSON.parse(r.local_value),
    remoteValue: r.remote_value === null ? null : JSON.parse(r.remote_value),
    localTime: formatOptionalTimestamp(r.local_time),
    remoteTime: formatOptionalTimestamp(r.remote_time),
    message: r.message,
    createdDate: formatTimestamp(r.created_date),
    state: r.state,
    resolvedDate: formatOptionalTimestamp(r.resolved_date),
    undoable: r.state === 'open' && r.kind === 'field' && canUndoField(catalog, r.resource, r.record_id, r.field, losingValue(r)),
  };
}

const pageToken = (n: number) => Buffer.from(String(n)).toString('base64url');
function afterToken(token: string | undefined): number | undefined {
  if (!token) return undefined;
  const n = Number(Buffer.from(token, 'base64url').toString('utf8'));
  if (!Number.isInteger(n) || n < 0) throw ApiError.invalid('page_token', 'malformed page token');
  return n;
}

export function listConflicts(
  catalog: ResourceCatalog,
  ctx: RequestContext,
  req: { pageSize?: number; pageToken?: string; state?: 'open' | 'all'; recordId?: string },
) {
  const size = Math.min(req.pageSize || 50, 1000);
  const before = afterToken(req.pageToken);
  const where = ['1'];
  const params: (string | number)[] = [];
  if ((req.state ?? 'open') === 'open') where.push("state = 'open'");
  if (req.recordId) {
    where.push('record_id = ?');
    params.push(req.recordId);
  }
  if (before !== undefined) {
    where.push('pk < ?');
    params.push(before);
  }
  const rows = ctx.db.all<ConflictRow>(`SELECT * FROM sync_conflicts WHERE ${where.join(' AND ')} ORDER BY pk DESC LIMIT ?`, [
    ...params,
    size + 1,
  ]);
  const more = rows.length > size;
  const page = more ? rows.slice(0, size) : rows;
  return { conflicts: page.map((r) => conflictToWire(catalog, ctx.db, r)), nextPageToken: more ? pageToken(page[page.length - 1].pk) : '' };
}

function openConflict(ctx: RequestContext, id: string): ConflictRow {
  const row = ctx.db.get<ConflictRow>('SELECT * FROM sync_conflicts WHERE id = ?', [id]);
  if (!row) throw ApiError.notFound('sync conflict', id);
  if (row.state !== 'open') throw ApiError.failedPrecondition(`conflict ${id} is already ${row.state}`);
  return row;
}

export async function undoConflict(catalog: ResourceCatalog, ctx: RequestContext, id: string) {
  const row = openConflict(ctx, id);
  const losing = losingValue(row);
  const undone = row.kind === 'field' && (await undoFieldWrite(catalog, ctx, row.resource, row.record_id, row.field, losing));
  if (!undone)
    throw ApiError.failedPrecondition(
      `a ${row.kind} conflict on ${row.resource} field ${row.field} cannot be undone automatically; dismiss it once handled`,
    );
  return resolveConflict(catalog, ctx, row, 'undone');
}

function resolveConflict(catalog: ResourceCatalog, ctx: RequestContext, row: ConflictRow, state: 'undone' | 'dismissed') {
  ctx.db.run('UPDATE sync_conflicts SET state = ?, resolved_date = ? WHERE pk = ?', [state, Date.now() * 1000, row.pk]);
  return { conflict: conflictToWire(catalog, ctx.db, ctx.db.get<ConflictRow>('SELECT * FROM sync_conflicts WHERE pk = ?', [row.pk])!) };
}

export const dismissConflict = (catalog: ResourceCatalog, ctx: RequestContext, id: string) =>
  resolveConflict(catalog, ctx, openConflict(ctx, id), 'dismissed');

interface EntryRow {
  seq: number;
  operation: string;
  state: string;
  attempts: number;
  error_code: number | null;
  last_error: string | null;
  local_time: number;
  /** JSON: the records the entry created here ('[]' for none). */
  created_ids: string;
  /** JSON [[resource, record_id], ...] of the entry's targets. */
  targets: string;
  /** JSON: the request as the outbox keeps it. */
  request: string;
}

/** A refused entry that created nothing here can be set aside; a refused create holds a record that exists only here. */
const dismissable = (r: EntryRow) => r.state === 'failed' && r.created_ids === '[]';
/** A refused create that can be set aside with its record, which is then deleted here (refusedCreates.ts). */
const discardable = (catalog: ResourceCatalog, r: EntryRow) =>
  r.state === 'failed' && r.created_ids !== '[]' && whyKept(catalog, r.operation, JSON.parse(r.request)) === undefined;

const entryToWire = (catalog: ResourceCatalog, db: Db, r: EntryRow) => ({
  seq: String(r.seq),
  operation: r.operation,
  state: r.state,
  attempts: r.attempts,
  records: (JSON.parse(r.targets) as [string, string][]).map(([resource, recordId]) => ({
    resource,
    recordId,
    name: recordName(catalog, db, resource, recordId),
  })),
  errorCode: r.error_code ?? 0,
  lastError: r.last_error ?? '',
  createdDate: formatTimestamp(r.local_time),
  dismissable: dismissable(r),
  discardable: discardable(catalog, r),
});

const ENTRY_SELECT = `SELECT o.seq, o.operation, o.state, o.attempts, o.error_code, o.last_error, o.local_time, o.created_ids, o.request,
  (SELECT json_group_array(json_array(t.resource, t.record_id)) FROM sync_outbox_targets t WHERE t.seq = o.seq) AS targets FROM sync_outbox o`;

export function listOutbox(
  catalog: ResourceCatalog,
  ctx: RequestContext,
  req: { pageSize?: number; pageToken?: string; state?: 'open' | 'failed' | 'all' },
) {
  const size = Math.min(req.pageSize || 50, 1000);
  const after = afterToken(req.pageToken) ?? 0;
  const state = req.state ?? 'open';
  const filter = state === 'open' ? `o.state IN ${OPEN_STATES}` : state === 'failed' ? "o.state = 'failed'" : '1';
  const rows = ctx.db.all<EntryRow>(`${ENTRY_SELECT} WHERE ${filter} AND o.seq > ? ORDER BY o.seq LIMIT ?`, [after, size + 1]);
  const more = rows.length > size;
  const page = more ? rows.slice(0, size) : rows;
  return { entries: page.map((r) => entryToWire(catalog, ctx.db, r)), nextPageToken: more ? pageToken(page[page.length - 1].seq) : '' };
}

function failedEntry(ctx: RequestContext, seq: string, action: string): EntryRow {
  const row = ctx.db.get<EntryRow>(`${ENTRY_SELECT} WHERE o.seq = ?`, [Number(seq)]);
  if (!row) throw ApiError.notFound('outbox entry', seq);
  if (row.state !== 'failed') throw ApiError.failedPrecondition(`entry ${seq} is ${row.state}; only failed entries can be ${action}`);
  return row;
}

const entryBody = (catalog: ResourceCatalog, ctx: RequestContext, seq: number) => ({
  entry: entryToWire(catalog, ctx.db, ctx.db.get<EntryRow>(`${ENTRY_SELECT} WHERE o.seq = ?`, [seq])!),
});

export function retryEntry(catalog: ResourceCatalog, ctx: RequestContext, seq: string) {
  const row = failedEntry(ctx, seq, 'retried');
  ctx.db.tx(() => {
    // A refused create goes as its record is now (corrected since, perhaps); see refusedCreates.ts.
    const created = onlyHere(ctx, row);
    const current = created ? currentCreateRequest(catalog, ctx, row.operation, created) : undefined;
    if (current !== undefined) setRequest(ctx.db, row.seq, current);
    if (created) takeCreateBases(catalog, ctx.db, createdBy(row), 'replace');
    requeueFailed(ctx.db, [row.seq]);
    // The edits refused only because they refer to a record this entry creates (comments on an offline annotation
    // whose create was refused) go back with it: they cannot succeed before it, and need nothing else. So do those
    // that refer to a record one of them creates (the archive of an artifact linked to that annotation), and so on.
    for (let wave = [row.seq]; wave.length > 0;) wave = requeueFailedDependents(ctx.db, wave);
  });
  return entryBody(catalog, ctx, row.seq);
}

/** The id of the record a create entry made here, while the remote has none for it. */
function onlyHere(ctx: RequestContext, row: EntryRow): string | undefined {
  const [created] = JSON.parse(row.created_ids) as { id: string }[];
  return created && createdOnlyHere(ctx.db, created.id, row.seq) ? created.id : undefined;
}

/** An open or refused entry that refers to records a discard deletes (its request names one of them). */
interface Dependent {
  seq: number;
  operation: string;
  state: string;
  created_ids: string;
  /** JSON: the ids of the records it writes. */
  targets: string;
}

/** The open or refused entries, other than `excluded`, whose requests name one of `ids`. */
function entriesNaming(ctx: RequestContext, ids: ReadonlySet<string>, excluded: readonly number[]): Dependent[] {
  return ctx.db.all<Dependent>(
    `SELECT o.seq, o.operation, o.state, o.created_ids, (SELECT json_group_array(t.record_id) FROM sync_outbox_targets t WHERE t.seq = o.seq) AS targets
     FROM sync_outbox o WHERE o.state IN ('pending', 'inflight', 'failed') AND o.seq NOT IN (SELECT value FROM json_each(?))
       AND EXISTS (SELECT 1 FROM json_each(?) j WHERE instr(o.request, j.value) > 0)
     ORDER BY o.seq`,
    [JSON.stringify(excluded), JSON.stringify([...ids])],
  );
}

const createdBy = (e: { created_ids: string }) => JSON.parse(e.created_ids) as CreatedRef[];

/**
 * Sets a refused edit aside: it is not sent, and leaves the refused list (and the attention count). A refused
 * create only with `discard`: what it made here, which exists only here, is deleted here (with what cascades from
 * it), and the edits that refer to it (its comments, updates, the steps of a report), and to what they made, are
 * set aside with it. Refused when one of those also writes another record (a batch naming others too) or made a
 * record that would outlive the discard (an artifact linked to a discarded annotation): that needs a choice per record.
 */
export function dismissEntry(catalog: ResourceCatalog, ctx: RequestContext, seq: string, discard = false) {
  const row = failedEntry(ctx, seq, 'dismissed');
  if (dismissable(row)) {
    ctx.db.tx(() => {
      // The history logs it appended here tell of a change the remote will never make (a refusal already took them).
      catalog.deleteSideEffects(ctx.db, loadEntry(ctx.db, row.seq)!.sideEffectLogIds);
      dismissEntries(ctx.db, [row.seq]);
    });
    return entryBody(catalog, ctx, row.seq);
  }
  const kept = onlyHere(ctx, row) === undefined ? '' : whyKept(catalog, row.operation, JSON.parse(row.request));
  if (kept !== undefined) {
    const why = kept ? ` and cannot be discarded (${kept})` : '';
    throw ApiError.failedPrecondition(
      `entry ${seq} (${row.operation}) created a record that exists only here${why}; retry it once the remote can take it`,
    );
  }
  if (!discard) {
    throw ApiError.failedPrecondition(
      `entry ${seq} (${row.operation}) created a record that exists only here: setting it aside deletes that record here (discard_record)`,
    );
  }
  const afterCommit = ctx.db.tx(() => {
    const made = createdBy(row);
    const ids = new Set(made.map((c) => c.id));
    // Edits that name the record, then those that name what those edits made (a comment's deletion), and so on.
    const dependents: Dependent[] = [];
    for (
      let found = entriesNaming(ctx, ids, [row.seq]);
      found.length > 0;
      found = entriesNaming(ctx, ids, [row.seq, ...dependents.map((d) => d.seq)])
    ) {
      for (const d of found) {
        dependents.push(d);
        for (const c of createdBy(d)) ids.add(c.id);
      }
    }
    const refuse = (d: Dependent, why: string) => {
      throw ApiError.failedPrecondition(`entry ${d.seq} (${d.operation}) refers to the record and ${why}; handle it first`);
    };
    for (const d of dependents) {
      if (d.state === 'inflight') refuse(d, 'is being sent');
      if ((JSON.parse(d.targets) as string[]).some((id) => !ids.has(id))) refuse(d, 'also writes other records');
    }
    const after = discardRecords(catalog, ctx, row.operation, made);
    // What the edits that waited made goes with the record (a comment with its annotation, a step with its report); what would stay
    // (an artifact linked to a discarded annotation, a report imported from a discarded file) is theirs to give up first.
    for (const d of dependents)
      if (createdBy(d).some((c) => heldHere(catalog, ctx.db, c.resource, c.id))) refuse(d, 'made records of its own');
    forgetLocalIds(ctx.db, [...ids]);
    dropBases(ctx.db, [...ids]);
    dismissEntries(ctx.db, [row.seq, ...dependents.map((d) => d.seq)]);
    return after;
  });
  afterCommit?.(); // its files, now that the records are gone
  return entryBody(catalog, ctx, row.seq);
}
