// The commands of a view that the palette offers from any view. The view
// registers each under the same id (with `entry(id)` for its label) while it is
// mounted; from elsewhere, choosing one goes to the view and runs it there, so
// it takes the same path as the view's own button (guards and messages included).
import type { EntryPoint } from './commandRegistry';

export const ENTRY_POINTS = [
  // Held from the choice through the view's mount; its key `n`, replayed there, keeps the keys held so far.
  { id: 'create-annotation', label: 'New annotation', view: 'annotations', opensInput: true },
  { id: 'save-search', label: 'Save the current filter and sort as a search', view: 'annotations', opensInput: true },
  { id: 'import-test-report', label: 'Import a test report (ATML file)', view: 'test-reports' },
  { id: 'upload-artifact', label: 'Upload an artifact (a file)', view: 'artifacts' },
  { id: 'new-policy', label: 'New policy', view: 'policies', opensInput: true },
  { id: 'try-policy', label: 'Try the policies: who may do what to a record', view: 'policies' },
  { id: 'sync-now', label: 'Sync now', view: 'sync' },
  { id: 'link-platform', label: 'Link to the platform (sync settings)', view: 'sync', opensInput: true },
] as const satisfies readonly EntryPoint[];

export type EntryPointId = (typeof ENTRY_POINTS)[number]['id'];

/** The id, label and whether it opens a text field, of an entry point, for the view that registers it. */
export function entry(id: EntryPointId): { id: EntryPointId; label: string; opensInput?: boolean } {
  const { view: _view, ...command }: EntryPoint = ENTRY_POINTS.find((e) => e.id === id)!;
  return { ...command, id };
}
