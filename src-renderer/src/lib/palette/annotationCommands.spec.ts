import { expect, test } from 'vitest';
import { SHORTCUTS, type Shortcut } from '../keyboard/shortcuts';
import type { AnnotationQuery } from '../services/annotationService';
import { EMPTY_ANNOTATION_ROUTE } from '../state/route';
import { keyEventOf, listActions, shortcutCommands } from './annotationCommands';

const current = {
  filter: 'name.contains("pump") && state == ANNOTATION_STATE_OPEN',
  sort: { field: 'name' as const, desc: false },
  showArchived: false,
  open: 'a1',
};

test("every action of the keyboard map but the moves, help and the palette (the app's), each replaying its own key", () => {
  const replayed: Shortcut[] = [];
  const commands = shortcutCommands((s) => replayed.push(s));
  const labels = commands.map((c) => c.label);
  expect(labels).toContain('Archive / unarchive');
  expect(labels).toContain('Focus the filter');
  expect(labels.filter((l) => l.startsWith('Next row') || l === 'Show these shortcuts' || l.startsWith('Command palette'))).toEqual([]);
  expect(labels.filter((l) => SHORTCUTS.some((s) => s.group === 'Go to' && s.label === l))).toEqual([]);
  // `n` is the "New annotation" entry point, offered from every view.
  expect(commands.find((c) => c.keys?.[0] === 'n')?.id).toBe('create-annotation');
  commands.find((c) => c.label === 'Archive / unarchive')!.run();
  expect(replayed.map((s) => s.keys)).toEqual([['e']]);
});

test("the list's actions keep the rest of the query", () => {
  const listed: AnnotationQuery[] = [];
  const byLabel = new Map(
    listActions(current, (q) => listed.push(q)).map((c) => {
      c.run();
      return [c.label, listed.at(-1)!];
    }),
  );
  expect(byLabel.get('Only flagged annotations')).toEqual({
    filter: 'name.contains("pump") && state == ANNOTATION_STATE_FLAGGED',
    sort: current.sort,
    showArchived: false,
  });
  expect(byLabel.get('Sort by start time')?.sort).toEqual({ field: 'start_time', desc: false });
  expect(byLabel.get('Sort descending')?.sort).toEqual({ field: 'name', desc: true });
  expect(byLabel.get('Show archived annotations too')).toMatchObject({ filter: current.filter, showArchived: true });
  expect(byLabel.get('Clear the filter')).toEqual({ filter: '', sort: current.sort, showArchived: false });
  expect(listActions({ ...EMPTY_ANNOTATION_ROUTE, showArchived: true }, () => {}).map((c) => c.label)).toContain(
    'Hide archived annotations',
  );
  expect(new Set(listActions(current, () => {}).map((c) => c.kind))).toEqual(new Set(['list']));
});

test('an action replays its own key', () => {
  const of = (label: string) => keyEventOf(SHORTCUTS.find((s) => s.label === label)!);
  expect(of('Archive / unarchive')).toEqual({ key: 'e', shiftKey: false });
  expect(of('Select every loaded row (again: every matching one)')).toEqual({ key: 'a', ctrlKey: true });
  expect(of('Show these shortcuts')).toEqual({ key: '?', shiftKey: true });
});
