// What the command palette offers: every view, every action of the keyboard
// map (the same table the `?` help shows; moving along the list is left to
// the keys), the saved annotation searches and the annotations opened lately.
import { SHORTCUTS, type Command, type Shortcut } from '../keyboard/shortcuts';
import type { AnnotationQuery } from '../services/annotationService';
import { VIEWS, type ViewId } from '../state/route';
import type { RecentRecord } from './recentRecords.svelte';

export type PaletteItem =
  | { readonly kind: 'action'; readonly label: string; readonly shortcut: Shortcut }
  | { readonly kind: 'view'; readonly label: string; readonly view: ViewId }
  | { readonly kind: 'saved-search'; readonly label: string; readonly query: AnnotationQuery }
  | { readonly kind: 'recent'; readonly label: string; readonly annotationId: string };

export const KIND_LABELS: Record<PaletteItem['kind'], string> = {
  action: 'Action',
  view: 'View',
  'saved-search': 'Saved search',
  recent: 'Recent',
};

/** Keys that move, open or leave: meaningful only as keys. */
const KEYS_ONLY: ReadonlySet<Command> = new Set<Command>(['next', 'previous', 'extend-next', 'extend-previous', 'open', 'back', 'palette']);

export function paletteItems(
  saved: ReadonlyArray<{ name: string; query: AnnotationQuery }>,
  recent: readonly RecentRecord[],
): PaletteItem[] {
  const actions = SHORTCUTS.filter((s) => s.group !== 'Go to' && !KEYS_ONLY.has(s.command)).map((shortcut): PaletteItem => ({
    kind: 'action',
    label: shortcut.label,
    shortcut,
  }));
  const views = VIEWS.map((v): PaletteItem => ({ kind: 'view', label: `Go to ${v.label}`, view: v.id }));
  return [
    ...actions,
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
