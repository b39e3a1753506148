// The annotation list: the query (filter text + sort) and its rows, paged
// as the list scrolls (PagedList: stale responses dropped, filter errors apart
// from list errors).
import type { Client } from '../../../../src-shared/client';
import {
  DEFAULT_SORT,
  LIST_PAGE_SIZE,
  listAnnotations,
  type Annotation,
  type AnnotationQuery,
  type Sort,
} from '../services/annotationService';
import { SharedParts } from '../services/sharedParts';
import { PagedList } from './pagedList.svelte';

export class AnnotationListState {
  /** The filter as typed (applied on submit). */
  filterText = $state('');
  sort = $state<Sort>(DEFAULT_SORT);
  /** Archived annotations listed too (else hidden unless the filter is about them). */
  showArchived = $state(false);
  /** The filter of the latest list request (the rows may still be those of an earlier one). */
  requestedFilter = $state('');
  readonly pages: PagedList<Annotation, AnnotationQuery>;

  constructor(client: Client) {
    // The rows of one list (a first page and the pages after it) share their repeated parts.
    let shared = new SharedParts();
    this.pages = new PagedList({
      fetchPage: async (query, pageToken) => {
        const page = await listAnnotations(client, query, pageToken, LIST_PAGE_SIZE);
        if (!pageToken) shared = new SharedParts();
        return { items: page.annotations.map((row) => shared.annotation(row)), nextPageToken: page.nextPageToken };
      },
      keyOf: (a) => a.annotationId,
      filterOf: (query) => query.filter,
    });
  }

  /** The filter the shown rows were listed with. */
  get appliedFilter(): string {
    return this.pages.shownQuery?.filter ?? '';
  }

  /** Lists the first page for the current filter text and sort. */
  load(): Promise<void> {
    this.requestedFilter = this.filterText.trim();
    return this.pages.load({ filter: this.requestedFilter, sort: { ...this.sort }, showArchived: this.showArchived });
  }

  applyFilter(text: string): Promise<void> {
    this.filterText = text;
    return this.load();
  }

  setShowArchived(show: boolean): Promise<void> {
    this.showArchived = show;
    return this.load();
  }

  setSort(sort: Sort): Promise<void> {
    this.sort = sort;
    return this.load();
  }
}
