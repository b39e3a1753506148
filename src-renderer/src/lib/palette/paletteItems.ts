// What the command palette offers: every view, every action of the keyboard
// map (the same table the `?` help shows; moving along the list is left to
// the keys), the list's own actions (a state only, sort, archived, clear),
// the saved annotation searches and the annotations opened lately.
import { readQuickFilters, writeQuickFilters } from '../filter/quickFilters';
import { enumLabel } from '../format';
import { SHORTCUTS, type Command, type Shortcut } from '../keyboard/shortcuts';
import { REVIEW_STATES, SORT_FIELDS, type AnnotationQuery } from '../services/annotationService';
import { VIEWS, type AnnotationRoute, type ViewId } from '../state/route';
import type { RecentRecord } from './recentRecords.svelte';

export type PaletteItem =
  | { readonly kind: 'action'; readonly label: string; readonly shortcut: Shortcut }
  | { readonly kind: 'list'; readonly label: string; readonly query: AnnotationQuery }
  | { readonly kind: 'view'; readonly label: string; readonly view: ViewId }
  | { readonly kind: 'saved-search'; readonly label: string; readonly query: AnnotationQuery }
  | { readonly kind: 'recent'; readonly label: string; readonly annotationId: string };

export const KIND_LABELS: Record<PaletteItem['kind'], string> = {
  action: 'Action',
  list: 'List',
  view: 'View',
  'saved-search': 'Saved search',
  recent: 'Recent',
};

/** Keys that move, open or leave: meaningful only as keys. */
const KEYS_ONLY: ReadonlySet<Command> = new Set<Command>(['next', 'previous', 'extend-next', 'extend-previous', 'open', 'back', 'palette']);

/** The annotation list's own actions, each as the query it lists instead of `current`. */
export function listActions(current: AnnotationRoute): PaletteItem[] {
  const { quick, rest } = readQuickFilters(current.filter);
  const same = { sort: current.sort, showArchived: current.showArchived };
  const list = (label: string, query: AnnotationQuery): PaletteItem => ({ kind: 'list', label, query });
  return [
    ...REVIEW_STATES.map((state) =>
      list(`Only ${enumLabel(state, 'ANNOTATION_STATE_').toLowerCase()} annotations`, {
        ...same,
        filter: writeQuickFilters({ ...quick, states: [state] }, rest),
      }),
    ),
    ...SORT_FIELDS.map((f) =>
      list(`Sort by ${f.label.toLowerCase()}`, { ...same, filter: current.filter, sort: { field: f.field, desc: current.sort.desc } }),
    ),
    list(current.sort.desc ? 'Sort ascending' : 'Sort descending', {
      ...same,
      filter: current.filter,
      sort: { ...current.sort, desc: !current.sort.desc },
    }),
    list(current.showArchived ? 'Hide archived annotations' : 'Show archived annotations too', {
      ...same,
      filter: current.filter,
      showArchived: !current.showArchived,
    }),
    list('Clear the filter', { ...same, filter: '' }),
  ];
}

export function paletteItems(
  saved: ReadonlyArray<{ name: string; query: AnnotationQuery }>,
  recent: readonly RecentRecord[],
  current: AnnotationRoute,
): PaletteItem[] {
  const actions = SHORTCUTS.filter((s) => s.group !== 'Go to' && !KEYS_ONLY.has(s.command)).map((shortcut): PaletteItem => ({
    kind: 'action',
    label: shortcut.label,
    shortcut,
  }));
  const views = VIEWS.map((v): PaletteItem => ({ kind: 'view', label: `Go to ${v.label}`, view: v.id }));
  return [
    ...actions,
    ...listActions(current),
    ...views,
    ...saved.map(({ name, query }): PaletteItem => ({ kind: 'saved-search', label: name, query })),
    ...recent.map((r): PaletteItem => ({ kind: 'recent', label: r.name, annotationId: r.id })),
  ];
}

/** The key event that runs a shortcut, to replay it where the keys go (the same path, guards included). */
export function keyEventOf(shortcut: Shortcut): KeyboardEventInit {
  const [first, second] = shortcut.keys;
  if (first === 'Ctrl') return { key: second, ctrlKey: true };
  if (first === 'Shift') return { key: second.toUpperCase(), shiftKey: true };
  return { key: first === 'Esc' ? 'Escape' : first, shiftKey: first === '?' };
}
