// Batch actions on many annotations, and the undo of each: one engine call
// (BatchChangeAnnotations, an Outpost extension) whether the batch acts on the
// rows the list has loaded or on every annotation its query matches; the engine
// answers the records it changed with the change that restores each, and the
// undo sends exactly those back (one call again, on those records only).
import { BATCH_UPDATE_LIMIT, type AnnotationChange } from '../../../../src-shared/api/annotations';
import type { Client } from '../../../../src-shared/client';
import { counted } from '../format';
import { listedFilter, type Annotation, type AnnotationQuery, type ReviewState } from './annotationService';

export type { AnnotationChange };

export type BatchAction =
  | { readonly kind: 'archive'; readonly archived: boolean }
  | { readonly kind: 'state'; readonly state: ReviewState }
  | { readonly kind: 'assign'; readonly userId: string }
  | { readonly kind: 'add-tag'; readonly tag: string }
  | { readonly kind: 'remove-tag'; readonly tag: string };

/** What a batch acts on: rows the list has loaded, or every annotation its query matches (counted by the engine). */
export type BatchTarget =
  | { readonly kind: 'rows'; readonly annotations: readonly Annotation[] }
  | { readonly kind: 'matching'; readonly query: AnnotationQuery; readonly count: number };

/** One record a batch changed: the change made, and the change that restores it. */
export interface Applied {
  readonly annotationId: string;
  readonly made: AnnotationChange;
  readonly previous: AnnotationChange;
}

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

/** How many annotations a target names. */
export const sizeOf = (target: BatchTarget): number => (target.kind === 'rows' ? target.annotations.length : target.count);

/** The annotations acted on as the user knows them: `'Chamber pressure dip'`, or `3 annotations`. */
export function subjectOf(target: BatchTarget): string {
  if (target.kind === 'rows' && target.annotations.length === 1) return `'${target.annotations[0].name}'`;
  return counted(sizeOf(target), 'annotations');
}

/** The records a batch changed as the user knows them: the row's name when it changed one loaded row, else a count. */
export function changedSubject(target: BatchTarget, applied: readonly Applied[]): string {
  const only = applied.length === 1 && target.kind === 'rows' && target.annotations.find((a) => a.annotationId === applied[0].annotationId);
  return only ? `'${only.name}'` : counted(applied.length, 'annotations');
}

/** The change the engine makes for an action. */
export function changeOf(action: BatchAction): AnnotationChange {
  switch (action.kind) {
    case 'archive':
      return { archived: action.archived };
    case 'state':
      return { state: action.state };
    case 'assign':
      return { assignedToUserId: action.userId };
    case 'add-tag':
      return { addTag: action.tag };
    case 'remove-tag':
      return { removeTag: action.tag };
  }
}

/** A loaded row as the engine left it after `change` (shown at once; the live refresh brings the rest, such as its dates). */
export function withChange(a: Annotation, change: AnnotationChange): Annotation {
  if (change.state !== undefined) return { ...a, state: change.state };
  if (change.assignedToUserId !== undefined) return { ...a, assignedToUserId: change.assignedToUserId };
  if (change.addTag !== undefined) return a.tags.includes(change.addTag) ? a : { ...a, tags: [...a.tags, change.addTag] };
  if (change.removeTag !== undefined) return { ...a, tags: a.tags.filter((t) => t !== change.removeTag) };
  if (change.archived !== undefined) return { ...a, isArchived: change.archived };
  return a;
}

/** Each record with its own change, BATCH_UPDATE_LIMIT to a call (the selection of loaded rows, an undo). */
async function changeRecords(client: Client, records: readonly { annotationId: string; change: AnnotationChange }[]): Promise<Applied[]> {
  const out: Applied[] = [];
  for (let i = 0; i < records.length; i += BATCH_UPDATE_LIMIT) {
    const chunk = records.slice(i, i + BATCH_UPDATE_LIMIT);
    const made = new Map(chunk.map((r) => [r.annotationId, r.change]));
    const { changed } = await client.BatchChangeAnnotations({ records: [...chunk] });
    for (const c of changed) out.push({ annotationId: c.annotationId, made: made.get(c.annotationId)!, previous: c.previous });
  }
  return out;
}

/**
 * Applies `action` to its target in the engine: the loaded rows by id, or every annotation the list's query matches
 * by its filter (the list's own clauses included, so archived ones stay out as the list leaves them out). Returns the
 * records changed (those already so are left alone).
 */
export async function applyBatch(client: Client, action: BatchAction, target: BatchTarget): Promise<Applied[]> {
  const change = changeOf(action);
  if (target.kind === 'rows')
    return changeRecords(
      client,
      target.annotations.map((a) => ({ annotationId: a.annotationId, change })),
    );
  const filter = listedFilter(target.query.filter, target.query.showArchived);
  const { changed } = await client.BatchChangeAnnotations({ filter, change });
  return changed.map((c) => ({ annotationId: c.annotationId, made: change, previous: c.previous }));
}

/** Restores exactly the records a batch changed, each to its own earlier value; returns what the restore changed. */
export function undoBatch(client: Client, done: readonly Applied[]): Promise<Applied[]> {
  return changeRecords(
    client,
    done.map((d) => ({ annotationId: d.annotationId, change: d.previous })),
  );
}
