// Hard deletions upstream that an incremental pull cannot see: a record
// deleted on the remote on its own (an annotation log, a test step or
// measurement) changes nothing the pull's cursor reads. So now and then
// (`reconcileEvery`, 6 h by default) such a list is read in full, ids only
// kept, and every local record the remote no longer lists is removed, unless
// it is still on its way there: created by an open outbox entry, or kept by
// the resource's own rule (`stays`). Records the remote creates while the
// listing runs are not local yet (the pull runs alone, before the push), so
// nothing the remote has is ever removed. Only records of the remote's
// organizations are considered: a local organization's never went there.
//
// A list that can change while it is read is ordered on an immutable field
// (`orderBy`), so no record moves between pages and every one the remote keeps
// is seen. A remote that refuses that order gets no check in this run (a
// warning; the reconcile stays due): read unordered, a record edited during
// the listing could be missed and a live record removed here.
import { ApiError, Code, type FieldViolation } from '../../src-shared/errors';
import type { Db } from '../db/database';
import type { RecordTable } from '../db/recordTable';
import type { Puller } from './pull';
import type { SyncSession } from './session';
import type { RemoteFeatures } from './spec';
import { OPEN_STATES } from './outbox';
import { keptAfterRemoteDeletion, remoteDeletionStays } from './conflicts';

export interface LocalRecord {
  readonly pk: number;
  readonly id: string;
}

export interface DeletionReconcilerOptions<T> {
  /** Key of the reconcile clock in sync_cursors; also the label of warnings and progress. */
  readonly resource: string;
  /** The list operation of the operation table, read in full. */
  readonly operation: string;
  readonly listField: string;
  /** order_by of every page: an immutable field, so no record moves between pages (see above). */
  readonly orderBy?: string;
  idOf(item: T): string;
  /** Local table (pk, id, organization_id), from its store: records the remote no longer lists are deleted through it. */
  readonly rows: RecordTable;
  /** The records' resource in outbox created ids. */
  readonly createdResource: string;
  /** Further records to keep although the remote no longer lists them; asked only about those. */
  stays?(db: Db): (record: LocalRecord) => boolean;
}

/** Ids of `resource` records that open outbox entries created (not on the remote yet, or not known to be). */
function createdByOpenEntries(db: Db, resource: string): Set<string> {
  const ids = new Set<string>();
  for (const e of db.all<{ created_ids: string }>(`SELECT created_ids FROM sync_outbox WHERE state IN ${OPEN_STATES}`)) {
    for (const c of JSON.parse(e.created_ids) as { resource: string; id: string }[]) if (c.resource === resource) ids.add(c.id);
  }
  return ids;
}

const BAD_REQUEST = 'type.googleapis.com/google.rpc.BadRequest';

/**
 * The remote refused the order itself (INVALID_ARGUMENT or UNIMPLEMENTED naming order_by). A field violation,
 * when the answer has one, says which parameter was wrong (a stale page token's message may name order_by too).
 */
export function orderRefused(e: unknown): boolean {
  if (!(e instanceof ApiError) || (e.code !== Code.INVALID_ARGUMENT && e.code !== Code.UNIMPLEMENTED)) return false;
  const violations = e.details.flatMap((d) =>
    d['@type'] === BAD_REQUEST ? ((d as { fieldViolations?: FieldViolation[] }).fieldViolations ?? []) : [],
  );
  return violations.length ? violations.some((v) => /^order_?by$/i.test(v.field)) : /order_?by/i.test(e.message);
}

/** Per run (its features object): checks whose order the remote refused, not asked for again. */
const refusedChecks = new WeakMap<RemoteFeatures, Set<string>>();

const lastReconcile = (db: Db, key: string) =>
  db.get<{ modified_date: number }>('SELECT modified_date FROM sync_cursors WHERE resource = ?', [key])?.modified_date;

function saveReconcile(db: Db, key: string, serverTime: number): void {
  db.run(
    `INSERT INTO sync_cursors(resource, modified_date, last_id, updated_date) VALUES (?, ?, '', ?)
     ON CONFLICT(resource) DO UPDATE SET modified_date = excluded.modified_date, updated_date = excluded.updated_date`,
    [key, serverTime, Date.now() * 1000],
  );
}

/**
 * After a list read whole (ListedWhole.settle): its records in `organizationIds` that the remote no longer listed were
 * deleted there (a hard delete), unless made or edited here and not sent yet, or kept by an open remote_missing conflict.
 */
export function removeUnlisted(
  db: Db,
  kind: string,
  rows: RecordTable,
  organizationIds: readonly string[],
  seen: ReadonlySet<string>,
): void {
  const stays = remoteDeletionStays(db);
  removeMissing(db, kind, rows, organizationIds, seen, (r) => stays(kind, r.id));
}

/** Deletes the records in `organizationIds` the remote did not list (`seen`) and that do not stay here, with their merge bases. */
function removeMissing(
  db: Db,
  kind: string,
  rows: RecordTable,
  organizationIds: readonly string[],
  seen: ReadonlySet<string>,
  stays: (record: LocalRecord) => boolean,
): void {
  for (const r of db.all<LocalRecord>(`SELECT pk, id FROM ${rows.table} WHERE organization_id IN (SELECT value FROM json_each(?))`, [
    JSON.stringify(organizationIds),
  ])) {
    if (seen.has(r.id) || stays(r)) continue;
    rows.deleteByIds(db, [r.id]); // what hangs from it cascades
    db.run('DELETE FROM sync_base WHERE resource = ? AND record_id = ?', [kind, r.id]);
  }
}

/** A puller that lists every id of a resource when the reconcile is due and removes local records the remote lacks. */
export function deletionReconciler<T>(o: DeletionReconcilerOptions<T>): Puller<T> {
  return {
    resource: o.resource,
    operation: o.operation,
    listField: o.listField,
    collisions: null,
    // (Due every `reconcileEvery`, not every run.)
    readAgain: 'never',
    idOf: o.idOf,
    variants(s: SyncSession) {
      if (refusedChecks.get(s.features)?.has(o.resource)) return [];
      const last = lastReconcile(s.db, o.resource);
      if (last === undefined) {
        // A first pull has just read every record (or is about to): the clock starts now.
        saveReconcile(s.db, o.resource, s.remote.serverNow());
        return [];
      }
      // (The server clock is estimated to within a second: an interval of 0 means every sync.)
      return s.reconcileEvery <= 0 || s.remote.serverNow() - last >= s.reconcileEvery ? [o.orderBy ? { orderBy: o.orderBy } : {}] : [];
    },
    // Arrivals are the incremental puller's work: this one only looks at what is missing (and counts as nothing pulled).
    apply: () => 0,
    listing: { by: 'deletions', skipOn, settle },
  };

  // The reconcile clock is not moved: the check stays due, and the next run asks again.
  function skipOn(s: SyncSession, error: unknown): string | undefined {
    if (!o.orderBy || !orderRefused(error)) return undefined;
    const refused = refusedChecks.get(s.features) ?? new Set<string>();
    refusedChecks.set(s.features, refused.add(o.resource));
    return `the remote refused ${o.operation} ordered by ${o.orderBy} (${(error as Error).message}); deletions there are not looked for in this sync`;
  }

  function settle(s: SyncSession, _variant: Record<string, unknown>, seen: ReadonlySet<string>): void {
    const created = createdByOpenEntries(s.db, o.createdResource);
    const kept = keptAfterRemoteDeletion(s.db, o.createdResource);
    const stays = o.stays?.(s.db);
    const organizations = s.identity.organizations.map((org) => org.id);
    removeMissing(s.db, o.createdResource, o.rows, organizations, seen, (r) => created.has(r.id) || kept.has(r.id) || !!stays?.(r));
    saveReconcile(s.db, o.resource, s.remote.serverNow());
  }
}
