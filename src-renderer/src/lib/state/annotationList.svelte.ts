// The annotation list: query (filter text + sort), the loaded rows, keyset
// paging ("Load more" follows nextPageToken) and errors. A response that
// arrives after a newer query was started is dropped.
import type { Client } from '../../../../src-shared/client';
import { isFilterError, toErrorInfo, type ErrorInfo } from '../errors';
import { DEFAULT_SORT, listAnnotations, type Annotation, type Sort } from '../services/annotationService';

export class AnnotationListState {
  /** The filter as typed (applied on submit). */
  filterText = $state('');
  /** The filter the shown rows were listed with. */
  appliedFilter = $state('');
  sort = $state<Sort>(DEFAULT_SORT);
  items = $state<Annotation[]>([]);
  nextPageToken = $state('');
  loading = $state(false);
  loadingMore = $state(false);
  /** Set once the first page has arrived (distinguishes "empty" from "not loaded yet"). */
  loaded = $state(false);
  /** The filter expression was rejected (INVALID_ARGUMENT / UNIMPLEMENTED): shown under the filter box. */
  filterError = $state<ErrorInfo | undefined>();
  /** Any other failure of the list. */
  error = $state<ErrorInfo | undefined>();

  readonly #client: Client;
  #generation = 0;

  constructor(client: Client) {
    this.#client = client;
  }

  get hasMore(): boolean {
    return this.nextPageToken !== '';
  }

  /** Lists the first page for the current filter text and sort. */
  async load(): Promise<void> {
    const generation = ++this.#generation;
    const filter = this.filterText.trim();
    this.loading = true;
    this.loadingMore = false;
    try {
      const page = await listAnnotations(this.#client, { filter, sort: this.sort });
      if (generation !== this.#generation) return;
      this.items = page.annotations;
      this.nextPageToken = page.nextPageToken;
      this.appliedFilter = filter;
      this.filterError = undefined;
      this.error = undefined;
      this.loaded = true;
    } catch (e) {
      if (generation !== this.#generation) return;
      const info = toErrorInfo(e);
      this.items = [];
      this.nextPageToken = '';
      this.loaded = true;
      if (filter && isFilterError(info)) {
        this.filterError = info;
        this.error = undefined;
      } else {
        this.error = info;
        this.filterError = undefined;
      }
    } finally {
      if (generation === this.#generation) this.loading = false;
    }
  }

  /** Appends the next page (no-op when there is none or a load is running). */
  async loadMore(): Promise<void> {
    if (!this.hasMore || this.loading || this.loadingMore) return;
    const generation = this.#generation;
    this.loadingMore = true;
    try {
      const page = await listAnnotations(this.#client, { filter: this.appliedFilter, sort: this.sort }, this.nextPageToken);
      if (generation !== this.#generation) return;
      const seen = new Set(this.items.map((a) => a.annotationId));
      this.items = [...this.items, ...page.annotations.filter((a) => !seen.has(a.annotationId))];
      this.nextPageToken = page.nextPageToken;
      this.error = undefined;
    } catch (e) {
      if (generation !== this.#generation) return;
      this.error = toErrorInfo(e);
    } finally {
      if (generation === this.#generation) this.loadingMore = false;
    }
  }

  applyFilter(text: string): Promise<void> {
    this.filterText = text;
    return this.load();
  }

  setSort(sort: Sort): Promise<void> {
    this.sort = sort;
    return this.load();
  }

  /** Replaces a row with a newer version of the same annotation (after an edit in the detail panel). */
  upsert(annotation: Annotation): void {
    const i = this.items.findIndex((a) => a.annotationId === annotation.annotationId);
    if (i >= 0) this.items[i] = annotation;
  }
}
