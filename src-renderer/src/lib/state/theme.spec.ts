import { expect, test } from 'vitest';
import { Theme } from './theme.svelte';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data };
}

/** The part of an element the theme writes: its data attributes. */
const fakeRoot = () => ({ dataset: {} as Record<string, string> }) as unknown as HTMLElement;

test("the system's theme by default (no attribute); a chosen one is set on the root and kept across pages", () => {
  const storage = memoryStorage();
  const root = fakeRoot();
  const theme = new Theme(root, storage);
  expect(theme.choice).toBe('system');
  expect(root.dataset.theme).toBeUndefined();
  theme.choose('dark');
  expect(root.dataset.theme).toBe('dark');
  const next = fakeRoot();
  expect(new Theme(next, storage).choice).toBe('dark');
  expect(next.dataset.theme).toBe('dark');
  theme.choose('system');
  expect(root.dataset.theme).toBeUndefined();
  expect(new Theme(fakeRoot(), storage).choice).toBe('system');
});

test('a stored value that is not a theme, or no storage, is the system theme', () => {
  expect(new Theme(fakeRoot(), memoryStorage({ 'outpost.theme': 'sepia' })).choice).toBe('system');
  expect(new Theme().choice).toBe('system');
});
