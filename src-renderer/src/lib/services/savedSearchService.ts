// Saved searches. Outpost saves an annotation query as one: overview_mode
// `ANNOTATIONS`, search_term = the CEL filter, order_by = the sort. Searches
// saved by other clients (other overview modes) are listed but cannot be opened here.
import type { SavedSearch } from '../../../../src-shared/api/savedSearches';
import type { Client } from '../../../../src-shared/client';
import { DEFAULT_SORT, SORT_FIELDS, orderByOf, type AnnotationQuery, type Sort, type SortField } from './annotationService';

export type { SavedSearch };

export const ANNOTATIONS_OVERVIEW = 'ANNOTATIONS';

export async function listSavedSearches(client: Client, limit = 2000): Promise<SavedSearch[]> {
  const out: SavedSearch[] = [];
  let pageToken: string | undefined;
  do {
    const res = await client.ListSavedSearches({ pageSize: 500, ...(pageToken ? { pageToken } : {}) });
    out.push(...res.savedSearches);
    pageToken = res.nextPageToken || undefined;
  } while (pageToken && out.length < limit);
  return out;
}

export async function saveAnnotationSearch(client: Client, name: string, query: AnnotationQuery): Promise<SavedSearch> {
  const res = await client.CreateSavedSearch({
    name: name.trim(),
    properties: { overviewMode: ANNOTATIONS_OVERVIEW, searchTerm: query.filter.trim(), orderBy: orderByOf(query.sort) },
  });
  return res.savedSearch;
}

export async function renameSavedSearch(client: Client, savedSearchId: string, name: string): Promise<SavedSearch> {
  const res = await client.UpdateSavedSearch({ savedSearch: { savedSearchId, name: name.trim() }, updateMask: 'name' });
  return res.savedSearch;
}

export async function deleteSavedSearch(client: Client, savedSearchId: string): Promise<void> {
  await client.DeleteSavedSearch({ savedSearchId });
}

/** `name desc` -> {field: 'name', desc: true}; unknown fields fall back to the default sort. */
export function parseSort(orderBy: string | undefined): Sort {
  const m = /^\s*([a-z_]+)(?:\s+(asc|desc))?\s*$/i.exec(orderBy ?? '');
  const field = m?.[1] as SortField | undefined;
  if (!field || !SORT_FIELDS.some((f) => f.field === field)) return DEFAULT_SORT;
  return { field, desc: m?.[2]?.toLowerCase() === 'desc' };
}

/** The annotation query a saved search stands for, or undefined when it is not an annotation search. */
export function annotationQueryOf(search: SavedSearch): AnnotationQuery | undefined {
  if (search.properties.overviewMode !== ANNOTATIONS_OVERVIEW) return undefined;
  return { filter: search.properties.searchTerm ?? '', sort: parseSort(search.properties.orderBy) };
}
