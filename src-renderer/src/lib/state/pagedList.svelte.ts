// One list shown a page at a time: the rows, the token of the next page
// ("Load more"), loading flags and errors, for a query its owner supplies.
// Every load starts a new generation and a response (first page or next
// page) of an older generation is dropped: a slow earlier request can never
// overwrite what a later one showed, and a reload discards a page still
// being loaded for the previous rows.
import { isFilterError, toErrorInfo, type ErrorInfo } from '../errors';

export interface Page<T> {
  readonly items: T[];
  readonly nextPageToken: string;
}

export interface PagedListSource<T, Q> {
  /** Lists one page of the query: the first without a token. */
  fetchPage(query: Q, pageToken?: string): Promise<Page<T>>;
  /** A row's identity: later pages never repeat a shown row, and edits replace rows by it. */
  keyOf(item: T): string;
  /** For lists with a filter box: the query's filter text. A first page rejected for a
   * non-empty filter is then a filterError (shown at the box), not a list error. */
  filterOf?(query: Q): string;
}

/** A refresh reads at most this many rows again; a list scrolled further keeps the rest as they were. */
export const REFRESH_MAX_ROWS = 1000;

export class PagedList<T, Q = void> {
  // Raw: rows are replaced whole (an edit puts a new object in a new array); a deep proxy per row
  // would cost memory and time at the 100k rows a scrolled list can hold.
  items = $state.raw<T[]>([]);
  nextPageToken = $state('');
  /** The first page is being listed. */
  loading = $state(false);
  /** A next page is being listed. */
  loadingMore = $state(false);
  /** Set once a first page has arrived or failed (tells "empty" from "not loaded yet"). */
  loaded = $state(false);
  filterError = $state<ErrorInfo | undefined>();
  error = $state<ErrorInfo | undefined>();
  /** The query of the last first page that arrived (a failed load leaves it): next pages continue it. */
  shownQuery = $state.raw<Q | undefined>();

  /**
   * Rows a refresh found changed (new values, new rows, or no longer listed by the query: those stay shown, in
   * place, until the user moves on, i.e. the next load).
   */
  changed = $state.raw<ReadonlySet<string>>(new Set());

  readonly #source: PagedListSource<T, Q>;
  #refreshing = false;
  #refreshAgain = false;
  /** A first page arrived (shownQuery alone cannot say so: a list without a query shows `undefined`). */
  #shown = false;
  /** The query of a first page that failed (not a rejected filter): a refresh lists it again, whole. */
  #failed: { query: Q } | undefined;
  #generation = 0;
  /** Each row's position in `items` by key, kept with it: a next page is indexed (and checked for rows already
   * shown) at the cost of the page, not of every loaded row; lookups by key are O(1) at 100k rows. */
  #index = new Map<string, number>();

  constructor(source: PagedListSource<T, Q>) {
    this.#source = source;
  }

  get hasMore(): boolean {
    return this.nextPageToken !== '';
  }

  get busy(): boolean {
    return this.loading || this.loadingMore;
  }

  keyOf(item: T): string {
    return this.#source.keyOf(item);
  }

  /** Whether a row with this key is shown (reactive, like `items`). */
  has(key: string): boolean {
    return this.indexOf(key) >= 0;
  }

  /** The position of the row with this key in `items`, or -1 (reactive, like `items`). */
  indexOf(key: string): number {
    void this.items;
    return this.#index.get(key) ?? -1;
  }

  /** The shown row with this key (reactive, like `items`). */
  get(key: string): T | undefined {
    const items = this.items;
    const at = this.#index.get(key);
    return at === undefined ? undefined : items[at];
  }

  #setItems(items: T[]): void {
    this.#index = new Map(items.map((item, i) => [this.keyOf(item), i]));
    this.items = items;
  }

  /** Whether a refresh marked this row changed (reactive). */
  isChanged(key: string): boolean {
    return this.changed.has(key);
  }

  /** Lists the first page of the query, replacing the rows (a rejected filter keeps them; any other failure clears them). */
  async load(query: Q): Promise<void> {
    const generation = ++this.#generation;
    this.changed = new Set();
    this.loading = true;
    this.loadingMore = false;
    try {
      const page = await this.#source.fetchPage(query);
      if (generation !== this.#generation) return;
      this.#setItems(page.items);
      this.nextPageToken = page.nextPageToken;
      this.shownQuery = query;
      this.#shown = true;
      this.#failed = undefined;
      this.filterError = undefined;
      this.error = undefined;
    } catch (e) {
      if (generation !== this.#generation) return;
      const info = toErrorInfo(e);
      const rejectedFilter = Boolean(this.#source.filterOf?.(query).trim()) && isFilterError(info);
      this.#failed = rejectedFilter ? undefined : { query };
      // A typo in the filter keeps the rows shown before it (and their query): the error is shown at the box.
      if (!rejectedFilter) {
        this.#setItems([]);
        this.nextPageToken = '';
      }
      this.filterError = rejectedFilter ? info : undefined;
      this.error = rejectedFilter ? undefined : info;
    } finally {
      if (generation === this.#generation) {
        this.loading = false;
        this.loaded = true;
      }
    }
  }

  /** Appends the next page; a no-op when there is none or a list request is running. A failure keeps the rows. */
  async loadMore(): Promise<void> {
    if (!this.hasMore || this.busy) return;
    const generation = this.#generation;
    // A next page exists only once a first page arrived, so the shown query is set.
    const query = this.shownQuery as Q;
    this.loadingMore = true;
    try {
      const page = await this.#source.fetchPage(query, this.nextPageToken);
      if (generation !== this.#generation) return;
      const fresh: T[] = [];
      for (const item of page.items) {
        const key = this.keyOf(item);
        if (this.#index.has(key)) continue;
        this.#index.set(key, this.items.length + fresh.length);
        fresh.push(item);
      }
      this.items = this.items.concat(fresh);
      this.nextPageToken = page.nextPageToken;
      this.error = undefined;
    } catch (e) {
      if (generation === this.#generation) this.error = toErrorInfo(e);
    } finally {
      if (generation === this.#generation) this.loadingMore = false;
    }
  }

  /**
   * Reads the shown rows again, in place (the engine said records changed): the same query, as many rows as are
   * shown (up to REFRESH_MAX_ROWS; rows past it keep their values). Rows stay where they are, so scroll, selection
   * and focus stay; new and changed rows are marked, and rows the query no longer lists stay, marked, until the next
   * load. A load started meanwhile wins (the refresh is dropped); refreshes asked for during one run once after it.
   * A list whose load failed is loaded again instead (its error goes when that succeeds).
   */
  async refresh(): Promise<void> {
    if (this.#refreshing) {
      this.#refreshAgain = true;
      return;
    }
    if (this.busy) return;
    // The list failed to load (the engine did not answer, say): nothing is shown to keep in place, so it loads again.
    if (this.#failed) return await this.load(this.#failed.query);
    if (!this.#shown) return;
    this.#refreshing = true;
    try {
      do {
        this.#refreshAgain = false;
        await this.#refreshOnce(this.shownQuery as Q);
      } while (this.#refreshAgain && !this.busy);
    } catch {
      // A failed refresh leaves the rows as they were; the next change tries again.
    } finally {
      this.#refreshing = false;
    }
  }

  async #refreshOnce(query: Q): Promise<void> {
    const generation = this.#generation;
    const shown = this.items.length;
    const want = Math.min(Math.max(shown, 1), REFRESH_MAX_ROWS);
    const fresh: T[] = [];
    let token: string | undefined;
    do {
      const page = await this.#source.fetchPage(query, token);
      if (generation !== this.#generation) return;
      fresh.push(...page.items);
      token = page.nextPageToken || undefined;
    } while (token && fresh.length < want);
    if (generation !== this.#generation || this.busy) return;
    const covered = this.items.slice(0, want);
    const freshKeys = new Set(fresh.map((item) => this.keyOf(item)));
    const changed = new Set(this.changed);
    for (const item of fresh) {
      const old = this.get(this.keyOf(item));
      if (!old || JSON.stringify(old) !== JSON.stringify(item)) changed.add(this.keyOf(item));
    }
    // Rows gone from the query keep their place among the fresh ones (marked), until the user moves on.
    const merged = [...fresh];
    covered.forEach((item, i) => {
      const key = this.keyOf(item);
      if (freshKeys.has(key)) return;
      changed.add(key);
      merged.splice(Math.min(i, merged.length), 0, item);
    });
    const mergedKeys = new Set(merged.map((item) => this.keyOf(item)));
    const rest = this.items.slice(want).filter((item) => !mergedKeys.has(this.keyOf(item)));
    this.#setItems([...merged, ...rest]);
    if (shown <= REFRESH_MAX_ROWS) this.nextPageToken = token ?? '';
    this.changed = changed;
  }

  /** Puts a newer version of a shown row in its place (after an edit, or one made elsewhere); a row not shown is ignored. */
  replace(item: T, changedElsewhere = false): void {
    const key = this.keyOf(item);
    const i = this.#index.get(key);
    if (i === undefined) return;
    // A version someone else wrote is marked like a refresh's, whichever of the two read it first.
    if (changedElsewhere && JSON.stringify(this.items[i]) !== JSON.stringify(item)) this.changed = new Set(this.changed).add(key);
    const next = this.items.slice();
    next[i] = item;
    this.items = next;
  }

  /** Puts newer versions of many shown rows in their places at once (a batch action's); rows not shown are ignored. */
  replaceAll(items: readonly T[]): void {
    const next = this.items.slice();
    let replaced = false;
    for (const item of items) {
      const i = this.#index.get(this.keyOf(item));
      if (i === undefined) continue;
      next[i] = item;
      replaced = true;
    }
    if (replaced) this.items = next;
  }

  /** Shows a created item without a reload: first, or where `compare` sorts it. */
  insert(item: T, compare?: (a: T, b: T) => number): void {
    const key = this.keyOf(item);
    const others = this.items.filter((row) => this.keyOf(row) !== key);
    this.#setItems(compare ? [...others, item].sort(compare) : [item, ...others]);
  }
}
