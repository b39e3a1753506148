import { expect, test } from 'vitest';
import { SHORTCUTS } from '../keyboard/shortcuts';
import { EMPTY_ANNOTATION_ROUTE } from '../state/route';
import { keyEventOf, listActions, paletteItems } from './paletteItems';

const current = {
  filter: 'name.contains("pump") && state == ANNOTATION_STATE_OPEN',
  sort: { field: 'name' as const, desc: false },
  showArchived: false,
  open: 'a1',
};

test('every view and every action of the keyboard map but the moves; saved searches and recent records after', () => {
  const items = paletteItems(
    [{ name: 'Mine', query: { filter: 'x == 1', sort: current.sort } }],
    [{ id: 'r1', name: 'Pump stall' }],
    current,
  );
  const labels = items.map((i) => `${i.kind}:${i.label}`);
  expect(labels).toContain('view:Go to Policies');
  expect(labels).toContain('action:Archive / unarchive');
  expect(labels).toContain('action:Show these shortcuts');
  expect(labels.filter((l) => l.startsWith('action:Next row'))).toEqual([]);
  expect(labels.at(-2)).toBe('saved-search:Mine');
  expect(labels.at(-1)).toBe('recent:Pump stall');
});

test("the list's actions keep the rest of the query", () => {
  const byLabel = new Map(listActions(current).map((i) => [i.label, i.kind === 'list' ? i.query : undefined]));
  expect(byLabel.get('Only flagged annotations')).toEqual({
    filter: 'name.contains("pump") && state == ANNOTATION_STATE_FLAGGED',
    sort: current.sort,
    showArchived: false,
  });
  expect(byLabel.get('Sort by start time')?.sort).toEqual({ field: 'start_time', desc: false });
  expect(byLabel.get('Sort descending')?.sort).toEqual({ field: 'name', desc: true });
  expect(byLabel.get('Show archived annotations too')).toMatchObject({ filter: current.filter, showArchived: true });
  expect(byLabel.get('Clear the filter')).toEqual({ filter: '', sort: current.sort, showArchived: false });
  expect(listActions({ ...EMPTY_ANNOTATION_ROUTE, showArchived: true }).map((i) => i.label)).toContain('Hide archived annotations');
});

test('an action replays its own key', () => {
  const of = (label: string) => keyEventOf(SHORTCUTS.find((s) => s.label === label)!);
  expect(of('Archive / unarchive')).toEqual({ key: 'e', shiftKey: false });
  expect(of('Select every loaded row (again: every matching one)')).toEqual({ key: 'a', ctrlKey: true });
  expect(of('Show these shortcuts')).toEqual({ key: '?', shiftKey: true });
});
