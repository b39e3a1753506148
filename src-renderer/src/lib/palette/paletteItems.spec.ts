import { expect, test } from 'vitest';
import type { AnnotationQuery } from '../services/annotationService';
import { paletteItems } from './paletteItems';
import type { RecentRecord } from './recentRecords.svelte';

test('commands first (with their kind and keys), then saved searches and recent records of every kind, each running its own', () => {
  const ran: string[] = [];
  const query: AnnotationQuery = { filter: 'x == 1', sort: { field: 'name', desc: false } };
  const opened: Array<AnnotationQuery | RecentRecord> = [];
  const items = paletteItems(
    [
      { id: 'go:policies', kind: 'view', label: 'Go to Policies', keys: ['g', 'p'], run: () => ran.push('go') },
      { id: 'new-policy', label: 'New policy', opensInput: true, run: () => ran.push('new') },
    ],
    [{ name: 'Mine', query }],
    [
      { kind: 'annotation', id: 'a1', name: 'Pump stall' },
      { kind: 'test-report', id: 't1', name: 'Run 7' },
    ],
    { search: (q) => opened.push(q), record: (r) => opened.push(r) },
  );
  expect(items.map(({ kind, label, kindLabel, keys, opensInput }) => ({ kind, label, kindLabel, keys, opensInput }))).toEqual([
    { kind: 'view', label: 'Go to Policies', kindLabel: 'View', keys: ['g', 'p'], opensInput: undefined },
    { kind: 'action', label: 'New policy', kindLabel: 'Action', keys: undefined, opensInput: true },
    { kind: 'saved-search', label: 'Mine', kindLabel: 'Saved search', keys: undefined, opensInput: undefined },
    { kind: 'recent', label: 'Pump stall', kindLabel: 'Recent annotation', keys: undefined, opensInput: undefined },
    { kind: 'recent', label: 'Run 7', kindLabel: 'Recent test report', keys: undefined, opensInput: undefined },
  ]);
  for (const item of items) item.run();
  expect(ran).toEqual(['go', 'new']);
  expect(opened).toEqual([query, { kind: 'annotation', id: 'a1', name: 'Pump stall' }, { kind: 'test-report', id: 't1', name: 'Run 7' }]);
});
