// Batch actions on many annotations, and the inverse of each (the undo):
// archive/unarchive through the batch operations (1000 ids a request, the
// API's limit); state, assignee and tags through one UpdateAnnotation each
// (the API has no batch update), a few at a time.
import type { Client } from '../../../../src-shared/client';
import { assignAnnotation, setAnnotationState, setAnnotationTags, type Annotation, type ReviewState } from './annotationService';

export type BatchAction =
  | { readonly kind: 'archive'; readonly archived: boolean }
  | { readonly kind: 'state'; readonly state: ReviewState }
  | { readonly kind: 'assign'; readonly userId: string }
  | { readonly kind: 'add-tag'; readonly tag: string }
  | { readonly kind: 'remove-tag'; readonly tag: string };

const BATCH_LIMIT = 1000;
const PARALLEL = 4;

/** What a batch action on `count` annotations did, in words (the toast). */
export function describeAction(action: BatchAction, count: number, userName = (id: string) => id): string {
  const n = `${count} annotation${count === 1 ? '' : 's'}`;
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
  return annotations.length === 1 ? `'${annotations[0].name}'` : `${annotations.length.toLocaleString()} annotations`;
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

function updateOne(client: Client, a: Annotation, action: BatchAction): Promise<Annotation> {
  switch (action.kind) {
    case 'state':
      return setAnnotationState(client, a.annotationId, action.state);
    case 'assign':
      return assignAnnotation(client, a.annotationId, action.userId);
    case 'add-tag':
      return setAnnotationTags(client, a.annotationId, [...a.tags.filter((t) => t !== action.tag), action.tag]);
    case 'remove-tag':
      return setAnnotationTags(
        client,
        a.annotationId,
        a.tags.filter((t) => t !== action.tag),
      );
    case 'archive':
      throw new Error('archive goes through archiveMany');
  }
}

/** Applies `action` to each annotation; returns the updated annotations (those that succeeded before a failure are kept by the caller). */
export async function applyBatch(
  client: Client,
  action: BatchAction,
  annotations: readonly Annotation[],
  onUpdated: (a: Annotation) => void = () => {},
): Promise<Annotation[]> {
  if (action.kind === 'archive') {
    const updated = await archiveMany(
      client,
      annotations.map((a) => a.annotationId),
      action.archived,
    );
    updated.forEach(onUpdated);
    return updated;
  }
  const updated: Annotation[] = [];
  let next = 0;
  const worker = async () => {
    while (next < annotations.length) {
      const a = annotations[next++];
      const result = await updateOne(client, a, action);
      updated.push(result);
      onUpdated(result);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, annotations.length) }, worker));
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
  if (action.kind === 'archive') {
    const restored: Annotation[] = [];
    for (const archived of [true, false]) {
      const ids = steps.filter((s) => s.action.kind === 'archive' && s.action.archived === archived).map((s) => s.annotationId);
      if (ids.length)
        restored.push(
          ...(await applyBatch(
            client,
            { kind: 'archive', archived },
            ids.map((id) => current.get(id) ?? before.find((b) => b.annotationId === id)!),
            onUpdated,
          )),
        );
    }
    return restored;
  }
  const restored: Annotation[] = [];
  for (const step of steps) {
    const a = current.get(step.annotationId) ?? before.find((b) => b.annotationId === step.annotationId)!;
    restored.push(...(await applyBatch(client, step.action, [a], onUpdated)));
  }
  return restored;
}
