// What the command palette offers: the commands registered now (the app's and
// those of the view on screen, see commandRegistry.ts), then the saved
// annotation searches and the records opened lately, each as one item the
// palette fuzzy-matches and runs.
import type { AnnotationQuery } from '../services/annotationService';
import type { PaletteCommand } from './commandRegistry';
import { RECORD_KINDS, type RecentRecord } from './recentRecords.svelte';

export type PaletteKind = NonNullable<PaletteCommand['kind']> | 'saved-search' | 'recent';

export interface PaletteItem {
  readonly kind: PaletteKind;
  readonly label: string;
  /** What the item is, in words (shown beside it). */
  readonly kindLabel: string;
  readonly keys?: readonly string[];
  readonly opensInput?: boolean;
  readonly run: () => void;
}

const COMMAND_KIND_LABELS: Record<NonNullable<PaletteCommand['kind']>, string> = { action: 'Action', view: 'View', list: 'List' };

export interface PaletteTargets {
  /** Lists a saved search's annotations. */
  readonly search: (query: AnnotationQuery) => void;
  /** Opens a record in its view. */
  readonly record: (record: RecentRecord) => void;
}

export function paletteItems(
  commands: readonly PaletteCommand[],
  saved: ReadonlyArray<{ name: string; query: AnnotationQuery }>,
  recent: readonly RecentRecord[],
  open: PaletteTargets,
): PaletteItem[] {
  return [
    ...commands.map(({ kind = 'action', label, keys, opensInput, run }): PaletteItem => ({
      kind,
      label,
      kindLabel: COMMAND_KIND_LABELS[kind],
      ...(keys ? { keys } : {}),
      ...(opensInput ? { opensInput } : {}),
      run,
    })),
    ...saved.map(({ name, query }): PaletteItem => ({
      kind: 'saved-search',
      label: name,
      kindLabel: 'Saved search',
      run: () => open.search(query),
    })),
    ...recent.map((r): PaletteItem => ({
      kind: 'recent',
      label: r.name,
      kindLabel: `Recent ${RECORD_KINDS[r.kind].label}`,
      run: () => open.record(r),
    })),
  ];
}
