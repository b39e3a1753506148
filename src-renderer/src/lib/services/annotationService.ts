// Annotation operations as the views use them, over the typed client. Each
// function builds exactly one request of the contract (tested in
// annotationService.spec.ts); state classes decide when to call them.
import type { AnnotationLog } from '../../../../src-shared/api/annotationLogs';
import type { Annotation, AnnotationStateName } from '../../../../src-shared/api/annotations';
import type { RequestInputOf } from '../../../../src-shared/api/operation';
import type { Client } from '../../../../src-shared/client';
import type { Operations } from '../../../../src-shared/operations';
import { ApiError, Code } from '../../../../src-shared/errors';

export type { Annotation, AnnotationLog, AnnotationStateName };

/** The review states a user can set (UNSPECIFIED is not a choice). */
export const REVIEW_STATES = [
  'ANNOTATION_STATE_OPEN',
  'ANNOTATION_STATE_FLAGGED',
  'ANNOTATION_STATE_RESOLVED',
] as const satisfies readonly AnnotationStateName[];
export type ReviewState = (typeof REVIEW_STATES)[number];

/** ListAnnotations order_by fields (AIP-132), as offered by the sort selector. */
export const SORT_FIELDS = [
  { field: 'created_date', label: 'Created' },
  { field: 'modified_date', label: 'Modified' },
  { field: 'start_time', label: 'Start time' },
  { field: 'end_time', label: 'End time' },
  { field: 'name', label: 'Name' },
  { field: 'description', label: 'Description' },
] as const;
export type SortField = (typeof SORT_FIELDS)[number]['field'];

export interface Sort {
  readonly field: SortField;
  readonly desc: boolean;
}

/** The API's default order (created_date desc). */
export const DEFAULT_SORT: Sort = { field: 'created_date', desc: true };

export function orderByOf(sort: Sort): string {
  return `${sort.field}${sort.desc ? ' desc' : ''}`;
}

export const PAGE_SIZE = 50;
/** The scrolling list asks for bigger pages: fewer requests while a reviewer scrolls far. */
export const LIST_PAGE_SIZE = 200;

export interface AnnotationQuery {
  readonly filter: string;
  readonly sort: Sort;
  /** List archived annotations too (the "Archived" chip); without it they are hidden unless the filter names them. */
  readonly showArchived?: boolean;
}

/** A filter that is itself about archived records, or looks one record up by id: it gets what it asks for. */
const ABOUT_ARCHIVED = /\b(is_archived|archived_date|annotation_id)\b/;

/**
 * The filter a list sends: archived annotations are hidden (`is_archived == false` after the user's filter, so the
 * positions of its errors stay) unless `showArchived`, or the filter is about archived records or one record.
 */
export function listedFilter(filter: string, showArchived = false): string {
  const f = filter.trim();
  if (showArchived || ABOUT_ARCHIVED.test(f)) return f;
  if (!f) return 'is_archived == false';
  // A top-level || would bind looser than the appended &&.
  return /\|\|/.test(f) ? `(${f}) && is_archived == false` : `${f} && is_archived == false`;
}

export interface AnnotationPage {
  readonly annotations: Annotation[];
  readonly nextPageToken: string;
}

export async function listAnnotations(
  client: Client,
  query: AnnotationQuery,
  pageToken?: string,
  pageSize = PAGE_SIZE,
): Promise<AnnotationPage> {
  const typed = query.filter.trim();
  const filter = listedFilter(typed, query.showArchived);
  const request = (f: string) =>
    client.ListAnnotations({ pageSize, orderBy: orderByOf(query.sort), ...(f ? { filter: f } : {}), ...(pageToken ? { pageToken } : {}) });
  try {
    const res = await request(filter);
    return { annotations: res.annotations, nextPageToken: res.nextPageToken };
  } catch (e) {
    // A typo's error is reported against what the user typed (its position, its tokens), not the clause added to it.
    if (filter !== typed && e instanceof ApiError && e.code === Code.INVALID_ARGUMENT && !pageToken) await request(typed);
    throw e;
  }
}

/** How many annotations a query matches: exact, or (past the engine's cap) at least `count`. */
export interface MatchCount {
  readonly count: number;
  readonly exact: boolean;
}

/** The engine's count of what `listAnnotations` lists for the query (the same filter, archived hidden alike). */
export async function countAnnotations(client: Client, query: AnnotationQuery): Promise<MatchCount> {
  const filter = listedFilter(query.filter.trim(), query.showArchived);
  const res = await client.CountAnnotations(filter ? { filter } : {});
  return { count: Number(res.count), exact: res.exact };
}

export async function getAnnotation(client: Client, annotationId: string): Promise<Annotation> {
  return (await client.GetAnnotation({ annotationId })).annotation;
}

/** The UpdateAnnotation request of one review change. */
export type AnnotationUpdate = RequestInputOf<Operations['UpdateAnnotation']>;

export const stateUpdate = (annotationId: string, state: ReviewState): AnnotationUpdate => ({
  annotation: { annotationId, state },
  updateMask: 'state',
});

/** Assigns to `userId`, or unassigns with ''. */
export const assignUpdate = (annotationId: string, userId: string): AnnotationUpdate => ({
  annotation: { annotationId, assignedToUserId: userId },
  updateMask: 'assigned_to_user_id',
});

export const tagsUpdate = (annotationId: string, tags: readonly string[]): AnnotationUpdate => ({
  annotation: { annotationId, tags: [...tags] },
  updateMask: 'tags',
});

export async function setAnnotationState(client: Client, annotationId: string, state: ReviewState): Promise<Annotation> {
  return (await client.UpdateAnnotation(stateUpdate(annotationId, state))).annotation;
}

/** Assigns to `userId`, or unassigns with ''. */
export async function assignAnnotation(client: Client, annotationId: string, userId: string): Promise<Annotation> {
  return (await client.UpdateAnnotation(assignUpdate(annotationId, userId))).annotation;
}

export async function setAnnotationTags(client: Client, annotationId: string, tags: readonly string[]): Promise<Annotation> {
  return (await client.UpdateAnnotation(tagsUpdate(annotationId, tags))).annotation;
}

/** One UpdateAnnotation request as given (the editor's: the mask names what it changed). */
export async function updateAnnotation(client: Client, update: AnnotationUpdate): Promise<Annotation> {
  return (await client.UpdateAnnotation(update)).annotation;
}

export async function setArchived(client: Client, annotationId: string, archived: boolean): Promise<Annotation> {
  const res = archived ? await client.ArchiveAnnotation({ annotationId }) : await client.UnarchiveAnnotation({ annotationId });
  return res.annotation;
}

/** Every log of an annotation, oldest first (the API's order), following page tokens up to `limit` entries. */
export async function listAllLogs(
  client: Client,
  annotationId: string,
  limit = 1000,
): Promise<{ logs: AnnotationLog[]; truncated: boolean }> {
  const logs: AnnotationLog[] = [];
  let pageToken: string | undefined;
  do {
    const res = await client.ListAnnotationLogs({ annotationId, pageSize: 200, ...(pageToken ? { pageToken } : {}) });
    logs.push(...res.annotationLogs);
    pageToken = res.nextPageToken || undefined;
  } while (pageToken && logs.length < limit);
  return { logs, truncated: !!pageToken };
}

export async function addComment(client: Client, annotationId: string, text: string): Promise<AnnotationLog> {
  const res = await client.CreateAnnotationLog({
    annotationId,
    kind: 'ANNOTATION_LOG_KIND_COMMENT',
    comment: { body: [{ type: 'ANNOTATION_COMMENT_BODY_ELEMENT_TYPE_TEXT', text }] },
  });
  return res.annotationLog;
}

/** Splits a tags input (`a, b,c`) into unique, trimmed names, keeping their order (tag names may contain spaces). */
export function parseTags(input: string): string[] {
  return [
    ...new Set(
      input
        .split(/[,\n]+/)
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ];
}
