// The annotations view's palette commands: every action of the keyboard map
// (the same table the `?` help shows; moving along the list is left to the
// keys), each replayed as its own key so the same guards apply, and the
// list's own actions (a state only, sort, archived, clear).
import { readQuickFilters, writeQuickFilters } from '../filter/quickFilters';
import { enumLabel } from '../format';
import { SHORTCUTS, type Command, type Shortcut } from '../keyboard/shortcuts';
import { REVIEW_STATES, SORT_FIELDS, type AnnotationQuery } from '../services/annotationService';
import type { AnnotationRoute } from '../state/route';
import type { PaletteCommand } from './commandRegistry';

/** Keys that move, open or leave: meaningful only as keys; help and the palette are the app's. */
const KEYS_ONLY: ReadonlySet<Command> = new Set<Command>([
  'next',
  'previous',
  'extend-next',
  'extend-previous',
  'open',
  'back',
  'palette',
  'help',
]);

/** Commands that are entry points (offered from any view, entryPoints.ts) under their id there. */
const ENTRY_IDS: Partial<Record<Command, string>> = { create: 'create-annotation' };

/** The keyboard map's review and list actions; `replay` sends the shortcut's key where the keys go. */
export function shortcutCommands(replay: (shortcut: Shortcut) => void): PaletteCommand[] {
  return SHORTCUTS.filter((s) => s.group !== 'Go to' && !KEYS_ONLY.has(s.command)).map((shortcut) => ({
    id: ENTRY_IDS[shortcut.command] ?? `key:${shortcut.command}`,
    label: shortcut.label,
    keys: shortcut.keys,
    run: () => replay(shortcut),
  }));
}

/** The annotation list's own actions, each listing another query instead of `current` (with `list`). */
export function listActions(current: AnnotationRoute, list: (query: AnnotationQuery) => void): PaletteCommand[] {
  const { quick, rest } = readQuickFilters(current.filter);
  const same = { sort: current.sort, showArchived: current.showArchived };
  const command = (id: string, label: string, query: AnnotationQuery): PaletteCommand => ({
    id,
    kind: 'list',
    label,
    run: () => list(query),
  });
  return [
    ...REVIEW_STATES.map((state) =>
      command(`list:only-${state}`, `Only ${enumLabel(state, 'ANNOTATION_STATE_').toLowerCase()} annotations`, {
        ...same,
        filter: writeQuickFilters({ ...quick, states: [state] }, rest),
      }),
    ),
    ...SORT_FIELDS.map((f) =>
      command(`list:sort-${f.field}`, `Sort by ${f.label.toLowerCase()}`, {
        ...same,
        filter: current.filter,
        sort: { field: f.field, desc: current.sort.desc },
      }),
    ),
    command('list:direction', current.sort.desc ? 'Sort ascending' : 'Sort descending', {
      ...same,
      filter: current.filter,
      sort: { ...current.sort, desc: !current.sort.desc },
    }),
    command('list:archived', current.showArchived ? 'Hide archived annotations' : 'Show archived annotations too', {
      ...same,
      filter: current.filter,
      showArchived: !current.showArchived,
    }),
    command('list:clear', 'Clear the filter', { ...same, filter: '' }),
  ];
}

/** The key event that runs a shortcut, to replay it where the keys go (the same path, guards included). */
export function keyEventOf(shortcut: Shortcut): KeyboardEventInit {
  const [first, second] = shortcut.keys;
  if (first === 'Ctrl') return { key: second, ctrlKey: true };
  if (first === 'Shift') return { key: second.toUpperCase(), shiftKey: true };
  return { key: first === 'Esc' ? 'Escape' : first, shiftKey: first === '?' };
}

/** Sends `shortcut`'s key to the focused element (else the page), as the keyboard would. */
export function replayKey(shortcut: Shortcut): void {
  const target = document.activeElement ?? document.body;
  target.dispatchEvent(new KeyboardEvent('keydown', { ...keyEventOf(shortcut), bubbles: true, cancelable: true }));
}
