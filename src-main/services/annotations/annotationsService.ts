// Annotations: create, read, update (by mask), archive, list. Each request is
// one transaction; validation happens before anything is written.
import { randomUUID } from 'node:crypto';
import {
  AnnotationState,
  AnnotationType,
  type Annotation,
  type AnnotationPatch,
  type CreateAnnotationInput,
  type LinkedChannelInput,
} from '../../../src-shared/api/annotations';
import { nowMicros } from '../../../src-shared/api/time';
import { ApiError } from '../../../src-shared/errors';
import { resolveOrganization, visibleTo } from '../../auth/caller';
import type { Db } from '../../db/database';
import type { RequestContext } from '../../engine';
import { assertChannelsExist, assertRunExists, ensureTags, resolveAssetNames, resolveMember } from '../reference/resolve';
import { appendLog, findVisibleAnnotation, logStateFor } from './annotationLogsService';
import { loadAnnotations, stateName, type AnnotationRow } from './annotationRows';
import {
  insertAnnotation,
  replaceAnnotationLinkedChannels,
  replaceAnnotationMetadata,
  replaceAnnotationTags,
  setAnnotationArchivedDate,
  setAnnotationColumns,
} from './annotationStore';
import { ANNOTATION_EDITABLE_COLUMNS, ANNOTATION_UPDATABLE_PATHS } from './annotationFields';

type UpdatablePath = (typeof ANNOTATION_UPDATABLE_PATHS)[number];
const IMMUTABLE_PATHS = new Set([
  'annotation_id',
  'organization_id',
  'created_by_user_id',
  'modified_by_user_id',
  'created_date',
  'modified_date',
  'run_id',
  'annotation_type',
  'created_by_condition_id',
  'created_by_rule_condition_version_id',
  'report_rule_version_id',
  'pending',
  'assigned_to_user',
  'asset_ids',
  'is_archived',
  'batched_triggers',
  'is_noisy_rule',
]);

export const MAX_BATCH = 1000;

function channelIdsOf(channels: readonly LinkedChannelInput[]): string[] {
  return channels.map((c) => c.channel?.channelId ?? c.bitFieldElement?.channelId).filter((x): x is string => !!x);
}

function getOne(db: Db, pk: number): Annotation {
  return loadAnnotations(db, [pk])[0];
}

export function createAnnotation(ctx: RequestContext, req: CreateAnnotationInput): { annotation: Annotation } {
  const { db, caller } = ctx;
  const organizationId = resolveOrganization(caller, req.organizationId);
  const assets = req.assets ?? [];
  const channels = req.linkedChannels ?? [];
  if (!req.runId && assets.length === 0 && channels.length === 0) {
    throw ApiError.invalidMany([
      { field: 'assets', description: 'an annotation needs at least one of run_id, assets or linked_channels (tags alone are not enough)' },
    ]);
  }
  if (req.endTime < req.startTime) throw ApiError.invalid('end_time', 'must not be before start_time');
  const type =
    req.annotationType && req.annotationType !== 'ANNOTATION_TYPE_UNSPECIFIED' ? req.annotationType : 'ANNOTATION_TYPE_DATA_REVIEW';
  if (type === 'ANNOTATION_TYPE_PHASE' && req.state !== undefined) throw ApiError.invalid('state', 'must be unset for a PHASE annotation');
  if (req.state === 'ANNOTATION_STATE_UNSPECIFIED') throw ApiError.invalid('state', 'must be OPEN, FLAGGED or RESOLVED when set');
  // A data-review annotation starts open; a phase has no review state.
  const state = type === 'ANNOTATION_TYPE_PHASE' ? undefined : (req.state ?? 'ANNOTATION_STATE_OPEN');

  return db.tx(() => {
    const assetIds = resolveAssetNames(db, organizationId, assets);
    if (req.runId) assertRunExists(db, organizationId, req.runId);
    assertChannelsExist(db, organizationId, channelIdsOf(channels));
    const assigneeEmail = req.assignToUserId ? resolveMember(db, organizationId, req.assignToUserId, 'assign_to_user_id') : '';
    const tags = ensureTags(db, organizationId, caller.userId, req.tags ?? []);
    const now = nowMicros();
    const id = randomUUID();
    const pk = insertAnnotation(
      db,
      id,
      {
        organization_id: organizationId,
        name: req.name,
        description: req.description ?? '',
        start_time: req.startTime,
        end_time: req.endTime,
        created_by_user_id: caller.userId,
        modified_by_user_id: caller.userId,
        created_date: now,
        modified_date: now,
        run_id: req.runId ?? null,
        state: state ? AnnotationState.numbers[state] : null,
        assigned_to_user_id: req.assignToUserId ?? '',
        annotation_type: AnnotationType.numbers[type],
        legend_config: req.legendConfig ?? null,
        created_by_condition_id: req.createdByConditionId ?? null,
        created_by_rule_condition_version_id: req.createdByRuleConditionVersionId ?? null,
        report_rule_version_id: null,
        pending: 0,
        deleted_date: null,
        archived_date: null,
        batched_triggers: 0,
        is_noisy_rule: 0,
      },
      { tags, assetIds, linkedChannels: channels, metadata: req.metadata ?? [] },
    );
    const ref = { pk, id, organization_id: organizationId };
    appendLog(
      db,
      ref,
      caller.userId,
      caller.userName,
      { kind: 'ANNOTATION_LOG_KIND_STATE_UPDATE', state: 'ANNOTATION_LOG_STATE_CREATED' },
      now,
    );
    if (req.assignToUserId) {
      appendLog(
        db,
        ref,
        caller.userId,
        caller.userName,
        { kind: 'ANNOTATION_LOG_KIND_ASSIGNED', assignedToUserId: req.assignToUserId, assignedToUserEmail: assigneeEmail },
        now,
      );
    }
    return { annotation: getOne(db, pk) };
  });
}

export function getAnnotation(ctx: RequestContext, annotationId: string): { annotation: Annotation } {
  return { annotation: getOne(ctx.db, findVisibleAnnotation(ctx, annotationId).pk) };
}

function checkMask(paths: readonly string[]): UpdatablePath[] {
  if (paths.length === 0) throw ApiError.invalid('update_mask', 'is required: name the fields to update');
  const out = new Set<UpdatablePath>();
  for (const p of paths) {
    if ((ANNOTATION_UPDATABLE_PATHS as readonly string[]).includes(p)) out.add(p as UpdatablePath);
    else if (IMMUTABLE_PATHS.has(p)) throw ApiError.invalid('update_mask', `field '${p}' cannot be updated`);
    else throw ApiError.invalid('update_mask', `unknown field '${p}'; updatable fields: ${ANNOTATION_UPDATABLE_PATHS.join(', ')}`);
  }
  return [...out];
}

export function updateAnnotation(ctx: RequestContext, patch: AnnotationPatch, mask: readonly string[]): { annotation: Annotation } {
  const { db, caller } = ctx;
  const paths = checkMask(mask);
  const has = (p: UpdatablePath) => paths.includes(p);
  return db.tx(() => {
    const row = findVisibleAnnotation(ctx, patch.annotationId);
    const next: AnnotationRow = { ...row };
    if (has('name')) {
      if (!patch.name) throw ApiError.invalid('annotation.name', 'must not be empty');
      next.name = patch.name;
    }
    if (has('description')) next.description = patch.description ?? '';
    if (has('start_time')) {
      if (patch.startTime === undefined) throw ApiError.invalid('annotation.start_time', 'is required when named in update_mask');
      next.start_time = patch.startTime;
    }
    if (has('end_time')) {
      if (patch.endTime === undefined) throw ApiError.invalid('annotation.end_time', 'is required when named in update_mask');
      next.end_time = patch.endTime;
    }
    if (next.end_time < next.start_time) throw ApiError.invalid('annotation.end_time', 'must not be before start_time');
    if (has('legend_config')) next.legend_config = patch.legendConfig ?? null;
    if (has('state')) {
      const s = patch.state;
      if (s !== undefined && s !== 'ANNOTATION_STATE_UNSPECIFIED' && row.annotation_type === AnnotationType.numbers.ANNOTATION_TYPE_PHASE) {
        throw ApiError.invalid('annotation.state', 'must be unset for a PHASE annotation');
      }
      next.state = s === undefined || s === 'ANNOTATION_STATE_UNSPECIFIED' ? null : AnnotationState.numbers[s];
    }
    let assigneeEmail = '';
    if (has('assigned_to_user_id')) {
      next.assigned_to_user_id = patch.assignedToUserId ?? '';
      if (next.assigned_to_user_id)
        assigneeEmail = resolveMember(db, row.organization_id, next.assigned_to_user_id, 'annotation.assigned_to_user_id');
    }
    if (has('linked_channels'))
      assertChannelsExist(db, row.organization_id, channelIdsOf(patch.linkedChannels ?? []), 'annotation.linked_channels');
    const archiving = has('deleted_date') || has('archived_date');
    if (archiving) next.archived_date = patch.deletedDate ?? patch.archivedDate ?? null;

    const now = nowMicros();
    // Only the masked columns: SQLite rewrites the entries of every index on a column the SET names, changed or not
    // (a name edit would otherwise rewrite the start, end, state and assignee indexes too).
    setAnnotationColumns(db, row.pk, {
      ...Object.fromEntries(ANNOTATION_EDITABLE_COLUMNS.filter(has).map((c) => [c, next[c]])),
      modified_date: now,
      modified_by_user_id: caller.userId,
    });
    if (archiving) setAnnotationArchivedDate(db, row.pk, next.archived_date);
    if (has('tags'))
      replaceAnnotationTags(db, row.pk, ensureTags(db, row.organization_id, caller.userId, patch.tags ?? [], 'annotation.tags'));
    if (has('linked_channels')) replaceAnnotationLinkedChannels(db, row.pk, patch.linkedChannels ?? []);
    if (has('metadata')) replaceAnnotationMetadata(db, row.pk, patch.metadata ?? [], 'annotation.metadata');
    const newState = stateName(next.state);
    if (next.state !== row.state && newState) {
      appendLog(db, row, caller.userId, caller.userName, { kind: 'ANNOTATION_LOG_KIND_STATE_UPDATE', state: logStateFor(newState) }, now);
    }
    if (next.assigned_to_user_id !== row.assigned_to_user_id) {
      appendLog(
        db,
        row,
        caller.userId,
        caller.userName,
        { kind: 'ANNOTATION_LOG_KIND_ASSIGNED', assignedToUserId: next.assigned_to_user_id, assignedToUserEmail: assigneeEmail },
        now,
      );
    }
    return { annotation: getOne(db, row.pk) };
  });
}

/** Resolves every id (deduplicated) or fails the whole batch naming the missing ones. */
function findVisibleBatch(ctx: RequestContext, ids: readonly string[], field = 'annotation_ids'): AnnotationRow[] {
  if (ids.length > MAX_BATCH) throw ApiError.invalid(field, `at most ${MAX_BATCH} ids per batch`);
  const unique = [...new Set(ids)];
  const scope = visibleTo(ctx.caller, 'organization_id');
  // Driven from the id list (CROSS JOIN fixes the order): otherwise SQLite may scan the organization by an org index.
  const rows = ctx.db.all<AnnotationRow>(`SELECT a.* FROM json_each(?) j CROSS JOIN annotations a ON a.id = j.value WHERE ${scope.sql}`, [
    JSON.stringify(unique),
    ...scope.params,
  ]);
  const found = new Map(rows.map((r) => [r.id, r]));
  const missing = unique.filter((id) => !found.has(id));
  if (missing.length) throw ApiError.notFound('annotation', missing.join(', '));
  return unique.map((id) => found.get(id)!);
}

function setArchived(ctx: RequestContext, ids: readonly string[], archived: boolean): Annotation[] {
  return ctx.db.tx(() => {
    const rows = findVisibleBatch(ctx, ids);
    const now = nowMicros();
    for (const r of rows) {
      if ((r.archived_date !== null) === archived) continue;
      setAnnotationColumns(ctx.db, r.pk, {
        archived_date: archived ? now : null,
        modified_date: now,
        modified_by_user_id: ctx.caller.userId,
      });
    }
    return loadAnnotations(
      ctx.db,
      rows.map((r) => r.pk),
    );
  });
}

export const archiveAnnotations = (ctx: RequestContext, ids: readonly string[]) => setArchived(ctx, ids, true);
export const unarchiveAnnotations = (ctx: RequestContext, ids: readonly string[]) => setArchived(ctx, ids, false);
