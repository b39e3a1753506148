// Batch actions on many annotations, and the inverse of each (the undo):
// archive/unarchive through the platform's batch operations (1000 ids a
// request, the API's limit); state, assignee and tags as one engine call
// (BatchUpdateAnnotations, an Outpost extension: the platform has no batch
// update, so each item is recorded for sync as its own UpdateAnnotation).
import type { Client } from '../../../../src-shared/client';
import { counted } from '../format';
import {
  assignUpdate,
  stateUpdate,
  tagsUpdate,
  updateMany,
  type Annotation,
  type AnnotationUpdate,
  type ReviewState,
} from './annotationService';

export type BatchAction =
  | { readonly kind: 'archive'; readonly archived: boolean }
  | { readonly kind: 'state'; readonly state: ReviewState }
  | { readonly kind: 'assign'; readonly userId: string }
  | { readonly kind: 'add-tag'; readonly tag: string }
  | { readonly kind: 'remove-tag'; readonly tag: string };

const BATCH_LIMIT = 1000;

/** What a batch action on `count` annotations did, in words (the toast). */
export function describeAction(action: BatchAction, count: number, userName = (id: string) => id): string {
  const n = counted(count, 'annotations');
  switch (action.kind) {
    case 'archive':
      return `${action.archived ? 'Archived' : 'Unarchived'} ${n}`;
    case 'state':
      return `Set ${n} to ${action.state.replace('ANNOTATION_STATE_', '').toLowerCase()}`;
    case 'assign':
      return action.userId ? `Assigned ${n} to ${userName(action.userId)}` : `Unassigned ${n}`;
    case 'add-tag':
      return `Tagged ${n} “${action.tag}”`;
    case 'remove-tag':
      return `Removed “${action.tag}” from ${n}`;
  }
}

/** The action as the sentence of its failure names it: "archiving", "assigning", "tagging". */
export function doingOf(action: BatchAction): string {
  switch (action.kind) {
    case 'archive':
      return action.archived ? 'archiving' : 'unarchiving';
    case 'state':
      return `setting to ${action.state.replace('ANNOTATION_STATE_', '').toLowerCase()}`;
    case 'assign':
      return action.userId ? 'assigning' : 'unassigning';
    case 'add-tag':
      return `tagging “${action.tag}”`;
    case 'remove-tag':
      return `removing the tag “${action.tag}” from`;
  }
}

/** The annotations acted on as the user knows them: `'Chamber pressure dip'`, or `3 annotations`. */
export function subjectOf(annotations: readonly Pick<Annotation, 'name'>[]): string {
  return annotations.length === 1 ? `'${annotations[0].name}'` : counted(annotations.length, 'annotations');
}

/** The annotations an action would change (the others are left alone, and not undone either). */
export function affected(action: BatchAction, annotations: readonly Annotation[]): Annotation[] {
  return annotations.filter((a) => {
    switch (action.kind) {
      case 'archive':
        return a.isArchived !== action.archived;
      case 'state':
        return a.annotationType !== 'ANNOTATION_TYPE_PHASE' && a.state !== action.state;
      case 'assign':
        return a.assignedToUserId !== action.userId;
      case 'add-tag':
        return !a.tags.includes(action.tag);
      case 'remove-tag':
        return a.tags.includes(action.tag);
    }
  });
}

/** One request per annotation (or per 1000 for archive) that restores what `before` had. */
export function inverseOf(action: BatchAction, before: readonly Annotation[]): Array<{ annotationId: string; action: BatchAction }> {
  return before.map((a) => {
    switch (action.kind) {
      case 'archive':
        return { annotationId: a.annotationId, action: { kind: 'archive', archived: a.isArchived } };
      case 'state':
        return { annotationId: a.annotationId, action: { kind: 'state', state: (a.state ?? 'ANNOTATION_STATE_OPEN') as ReviewState } };
      case 'assign':
        return { annotationId: a.annotationId, action: { kind: 'assign', userId: a.assignedToUserId } };
      case 'add-tag':
        return { annotationId: a.annotationId, action: { kind: 'remove-tag', tag: action.tag } };
      case 'remove-tag':
        return { annotationId: a.annotationId, action: { kind: 'add-tag', tag: action.tag } };
    }
  });
}

async function archiveMany(client: Client, ids: readonly string[], archived: boolean): Promise<Annotation[]> {
  const out: Annotation[] = [];
  for (let i = 0; i < ids.length; i += BATCH_LIMIT) {
    const annotationIds = ids.slice(i, i + BATCH_LIMIT);
    const res = archived
      ? await client.BatchArchiveAnnotations({ annotationIds })
      : await client.BatchUnarchiveAnnotations({ annotationIds });
    out.push(...res.annotations);
  }
  return out;
}

/** The update that applies a (non-archive) action to one annotation. */
function updateOf(a: Annotation, action: Exclude<BatchAction, { kind: 'archive' }>): AnnotationUpdate {
  switch (action.kind) {
    case 'state':
      return stateUpdate(a.annotationId, action.state);
    case 'assign':
      return assignUpdate(a.annotationId, action.userId);
    case 'add-tag':
      return tagsUpdate(a.annotationId, [...a.tags.filter((t) => t !== action.tag), action.tag]);
    case 'remove-tag':
      return tagsUpdate(
        a.annotationId,
        a.tags.filter((t) => t !== action.tag),
      );
  }
}

/**
 * Applies `action` to each annotation: archives through the platform's batch operations, every other change as one
 * engine call (BatchUpdateAnnotations: one transaction, all or none, each recorded for sync as its UpdateAnnotation).
 */
export async function applyBatch(
  client: Client,
  action: BatchAction,
  annotations: readonly Annotation[],
  onUpdated: (a: Annotation) => void = () => {},
): Promise<Annotation[]> {
  const updated =
    action.kind === 'archive'
      ? await archiveMany(
          client,
          annotations.map((a) => a.annotationId),
          action.archived,
        )
      : await updateMany(
          client,
          annotations.map((a) => updateOf(a, action)),
        );
  updated.forEach(onUpdated);
  return updated;
}

/** Restores `before` (the annotations as they were before the batch); `current` are their versions now. */
export async function undoBatch(
  client: Client,
  action: BatchAction,
  before: readonly Annotation[],
  current: ReadonlyMap<string, Annotation>,
  onUpdated: (a: Annotation) => void = () => {},
): Promise<Annotation[]> {
  const steps = inverseOf(action, before);
  const now = (id: string) => current.get(id) ?? before.find((b) => b.annotationId === id)!;
  if (action.kind === 'archive') {
    const restored: Annotation[] = [];
    for (const archived of [true, false]) {
      const ids = steps.filter((s) => s.action.kind === 'archive' && s.action.archived === archived).map((s) => s.annotationId);
      if (ids.length) restored.push(...(await applyBatch(client, { kind: 'archive', archived }, ids.map(now), onUpdated)));
    }
    return restored;
  }
  // Each record back to its own earlier value, all in one engine call.
  const restored = await updateMany(
    client,
    steps.map((s) => updateOf(now(s.annotationId), s.action as Exclude<BatchAction, { kind: 'archive' }>)),
  );
  restored.forEach(onUpdated);
  return restored;
}
