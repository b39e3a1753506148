import { expect, test } from 'vitest';
import { RECENT_LIMIT, RecentRecords } from './recentRecords.svelte';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data };
}

test('records of every kind, newest first, each once (by kind and id), at most the limit; kept through the storage', () => {
  const storage = memoryStorage();
  const recent = new RecentRecords(storage);
  recent.visited({ kind: 'annotation', id: 'a', name: 'Alpha' });
  recent.visited({ kind: 'policy', id: 'p', name: 'Field team' });
  // The same id of another kind is another record.
  recent.visited({ kind: 'test-report', id: 'a', name: 'Run 7' });
  recent.visited({ kind: 'annotation', id: 'a', name: 'Alpha (renamed)' });
  expect(recent.items).toEqual([
    { kind: 'annotation', id: 'a', name: 'Alpha (renamed)' },
    { kind: 'test-report', id: 'a', name: 'Run 7' },
    { kind: 'policy', id: 'p', name: 'Field team' },
  ]);
  for (let i = 0; i < RECENT_LIMIT + 3; i++) recent.visited({ kind: 'artifact', id: `x${i}`, name: `X ${i}` });
  expect(recent.items).toHaveLength(RECENT_LIMIT);
  expect(recent.items[0]).toEqual({ kind: 'artifact', id: `x${RECENT_LIMIT + 2}`, name: `X ${RECENT_LIMIT + 2}` });
  expect(new RecentRecords(storage).items).toEqual(recent.items);
});

test('a damaged or foreign stored value is ignored; the earlier annotations-only list is read as annotations', () => {
  expect(new RecentRecords(memoryStorage({ 'outpost.recentRecords': '{not json' })).items).toEqual([]);
  expect(
    new RecentRecords(
      memoryStorage({ 'outpost.recentRecords': '[{"id":1},{"kind":"planet","id":"p","name":"P"},{"kind":"rule","id":"r","name":"R"}]' }),
    ).items,
  ).toEqual([{ kind: 'rule', id: 'r', name: 'R' }]);
  expect(new RecentRecords(memoryStorage({ 'outpost.recentAnnotations': '[{"id":"a","name":"A"}]' })).items).toEqual([
    { kind: 'annotation', id: 'a', name: 'A' },
  ]);
  expect(new RecentRecords().items).toEqual([]);
});
