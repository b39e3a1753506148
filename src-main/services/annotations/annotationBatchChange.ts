// BatchChangeAnnotations' plan: the annotations a filter matches (as the list
// shows them: its policies' gate, its organization), or the ones named, each
// given the request of the single operation that makes the change on it
// (UpdateAnnotation, ArchiveAnnotation, UnarchiveAnnotation). Annotations the
// change would leave as they are get no request, so nothing is recorded for
// them and an undo leaves them alone. The answer names every record changed
// with the change that restores it, so an undo is one call on exactly those.
import {
  AnnotationType,
  BATCH_UPDATE_LIMIT,
  type AnnotationChange,
  type BatchChangeAnnotationsInput,
} from '../../../src-shared/api/annotations';
import { ApiError } from '../../../src-shared/errors';
import { resolveOrganization, visibleTo } from '../../auth/caller';
import { matchingKeys } from '../../filter/listQuery';
import type { BatchItem, BatchPlan, BatchPlanner, PlanContext } from '../common/batchPlan';
import { annotationListSpec } from './annotationListSpec';
import { readForBatch } from './annotationBatchRead';
import { ANNOTATION_COLUMN, childCursor } from './annotationPageQueries';
import { scopeOf } from './annotationListing';
import { stateName } from './annotationRows';

/** What a change reads of an annotation. */
interface Current {
  readonly pk: number;
  readonly id: string;
  readonly state: number | null;
  readonly annotationType: number;
  readonly assignedToUserId: string;
  readonly archived: boolean;
  readonly tags: readonly string[];
}

interface Changed {
  readonly annotationId: string;
  readonly previous: AnnotationChange;
}

const PHASE = AnnotationType.numbers.ANNOTATION_TYPE_PHASE;
const LIMIT_TEXT = BATCH_UPDATE_LIMIT.toLocaleString('en-US');

/**
 * The current values of these annotations (by pk), tags in order: the batch's one read of their rows, which it
 * keeps for every later stage of its items (annotationBatchRead.ts).
 */
function currentOf(ctx: PlanContext, pks: readonly number[]): Map<number, Current> {
  const C = ANNOTATION_COLUMN;
  const { rows, children } = readForBatch(ctx.db, pks);
  const tags = childCursor(children.tags, (r) => r[2] as string);
  const out = new Map<number, Current>();
  for (const r of rows) {
    out.set(r[C.pk], {
      pk: r[C.pk],
      id: r[C.id],
      state: r[C.state],
      annotationType: r[C.annotation_type],
      assignedToUserId: r[C.assigned_to_user_id],
      archived: r[C.archived_date] !== null,
      tags: tags(r[C.pk]),
    });
  }
  return out;
}

/** The single operation's request that makes `change` on `a`, and the change that restores it; undefined if `a` is already so. */
function itemOf(a: Current, change: AnnotationChange): { item: BatchItem; previous: AnnotationChange } | undefined {
  const annotationId = a.id;
  const update = (annotation: Record<string, unknown>, path: string): BatchItem => ({
    operation: 'UpdateAnnotation',
    request: { annotation: { annotationId, ...annotation }, updateMask: [path] },
  });
  if (change.state !== undefined) {
    const was = stateName(a.state);
    if (a.annotationType === PHASE || was === change.state) return undefined; // a phase has no review state
    return { item: update({ state: change.state }, 'state'), previous: { state: was ?? 'ANNOTATION_STATE_OPEN' } };
  }
  if (change.assignedToUserId !== undefined) {
    if (a.assignedToUserId === change.assignedToUserId) return undefined;
    return {
      item: update({ assignedToUserId: change.assignedToUserId }, 'assigned_to_user_id'),
      previous: { assignedToUserId: a.assignedToUserId },
    };
  }
  if (change.addTag !== undefined) {
    if (a.tags.includes(change.addTag)) return undefined;
    return { item: update({ tags: [...a.tags, change.addTag] }, 'tags'), previous: { removeTag: change.addTag } };
  }
  if (change.removeTag !== undefined) {
    if (!a.tags.includes(change.removeTag)) return undefined;
    const tag = change.removeTag;
    return { item: update({ tags: a.tags.filter((t) => t !== tag) }, 'tags'), previous: { addTag: tag } };
  }
  if (change.archived === undefined || a.archived === change.archived) return undefined;
  return {
    item: { operation: change.archived ? 'ArchiveAnnotation' : 'UnarchiveAnnotation', request: { annotationId } },
    previous: { archived: a.archived },
  };
}

/** The pks of every annotation the filter matches as ListAnnotations lists it (the caller's organization, the policies' gate). */
function matching(ctx: PlanContext, filter: string, organizationId: string | undefined): number[] {
  const org = resolveOrganization(ctx.caller, organizationId);
  const gate = ctx.listGate('ListAnnotations', { organizationId: org });
  const pks = matchingKeys(ctx.db, annotationListSpec, filter, scopeOf({ ...ctx, rowGate: gate }, org), BATCH_UPDATE_LIMIT);
  if (!pks)
    throw ApiError.invalid('filter', `matches more than ${LIMIT_TEXT} annotations; a batch changes at most ${LIMIT_TEXT}: narrow it`);
  return pks.sort((a, b) => a - b);
}

/** The pks of the named annotations (each once), in the caller's organizations; a missing one is NOT_FOUND. */
function named(ctx: PlanContext, ids: readonly string[]): number[] {
  const seen = new Set<string>();
  ids.forEach((id, i) => {
    if (seen.has(id)) throw ApiError.invalid(`records[${i}].annotation_id`, `names annotation ${id} a second time`);
    seen.add(id);
  });
  const scope = visibleTo(ctx.caller, 'a.organization_id');
  const rows = ctx.db.all<{ pk: number; id: string }>(
    `SELECT a.pk, a.id FROM json_each(?) j CROSS JOIN annotations a ON a.id = j.value WHERE ${scope.sql}`,
    [JSON.stringify(ids), ...scope.params],
  );
  const pkOf = new Map(rows.map((r) => [r.id, r.pk]));
  const missing = ids.findIndex((id) => !pkOf.has(id));
  if (missing >= 0) throw ApiError.notFound('annotation', ids[missing]);
  return ids.map((id) => pkOf.get(id)!);
}

export const planAnnotationChanges: BatchPlanner<BatchChangeAnnotationsInput> = (ctx, req): BatchPlan => {
  const byFilter = req.filter !== undefined;
  if (byFilter === (req.records !== undefined)) {
    throw ApiError.invalid('filter', 'set either filter (with change: every matching annotation) or records (each with its own change)');
  }
  if (byFilter && !req.change) throw ApiError.invalid('change', 'is required with a filter');
  if (!byFilter && req.change) throw ApiError.invalid('change', 'must be unset with records (each record has its own change)');
  const wanted: { pk: number; change: AnnotationChange; index?: number }[] = byFilter
    ? matching(ctx, req.filter!, req.organizationId).map((pk) => ({ pk, change: req.change! }))
    : named(
        ctx,
        req.records!.map((r) => r.annotationId),
      ).map((pk, index) => ({ pk, change: req.records![index].change, index }));
  const current = currentOf(
    ctx,
    wanted.map((w) => w.pk),
  );
  const items: BatchItem[] = [];
  const changed: Changed[] = [];
  const fields: (string | undefined)[] = [];
  for (const w of wanted) {
    const a = current.get(w.pk)!;
    const made = itemOf(a, w.change);
    if (!made) continue;
    items.push(made.item);
    changed.push({ annotationId: a.id, previous: made.previous });
    fields.push(w.index === undefined ? undefined : `records[${w.index}]`);
  }
  return { items, itemField: (i) => fields[i], answer: () => ({ changed }) };
};
