// A batch's one read of the annotations it acts on: their rows and child rows,
// and their Cedar names (pk, id, organization), kept for the batch's length
// (Db.joinedValue) so that each item's stages (its authorization, its merge
// base on a replica, its write, its read-back) take them from here instead of
// reading each record again (issue #33 goal 1: three to four reads a record).
import { keepNamedRecords } from '../../auth/cedar/entities';
import { visibleTo } from '../../auth/caller';
import type { Db } from '../../db/database';
import type { RequestContext } from '../../engine';
import { ANNOTATION_COLUMN as C, batchPageRows, type PageRows } from './annotationPageQueries';

/** The rows of the annotations `pks` (ascending pk), kept for the rest of the batch. */
export function readForBatch(db: Db, pks: readonly number[]): PageRows {
  const page = batchPageRows(db, pks);
  keepNamedRecords(
    db,
    'annotations',
    page.rows.map((r) => ({ pk: r[C.pk], id: r[C.id], organizationId: r[C.organization_id] })),
  );
  return page;
}

/** The same, for the annotations with these ids the caller can see (the others are left to each item: NOT_FOUND). */
export function readForBatchByIds(ctx: RequestContext, ids: readonly string[]): PageRows {
  const scope = visibleTo(ctx.caller, 'a.organization_id');
  const pks = ctx.db
    .all<{ pk: number }>(`SELECT a.pk FROM json_each(?) j CROSS JOIN annotations a ON a.id = j.value WHERE ${scope.sql}`, [
      JSON.stringify([...new Set(ids)]),
      ...scope.params,
    ])
    .map((r) => r.pk);
  return readForBatch(ctx.db, pks);
}
