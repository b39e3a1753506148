// The list's cursor and multi-selection, by row key: the cursor is the row
// the keys act on (shown in the detail pane); the selection is the set a
// batch action acts on. Shift+move extends from an anchor like a file
// manager; an action acts on the selection when there is one, else on the
// cursor row. "All matching" widens the selection past the loaded rows to every
// record the list's query matches (the engine acts on the query, not on keys);
// any other change of the selection narrows it back to keys.

export class SelectionModel {
  /** The key of the cursor row. */
  cursor = $state<string | undefined>();
  /** Selected keys (a new Set on every change, so views update). */
  selected = $state.raw<ReadonlySet<string>>(new Set());
  /** Every record the list's query matches is selected, loaded or not. */
  allMatching = $state(false);
  #anchor: string | undefined;

  get count(): number {
    return this.selected.size;
  }

  isSelected(key: string): boolean {
    return this.allMatching || this.selected.has(key);
  }

  /** Selects every record the query matches (`keys`: the loaded ones, shown selected). */
  selectAllMatching(keys: readonly string[]): void {
    this.selected = new Set(keys);
    this.allMatching = true;
  }

  /** The keys an action applies to: the selection in list order, else the cursor row. */
  targets(keys: readonly string[]): string[] {
    if (this.selected.size) return keys.filter((k) => this.selected.has(k));
    return this.cursor !== undefined ? [this.cursor] : [];
  }

  /** Moves the cursor by `step` rows within `keys` (from nothing: to the first row); returns the new cursor. */
  move(keys: readonly string[], step: number): string | undefined {
    if (!keys.length) return undefined;
    const at = this.cursor === undefined ? -1 : keys.indexOf(this.cursor);
    const next = at < 0 ? 0 : Math.max(0, Math.min(keys.length - 1, at + step));
    this.cursor = keys[next];
    this.#anchor = undefined;
    return this.cursor;
  }

  /** Moves the cursor and selects every row from the anchor (where extending began) to it. */
  extend(keys: readonly string[], step: number): string | undefined {
    if (!keys.length) return undefined;
    if (this.cursor === undefined || !keys.includes(this.cursor)) return this.move(keys, 0);
    const anchor = this.#anchor !== undefined && keys.includes(this.#anchor) ? this.#anchor : this.cursor;
    const from = keys.indexOf(anchor);
    const to = Math.max(0, Math.min(keys.length - 1, keys.indexOf(this.cursor) + step));
    const [lo, hi] = from <= to ? [from, to] : [to, from];
    // Rows selected before this extension (x) stay selected.
    const kept = [...this.selected].filter((k) => {
      const i = keys.indexOf(k);
      return i < 0 || i < Math.min(from, keys.indexOf(this.cursor!)) || i > Math.max(from, keys.indexOf(this.cursor!));
    });
    this.selected = new Set([...kept, ...keys.slice(lo, hi + 1)]);
    this.allMatching = false;
    this.cursor = keys[to];
    this.#anchor = anchor;
    return this.cursor;
  }

  /** Puts the cursor on `key` (a click, or the detail opening a row). */
  focus(key: string | undefined): void {
    this.cursor = key;
    this.#anchor = undefined;
  }

  toggle(key: string): void {
    const next = new Set(this.selected);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    this.selected = next;
    this.allMatching = false;
    this.#anchor = undefined;
  }

  selectAll(keys: readonly string[]): void {
    this.selected = new Set(keys);
    this.allMatching = false;
  }

  clear(): void {
    this.selected = new Set();
    this.allMatching = false;
    this.#anchor = undefined;
  }

  /** Forgets keys no longer listed (a new filter); `listed` answers by key, so the cost is the selection's, not the list's. */
  retain(listed: (key: string) => boolean): void {
    // (All matching stays while the same query is shown: the view narrows it when the query changes.)
    if ([...this.selected].some((k) => !listed(k))) this.selected = new Set([...this.selected].filter(listed));
    if (this.cursor !== undefined && !listed(this.cursor)) this.cursor = undefined;
  }
}
