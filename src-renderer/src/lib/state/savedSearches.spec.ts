import { expect, test } from 'vitest';
import { ApiError } from '../../../../src-shared/errors';
import { sentenceOf } from '../errorSentences';
import { fakeClient } from '../testing/fakeClient';
import { savedSearch } from '../testing/moreFactories';
import { SavedSearchList } from './savedSearches.svelte';

test('load, rename, delete; a failed action keeps the list and shows why', async () => {
  const [a, b] = [savedSearch({ name: 'A' }), savedSearch({ name: 'B' })];
  const fake = fakeClient()
    .on('ListSavedSearches', () => ({ savedSearches: [a, b], nextPageToken: '' }))
    .on('UpdateSavedSearch', (req) => {
      const patch = req.savedSearch as { savedSearchId: string; name: string };
      if (!patch.name) throw ApiError.invalid('saved_search.name', 'must not be empty');
      return { savedSearch: { ...a, name: patch.name } };
    })
    .on('DeleteSavedSearch', () => ({}));
  const list = new SavedSearchList(fake.client);
  await list.load();
  expect(list.searches.map((s) => s.name)).toEqual(['A', 'B']);
  expect(await list.rename(a.savedSearchId, 'A2')).toBe(true);
  expect(list.searches.map((s) => s.name)).toEqual(['A2', 'B']);
  expect(await list.rename(a.savedSearchId, '')).toBe(false);
  expect(list.actionError?.message).toBe('saved_search.name: must not be empty');
  // The sentence names the search by its name, the field in words.
  expect(sentenceOf(list.actionError!)).toBe("Renaming 'A2' was refused: the name: must not be empty.");
  expect(await list.remove(b.savedSearchId)).toBe(true);
  expect(list.searches.map((s) => s.name)).toEqual(['A2']);
  expect(list.pendingId).toBeUndefined();
});
