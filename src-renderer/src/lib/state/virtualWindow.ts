// Which rows of a fixed-height list a viewport shows: the list renders only
// those (plus a margin), inside a spacer as tall as every row, so 100k rows
// cost what one screen does.

export interface VirtualWindow {
  /** First rendered row (inclusive). */
  readonly start: number;
  /** Past the last rendered row (exclusive). */
  readonly end: number;
  /** Top of the first rendered row, px. */
  readonly offset: number;
  /** Height of every row together, px. */
  readonly total: number;
}

export function windowOf(scrollTop: number, viewportHeight: number, rowHeight: number, count: number, overscan = 6): VirtualWindow {
  const total = count * rowHeight;
  if (count === 0 || rowHeight <= 0) return { start: 0, end: 0, offset: 0, total };
  const top = Math.max(0, Math.min(scrollTop, Math.max(0, total - viewportHeight)));
  const first = Math.floor(top / rowHeight);
  const last = Math.ceil((top + Math.max(0, viewportHeight)) / rowHeight);
  const start = Math.max(0, first - overscan);
  const end = Math.min(count, last + overscan);
  return { start, end, offset: start * rowHeight, total };
}

/** The scrollTop that brings row `index` into view (unchanged when it is already fully visible). */
export function scrollToShow(index: number, scrollTop: number, viewportHeight: number, rowHeight: number): number {
  const top = index * rowHeight;
  if (top < scrollTop) return top;
  if (top + rowHeight > scrollTop + viewportHeight) return top + rowHeight - viewportHeight;
  return scrollTop;
}

/** Whether the rendered window is close enough to the end of the loaded rows to ask for the next page. */
export function nearEnd(window: VirtualWindow, count: number, margin: number): boolean {
  return count > 0 && window.end >= count - margin;
}
