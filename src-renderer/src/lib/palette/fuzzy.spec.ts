import { expect, test } from 'vitest';
import { fuzzyFilter, fuzzyMatch } from './fuzzy';

test('characters in order match, case-insensitively; out of order or missing do not', () => {
  expect(fuzzyMatch('arc', 'Archive')?.positions).toEqual([0, 1, 2]);
  expect(fuzzyMatch('ARV', 'archive')?.positions).toEqual([0, 1, 5]);
  expect(fuzzyMatch('cra', 'Archive')).toBeUndefined();
  expect(fuzzyMatch('archivez', 'Archive')).toBeUndefined();
  expect(fuzzyMatch('  ', 'anything')).toEqual({ score: 0, positions: [] });
});

test('word starts and runs rank higher: initials find their words', () => {
  expect(fuzzyMatch('gss', 'Go to Saved searches')?.positions).toEqual([0, 6, 12]);
  const ranked = fuzzyFilter('arch', ['Search by chart', 'Unarchive', 'Archive / unarchive'], (s) => s).map((r) => r.item);
  expect(ranked).toEqual(['Archive / unarchive', 'Unarchive', 'Search by chart']);
  const views = fuzzyFilter('pol', ['Go to Annotations', 'Go to Policies', 'Go to Rules'], (s) => s).map((r) => r.item);
  expect(views).toEqual(['Go to Policies']);
});

test('an empty query keeps every item in its order', () => {
  expect(fuzzyFilter('', ['b', 'a', 'c'], (s) => s).map((r) => r.item)).toEqual(['b', 'a', 'c']);
});
