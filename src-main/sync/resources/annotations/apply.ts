// Annotations as a replicated resource: the per-field merge of a remote
// version into a local record with pending edits (their fields: shape.ts), the
// adoption of an offline create found by its marker, and the bulk upsert path
// used when no local edit is pending.
import type { Annotation } from '../../../../src-shared/api/annotations';
import type { MetadataValueInput } from '../../../../src-shared/api/metadata';
import { wireMicros as micros } from '../../time';
import type { LoadedIds } from '../../../db/bulkLoad';
import type { Db, SqlValue } from '../../../db/database';
import { loadAnnotations } from '../../../services/annotations/annotationRows';
import {
  AnnotationRowWriter,
  setAnnotationArchivedDate,
  setAnnotationColumns,
  type AnnotationChildren,
  type AnnotationRowValues,
} from '../../../services/annotations/annotationStore';
import { recordConflict } from '../../conflicts';
import { mapLocalId } from '../../idMap';
import { forgetBase } from '../../merge';
import { finishEntry, hasPending, isOpen, loadEntry, pendingFields } from '../../outbox';
import { differing, mergeRecord, rowOf, snapshotOf, syncedFields } from '../../recordShape';
import type { OutboxEntry } from '../../types';
import { settleSideEffectLogs } from './historyLogs';
import type { AnnotationLog } from '../../../../src-shared/api/annotationLogs';
import { cachedPerDb, type Applier, type ApplyContext, type ApplyOptions } from '../../apply';
import { ensureOrganization } from '../../identity';
import { ANNOTATION, ANNOTATION_SHAPE, CLIENT_ID_KEY } from './shape';

// (Other resources name annotations through this module.)
export { ANNOTATION } from './shape';

/** Applying annotations: with, by remote annotation id, the history logs the remote wrote for a create of ours that a pulled page adopts. */
export interface AnnotationApplyContext extends ApplyContext {
  readonly echoes?: ReadonlyMap<string, readonly AnnotationLog[]>;
}

export function markerOf(a: Annotation): string | undefined {
  return a.metadata.find((m) => m.key.name === CLIENT_ID_KEY)?.stringValue;
}

interface LocalRow {
  pk: number;
  id: string;
  organization_id: string;
  modified_date: number;
  archived_date: number | null;
}

const LOCAL_ROW = 'SELECT pk, id, organization_id, modified_date, archived_date FROM annotations';

function localRow(db: Db, id: string): LocalRow | undefined {
  return db.get<LocalRow>(`${LOCAL_ROW} WHERE id = ?`, [id]);
}

/**
 * The local rows of a page's ids in one query (a lookup per record cost ~10% of applying an initial pull's
 * page). During a bulk load the id index is deferred: the ids the load inserted say which rows exist.
 */
function localRows(db: Db, ids: readonly string[], loaded: LoadedIds | undefined): Map<string, LocalRow> {
  const rows = loaded
    ? db.all<LocalRow>(`${LOCAL_ROW} WHERE pk IN (SELECT value FROM json_each(?))`, [
        JSON.stringify(ids.filter((id) => loaded.has(id)).map((id) => loaded.get(id))),
      ])
    : db.all<LocalRow>(`${LOCAL_ROW} WHERE id IN (SELECT value FROM json_each(?))`, [JSON.stringify(ids)]);
  return new Map(rows.map((r) => [r.id, r]));
}

/** The merge base of a record about to be edited. */
export const snapshotAnnotation = snapshotOf(ANNOTATION_SHAPE);

// ---- bulk upsert (no pending local edits) ---------------------------------

/** A wire annotation's row as stored. */
const rowOfWire = (a: Annotation) => rowOf(ANNOTATION_SHAPE, a) as AnnotationRowValues;

/** A wire annotation's child rows (without the client marker, which is the remote's bookkeeping of our create). */
const childrenOfWire = (a: Annotation): AnnotationChildren => ({
  tags: a.tags,
  assetIds: a.assetIds,
  linkedChannels: a.linkedChannels,
  // Wire values (timestamps as text): metadataInputToRow reads both forms.
  metadata: a.metadata.filter((m) => m.key.name !== CLIENT_ID_KEY) as unknown as MetadataValueInput[],
});

/** Writes remote versions of whole records through the annotation store (annotations reference their organization). */
export class AnnotationWriter {
  private readonly rows: AnnotationRowWriter;
  private readonly orgKnown = new Set<string>();

  constructor(private readonly db: Db) {
    this.rows = new AnnotationRowWriter(db);
  }

  /** Annotations reference their organization (a foreign key): make sure it exists. */
  private ensureOrganization(id: string): void {
    if (this.orgKnown.has(id)) return;
    ensureOrganization(this.db, id);
    this.orgKnown.add(id);
  }

  /** New records of a pull page, in multi-row statements. Returns their pks by id. */
  insertMany(list: readonly Annotation[]): Map<string, number> {
    for (const a of list) this.ensureOrganization(a.organizationId);
    return this.rows.insertMany(list.map((a) => ({ id: a.annotationId, row: rowOfWire(a), children: childrenOfWire(a) })));
  }

  /** Replaces every column and child row with the remote's. */
  overwrite(pk: number, a: Annotation): void {
    this.ensureOrganization(a.organizationId);
    this.rows.overwrite(pk, rowOfWire(a), childrenOfWire(a));
  }

  /**
   * Only the remote's bookkeeping columns (the synced fields are merged separately); unchanged columns are not
   * written (their indexes stay untouched). Returns whether any column was written.
   */
  touch(pk: number, a: Annotation, takeModified: boolean): boolean {
    // (An annotation stays in its organization.)
    const { organization_id: _organization, modified_date, modified_by_user_id, ...rest } = ANNOTATION_SHAPE.server!(a);
    const next: Record<string, SqlValue> = takeModified ? { ...rest, modified_date, modified_by_user_id } : rest;
    const current = this.db.get<Record<string, unknown>>(`SELECT ${Object.keys(next).join(', ')} FROM annotations WHERE pk = ?`, [pk]);
    if (!current) return false;
    const changed = Object.keys(next).filter((k) => next[k] !== current[k]);
    if (changed.length === 0) return false;
    setAnnotationColumns(this.db, pk, Object.fromEntries(changed.map((c) => [c, next[c]])));
    return true;
  }
}

// ---- applying remote versions ---------------------------------------------

/** The id-map row of the offline create that `a`'s client marker names (the remote's copy of a create of ours). */
function markerClaim(db: Db, a: Annotation): { localId: string; createdBySeq: number; remoteId: string | null } | undefined {
  const marker = markerOf(a);
  if (!marker || marker === a.annotationId) return undefined;
  const row = db.get<{ created_by_seq: number; remote_id: string | null }>(
    "SELECT created_by_seq, remote_id FROM sync_id_map WHERE local_id = ? AND resource = 'annotation'",
    [marker],
  );
  return row && { localId: marker, createdBySeq: row.created_by_seq, remoteId: row.remote_id };
}

/**
 * The open create of ours that `a` is, found by its marker before it is applied (adoptByMarker adopts it then), when
 * the create left history logs here: the puller looks up the remote's logs for them first, since the page's
 * transaction cannot wait for the remote.
 */
export function createAwaitingAdoption(db: Db, a: Annotation): OutboxEntry | undefined {
  const claim = markerClaim(db, a);
  const entry = claim && claim.remoteId === null ? loadEntry(db, claim.createdBySeq) : undefined;
  return isOpen(entry) && entry.sideEffectLogIds.length > 0 ? entry : undefined;
}

/** An offline create whose outcome was unknown is found on the remote by its marker: adopt it. Returns whether a local record took the remote id. */
function adoptByMarker(ctx: AnnotationApplyContext, a: Annotation): boolean {
  const claim = markerClaim(ctx.db, a);
  if (!claim) return false;
  if (claim.remoteId !== null) {
    // Our create reached the remote twice (a replaying middlebox): this copy is the extra one.
    if (
      claim.remoteId !== a.annotationId &&
      !ctx.db.get("SELECT 1 FROM sync_conflicts WHERE kind = 'duplicate' AND record_id = ?", [a.annotationId])
    ) {
      recordConflict(ctx.db, {
        kind: 'duplicate',
        resource: ANNOTATION,
        recordId: a.annotationId,
        field: '*',
        winner: 'local',
        localValue: claim.remoteId,
        remoteValue: a.annotationId,
        message: `a replayed create made a second copy of ${claim.remoteId} on the remote; the copy is archived`,
      });
    }
    return false;
  }
  mapLocalId(ctx, ANNOTATION, claim.localId, a.annotationId);
  const entry = loadEntry(ctx.db, claim.createdBySeq);
  if (isOpen(entry)) {
    // The create's history logs adopt the remote's (looked up before this transaction: createAwaitingAdoption), or go.
    settleSideEffectLogs(ctx, entry.seq, entry.sideEffectLogIds, ctx.echoes?.get(a.annotationId) ?? []);
    finishEntry(ctx.db, entry.seq, 'done', { result: { annotationId: a.annotationId, adoptedBy: 'pull' } });
    ctx.stats.adopted++;
  }
  return true;
}

/**
 * Three-way, per-field merge of a remote version into a local record that has pending local edits, then the remote's
 * archive date and bookkeeping columns. Returns whether the local record was written.
 */
function mergeWithPending(ctx: ApplyContext, w: AnnotationWriter, row: LocalRow, a: Annotation): boolean {
  const { db } = ctx;
  let written = mergeRecord(ctx, ANNOTATION_SHAPE, row, a, micros(a.modifiedDate) ?? 0);
  // Both archived (or not) but at different times: the remote's date, unless a local archive is still to be sent.
  if (!pendingFields(db, ANNOTATION, row.id, ctx.excludeSeq).has('archived')) {
    if (setAnnotationArchivedDate(db, row.pk, micros(a.archivedDate))) written = true;
  }
  if (w.touch(row.pk, a, !hasPending(db, ANNOTATION, row.id, ctx.excludeSeq))) written = true;
  return written;
}

/**
 * Replaces local records with newer remote versions. One counts as updated only if a synced field differs: the
 * remote's copy of our own pushed edit (the pull after every push brings it back with the server's dates) and a
 * change of bookkeeping columns alone show nothing new here. Such a copy takes only the remote's bookkeeping
 * columns and archive date: a full rewrite would touch every index and child row of thousands of records after
 * each push. The local versions are read in one batch.
 */
function overwrite(ctx: ApplyContext, writer: AnnotationWriter, list: readonly { row: LocalRow; a: Annotation }[]): void {
  if (list.length === 0) return;
  const before = new Map(
    loadAnnotations(
      ctx.db,
      list.map((o) => o.row.pk),
    ).map((l) => [l.annotationId, syncedFields(ANNOTATION_SHAPE, l)]),
  );
  for (const { row, a } of list) {
    const local = before.get(row.id);
    forgetBase(ctx.db, ANNOTATION, row.id);
    if (!local || differing(ANNOTATION_SHAPE, local, syncedFields(ANNOTATION_SHAPE, a)).length) {
      writer.overwrite(row.pk, a);
      ctx.stats.updated++;
      continue;
    }
    writer.touch(row.pk, a, true);
    setAnnotationArchivedDate(ctx.db, row.pk, micros(a.archivedDate));
    ctx.stats.unchanged++;
  }
}

/**
 * Applies remote annotations to the local store (pull pages and push results). Caller holds the transaction.
 * `loaded`: during an initial bulk load, the ids it inserted so far (updated here).
 */
function applyAnnotations(
  ctx: AnnotationApplyContext,
  list: readonly Annotation[],
  writer = new AnnotationWriter(ctx.db),
  loaded?: LoadedIds,
): void {
  const fresh = new Map<string, Annotation>();
  const overwrites: { row: LocalRow; a: Annotation }[] = [];
  const known = localRows(
    ctx.db,
    list.map((a) => a.annotationId),
    loaded,
  );
  for (const a of list) {
    let row = known.get(a.annotationId);
    // An adopted offline create now holds this id.
    if (markerOf(a) && adoptByMarker(ctx, a)) row = localRow(ctx.db, a.annotationId);
    if (!row) {
      if (!fresh.has(a.annotationId)) ctx.stats.inserted++; // one record, however many versions the page holds
      fresh.set(a.annotationId, a); // a later version in the same page replaces an earlier one
      continue;
    }
    const pending = hasPending(ctx.db, ANNOTATION, row.id, ctx.excludeSeq);
    // The result of our own push differs from the local record in few fields: write just those.
    if (!pending && ctx.excludeSeq === undefined) {
      const md = micros(a.modifiedDate);
      if (md === row.modified_date && (row.archived_date !== null) === a.isArchived && !ctx.force) {
        ctx.stats.unchanged++;
        continue;
      }
      overwrites.push({ row, a });
      continue;
    }
    if (mergeWithPending(ctx, writer, row, a)) ctx.stats.updated++;
    else ctx.stats.unchanged++;
  }
  overwrite(ctx, writer, overwrites);
  const inserted = writer.insertMany([...fresh.values()]);
  if (loaded) for (const [id, pk] of inserted) loaded.set(id, pk);
}

const annotationWriterOf = cachedPerDb((db) => new AnnotationWriter(db));

/**
 * Applies remote annotations in their own transaction. `loaded`: the ids an initial bulk load inserted so far
 * (pull.ts tracksLoadedIds); `echoes`: see AnnotationApplyContext.
 */
export function applyRemoteAnnotations(
  applier: Applier,
  list: readonly Annotation[],
  options: ApplyOptions & { loaded?: LoadedIds; echoes?: AnnotationApplyContext['echoes'] } = {},
): void {
  const { db } = applier;
  // A push result matters now only for records that still have pending edits (it becomes their merge base);
  // the others get the remote's version from the pull that follows every push.
  const apply =
    options.excludeSeq === undefined
      ? list
      : list.filter(
          (a) =>
            hasPending(db, ANNOTATION, a.annotationId, options.excludeSeq) ||
            !db.get('SELECT 1 FROM annotations WHERE id = ?', [a.annotationId]),
        );
  if (apply.length === 0) return;
  const { loaded, echoes, ...rest } = options;
  db.tx(() => applyAnnotations({ ...applier.context(rest), echoes }, apply, annotationWriterOf(db), loaded));
}
