// Annotations as a replicated resource: their synced fields, the snapshot that
// becomes a merge base, the per-field merge of a remote version into the local
// record, and the bulk upsert path used when no local edit is pending.
import { AnnotationState, AnnotationType, type Annotation, type AnnotationStateName } from '../../../../src-shared/api/annotations';
import type { MetadataValue, MetadataValueInput } from '../../../../src-shared/api/metadata';
import { wireMicros } from '../../time';
import type { LoadedIds } from '../../../db/bulkLoad';
import type { Db, SqlValue } from '../../../db/database';
import { loadAnnotations } from '../../../services/annotations/annotationRows';
import {
  AnnotationRowWriter,
  replaceAnnotationLinkedChannels,
  replaceAnnotationMetadata,
  replaceAnnotationTags,
  setAnnotationArchivedDate,
  setAnnotationColumns,
  type AnnotationChildren,
  type AnnotationRowValues,
} from '../../../services/annotations/annotationStore';
import { ANNOTATION_EDITABLE_PATHS, type AnnotationColumn } from '../../../services/annotations/annotationFields';
import { sameValue } from '../../canonical';
import { recordConflict } from '../../conflicts';
import { isUnmappedLocalId, mapLocalId } from '../../idMap';
import { finishEntry, hasPending, isOpen, loadEntry, ownFields, pendingFields } from '../../outbox';
import type { OutboxEntry } from '../../types';
import { settleSideEffectLogs } from './historyLogs';
import type { AnnotationLog } from '../../../../src-shared/api/annotationLogs';
import { cachedPerDb, type Applier, type ApplyContext, type ApplyOptions } from '../../apply';
import { ensureOrganization } from '../../identity';

export const ANNOTATION = 'annotation';

/** Applying annotations: with, by remote annotation id, the history logs the remote wrote for a create of ours that a pulled page adopts. */
export interface AnnotationApplyContext extends ApplyContext {
  readonly echoes?: ReadonlyMap<string, readonly AnnotationLog[]>;
}

/** Metadata key an offline-created annotation carries on the remote: its local id (the idempotency marker). */
export const CLIENT_ID_KEY = 'outpost_client_id';

/** The synced fields: what a client edits (one declaration: services/annotations/annotationFields.ts) and the archive. */
export const ANNOTATION_FIELDS = [...ANNOTATION_EDITABLE_PATHS, 'archived'] as const;
export type AnnotationField = (typeof ANNOTATION_FIELDS)[number];
export type AnnotationFields = Record<AnnotationField, unknown>;

const micros = wireMicros;

function normalizeMetadata(list: readonly MetadataValue[]): MetadataValue[] {
  return list
    .filter((m) => m.key.name !== CLIENT_ID_KEY)
    .map((m) => {
      // Archive dates compared as stored (microseconds; absent = null); the filter field type is derived from the type.
      const archived = { archivedDate: micros(m.archivedDate ?? '') ?? null, keyArchivedDate: micros(m.key.archivedDate ?? '') ?? null };
      const out = { key: { name: m.key.name, type: m.key.type }, ...archived } as unknown as MetadataValue;
      if (m.stringValue !== undefined) out.stringValue = m.stringValue;
      if (m.numberValue !== undefined) out.numberValue = m.numberValue;
      if (m.booleanValue !== undefined) out.booleanValue = m.booleanValue;
      if (m.relationValue !== undefined)
        out.relationValue = { resourceType: m.relationValue.resourceType, resourceId: m.relationValue.resourceId };
      return out;
    });
}

export function markerOf(a: Annotation): string | undefined {
  return a.metadata.find((m) => m.key.name === CLIENT_ID_KEY)?.stringValue;
}

/** The synced fields of a wire annotation, canonical (times in micros, marker stripped). */
export function fieldsOfWire(a: Annotation): AnnotationFields {
  return {
    name: a.name,
    description: a.description,
    start_time: micros(a.startTime),
    end_time: micros(a.endTime),
    assigned_to_user_id: a.assignedToUserId,
    state: a.state && a.state !== 'ANNOTATION_STATE_UNSPECIFIED' ? a.state : null,
    tags: [...a.tags],
    legend_config: a.legendConfig ?? null,
    linked_channels: a.linkedChannels.map((c) =>
      c.channel
        ? { channel: { channelId: c.channel.channelId } }
        : c.bitFieldElement
          ? { bitFieldElement: { channelId: c.bitFieldElement.channelId, bitFieldName: c.bitFieldElement.bitFieldName } }
          : { calculatedChannel: { calculatedChannelVersionId: c.calculatedChannel?.calculatedChannelVersionId ?? '' } },
    ),
    metadata: normalizeMetadata(a.metadata),
    archived: a.isArchived,
  };
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

export function localFields(db: Db, pk: number): AnnotationFields | undefined {
  const [a] = loadAnnotations(db, [pk]);
  return a && fieldsOfWire(a);
}

/** The merge base of a record about to be edited: the local state, which equals the remote's while nothing is pending. */
export function snapshotAnnotation(db: Db, id: string): { version: number; fields: AnnotationFields } | undefined {
  const row = localRow(db, id);
  if (!row) return undefined;
  return { version: row.modified_date, fields: localFields(db, row.pk)! };
}

const stateNumber = (s: unknown): number | null => (s ? AnnotationState.numbers[s as AnnotationStateName] : null);

/** Writes one synced field of a local record (no history log, no outbox entry: this is replication). */
/** `value`: the field's canonical form (fieldsOfWire), as the merge compares it. */
export function writeField(db: Db, pk: number, field: AnnotationField, value: unknown, remote?: Annotation): void {
  switch (field) {
    case 'name':
    case 'description':
    case 'start_time':
    case 'end_time':
    case 'assigned_to_user_id':
    case 'legend_config':
      setAnnotationColumns(db, pk, { [field]: value as SqlValue });
      return;
    case 'state':
      setAnnotationColumns(db, pk, { state: stateNumber(value) });
      return;
    case 'tags':
      replaceAnnotationTags(db, pk, value as string[]);
      return;
    case 'linked_channels':
      replaceAnnotationLinkedChannels(db, pk, value as Annotation['linkedChannels']);
      return;
    case 'metadata':
      replaceAnnotationMetadata(db, pk, value as MetadataValueInput[]);
      return;
    case 'archived':
      setAnnotationArchivedDate(db, pk, value ? (micros(remote?.archivedDate) ?? Date.now() * 1000) : null);
      return;
  }
}

// ---- bulk upsert (no pending local edits) ---------------------------------

/** A wire annotation's row as stored. */
function rowOfWire(a: Annotation): AnnotationRowValues {
  return {
    organization_id: a.organizationId,
    name: a.name,
    description: a.description,
    start_time: micros(a.startTime),
    end_time: micros(a.endTime),
    created_by_user_id: a.createdByUserId,
    modified_by_user_id: a.modifiedByUserId,
    created_date: micros(a.createdDate),
    modified_date: micros(a.modifiedDate),
    run_id: a.runId ?? null,
    state: stateNumber(a.state && a.state !== 'ANNOTATION_STATE_UNSPECIFIED' ? a.state : null),
    assigned_to_user_id: a.assignedToUserId,
    annotation_type: AnnotationType.numbers[a.annotationType] ?? 1,
    legend_config: a.legendConfig ?? null,
    created_by_condition_id: a.createdByConditionId ?? null,
    created_by_rule_condition_version_id: a.createdByRuleConditionVersionId ?? null,
    report_rule_version_id: a.reportRuleVersionId ?? null,
    pending: a.pending ? 1 : 0,
    deleted_date: micros(a.deletedDate),
    archived_date: micros(a.archivedDate),
    batched_triggers: a.batchedTriggers,
    is_noisy_rule: a.isNoisyRule ? 1 : 0,
  };
}

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

  insert(a: Annotation): number {
    this.ensureOrganization(a.organizationId);
    return this.rows.insert(a.annotationId, rowOfWire(a), childrenOfWire(a));
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
    const current = this.db.get<Record<string, unknown>>(
      `SELECT created_by_user_id, created_date, run_id, annotation_type, pending, deleted_date, batched_triggers, is_noisy_rule, report_rule_version_id,
         created_by_condition_id, created_by_rule_condition_version_id, modified_date, modified_by_user_id FROM annotations WHERE pk = ?`,
      [pk],
    );
    if (!current) return false;
    const next: Partial<Record<AnnotationColumn, SqlValue>> = {
      created_by_user_id: a.createdByUserId,
      created_date: micros(a.createdDate),
      run_id: a.runId ?? null,
      annotation_type: AnnotationType.numbers[a.annotationType] ?? 1,
      pending: a.pending ? 1 : 0,
      deleted_date: micros(a.deletedDate),
      batched_triggers: a.batchedTriggers,
      is_noisy_rule: a.isNoisyRule ? 1 : 0,
      report_rule_version_id: a.reportRuleVersionId ?? null,
      created_by_condition_id: a.createdByConditionId ?? null,
      created_by_rule_condition_version_id: a.createdByRuleConditionVersionId ?? null,
      ...(takeModified ? { modified_date: micros(a.modifiedDate), modified_by_user_id: a.modifiedByUserId } : {}),
    };
    const changed = (Object.keys(next) as AnnotationColumn[]).filter((k) => next[k] !== current[k]);
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
 * Three-way, per-field merge of a remote version into a local record that has pending local edits. Returns
 * whether the local record was written (a remote field taken, or the remote's bookkeeping columns).
 */
function mergeWithPending(ctx: ApplyContext, w: AnnotationWriter, row: LocalRow, a: Annotation): boolean {
  const { db } = ctx;
  const remote = fieldsOfWire(a);
  const remoteTime = micros(a.modifiedDate) ?? 0;
  const baseRow = db.get<{ fields: string; remote_version: number }>(
    'SELECT fields, remote_version FROM sync_base WHERE resource = ? AND record_id = ?',
    [ANNOTATION, row.id],
  );
  const base = baseRow ? (JSON.parse(baseRow.fields) as AnnotationFields) : null;
  const local = localFields(db, row.pk)!;
  const own = ownFields(ctx, ANNOTATION, row.id);
  let pending = pendingFields(db, ANNOTATION, row.id, ctx.excludeSeq);
  let written = false;
  for (const f of ANNOTATION_FIELDS) {
    if (sameValue(local[f], remote[f])) continue;
    const p = pending.get(f);
    if (!p) {
      writeField(db, row.pk, f, remote[f], a);
      written = true;
      continue;
    }
    // Without a base (our own create just landed) the remote holds nothing newer than what we sent;
    // a field the entry being completed wrote changed remotely because of us, not a competitor.
    const remoteChanged = base && !own.has(f) ? !sameValue(remote[f], base[f]) : false;
    if (!remoteChanged) continue;
    // Changed on both sides: the later write wins; the loser goes to the conflict log.
    const localTime = p.localTime + ctx.clockOffset;
    if (remoteTime > localTime) {
      writeField(db, row.pk, f, remote[f], a);
      written = true;
      for (const seq of p.seqs) ctx.dropField(seq, ANNOTATION, row.id, f);
      recordConflict(db, {
        kind: 'field',
        resource: ANNOTATION,
        recordId: row.id,
        field: f,
        winner: 'remote',
        localValue: local[f],
        remoteValue: remote[f],
        localTime,
        remoteTime,
      });
    } else {
      recordConflict(db, {
        kind: 'field',
        resource: ANNOTATION,
        recordId: row.id,
        field: f,
        winner: 'local',
        localValue: local[f],
        remoteValue: remote[f],
        localTime,
        remoteTime,
      });
    }
    ctx.stats.conflicts++;
  }
  pending = pendingFields(db, ANNOTATION, row.id, ctx.excludeSeq);
  // Both archived (or not) but at different times: the remote's date, unless a local archive is still to be sent.
  if (!pending.has('archived')) {
    if (setAnnotationArchivedDate(db, row.pk, micros(a.archivedDate))) written = true;
  }
  const stillPending = hasPending(db, ANNOTATION, row.id, ctx.excludeSeq);
  if (w.touch(row.pk, a, !stillPending)) written = true;
  if (stillPending) {
    db.run(
      `INSERT INTO sync_base(resource, record_id, remote_version, fields) VALUES (?, ?, ?, ?)
       ON CONFLICT(resource, record_id) DO UPDATE SET remote_version = excluded.remote_version, fields = excluded.fields`,
      [ANNOTATION, row.id, remoteTime, JSON.stringify(remote)],
    );
  } else {
    db.run('DELETE FROM sync_base WHERE resource = ? AND record_id = ?', [ANNOTATION, row.id]);
  }
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
    ).map((l) => [l.annotationId, fieldsOfWire(l)]),
  );
  for (const { row, a } of list) {
    const local = before.get(row.id);
    const remote = fieldsOfWire(a);
    ctx.db.run('DELETE FROM sync_base WHERE resource = ? AND record_id = ?', [ANNOTATION, row.id]);
    if (!local || ANNOTATION_FIELDS.some((f) => !sameValue(local[f], remote[f]))) {
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
export function applyAnnotations(
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

/** Whether a local id is an offline-created annotation the remote does not have yet. */
export const isLocalOnly = (db: Db, id: string) => isUnmappedLocalId(db, id);

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
