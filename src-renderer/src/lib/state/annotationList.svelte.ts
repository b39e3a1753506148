// The annotation list: the query (filter text + sort) and its rows, paged
// as the list scrolls (PagedList: stale responses dropped, filter errors apart
// from list errors).
import type { Client } from '../../../../src-shared/client';
import {
  DEFAULT_SORT,
  LIST_PAGE_SIZE,
  countAnnotations,
  listAnnotations,
  type MatchCount,
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
  /** How many annotations the shown query matches, counted by the engine (undefined until counted, or if counting failed). */
  total = $state<MatchCount | undefined>();
  #countGeneration = 0;
  readonly pages: PagedList<Annotation, AnnotationQuery>;

  readonly #client: Client;

  constructor(client: Client) {
    this.#client = client;
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
    const query = { filter: this.requestedFilter, sort: { ...this.sort }, showArchived: this.showArchived };
    const generation = ++this.#countGeneration;
    // The rows first: one engine answers requests in the order they arrive, and at 100k annotations the count
    // (every match) costs more than the first page; asked second, it no longer holds the rows back (bench/renderer.ts open).
    const listed = this.pages.load(query);
    const counted = countAnnotations(this.#client, query).then(
      (total) => {
        if (generation === this.#countGeneration) this.total = total;
      },
      () => {
        // A filter's error shows at the box; without a count the list says how many it has loaded.
        if (generation === this.#countGeneration) this.total = undefined;
      },
    );
    return Promise.all([listed, counted]).then(() => undefined);
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
