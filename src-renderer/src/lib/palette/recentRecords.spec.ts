import { expect, test } from 'vitest';
import { RECENT_LIMIT, RecentRecords } from './recentRecords.svelte';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data };
}

test('newest first, each once, at most the limit; kept across instances through the storage', () => {
  const storage = memoryStorage();
  const recent = new RecentRecords(storage);
  recent.visited({ id: 'a', name: 'Alpha' });
  recent.visited({ id: 'b', name: 'Beta' });
  recent.visited({ id: 'a', name: 'Alpha (renamed)' });
  expect(recent.items).toEqual([
    { id: 'a', name: 'Alpha (renamed)' },
    { id: 'b', name: 'Beta' },
  ]);
  for (let i = 0; i < RECENT_LIMIT + 3; i++) recent.visited({ id: `x${i}`, name: `X ${i}` });
  expect(recent.items).toHaveLength(RECENT_LIMIT);
  expect(recent.items[0]).toEqual({ id: `x${RECENT_LIMIT + 2}`, name: `X ${RECENT_LIMIT + 2}` });
  expect(new RecentRecords(storage).items).toEqual(recent.items);
});

test('a damaged or foreign stored value is ignored', () => {
  expect(new RecentRecords(memoryStorage({ 'outpost.recentAnnotations': '{not json' })).items).toEqual([]);
  expect(new RecentRecords(memoryStorage({ 'outpost.recentAnnotations': '[{"id":1},{"id":"a","name":"A"}]' })).items).toEqual([
    { id: 'a', name: 'A' },
  ]);
  expect(new RecentRecords().items).toEqual([]);
});
