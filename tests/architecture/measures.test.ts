// The measures of the sync redraw hold (`npm run measures` prints them).
import { expect, test } from 'vitest';
import { anyInSync, fieldListCopies, filesNamingResourceFolders } from './measures';

test('adding a replicated resource takes its folder and one line in the list of descriptors', () => {
  expect(filesNamingResourceFolders()).toEqual(['src-main/sync/resources/index.ts']);
});

test('every `any` in sync says why in a comment', () => {
  expect(
    anyInSync()
      .filter((a) => !a.explained)
      .map((a) => `${a.file}:${a.line}`),
  ).toEqual([]);
});

test('no list of field names is written twice: each is derived from its one declaration', () => {
  expect(fieldListCopies().map((c) => `${c.copy} repeats ${c.list}`)).toEqual([]);
});
