import { expect, test } from 'vitest';
import { ApiError } from '../../../../src-shared/errors';
import { fakeClient } from '../testing/fakeClient';
import { DirectoryState } from './directory.svelte';

test('loads people, me, tags, asset and run names; each failure is kept on its own', async () => {
  const fake = fakeClient()
    .on('ListActiveUsers', () => ({ users: [{ userId: 'u2', userName: 'ana@x', organizations: [] }], nextPageToken: '' }))
    .on('GetMe', () => ({ userId: 'u1', userEmail: 'me@x', organizations: [], isAdmin: false }))
    .on('ListTags', () => {
      throw ApiError.permissionDenied('no tags for you');
    })
    .on('ListAssets', () => ({ assets: [{ assetId: 'a1', name: 'Falcon-7' }], nextPageToken: '' }))
    .on('ListRuns', () => ({ runs: [{ runId: 'r1', name: 'Hot fire 12' }], nextPageToken: '' }));
  const dir = new DirectoryState(fake.client);
  await dir.load();
  expect(dir.people).toEqual([{ userId: 'u2', userName: 'ana@x' }]);
  expect(dir.me).toEqual({ userId: 'u1', userName: 'me@x' });
  expect(dir.userNames.get('u1')).toBe('me@x');
  expect(dir.userNames.get('u2')).toBe('ana@x');
  expect(dir.assetNames.get('a1')).toBe('Falcon-7');
  expect(dir.runNames.get('r1')).toBe('Hot fire 12');
  expect(dir.assetsError).toBeUndefined();
  expect(dir.tagsError).toMatchObject({ code: 'PERMISSION_DENIED', message: 'no tags for you' });
  expect(dir.peopleError).toBeUndefined();
  dir.rememberTags(['zeta', 'alpha']);
  expect(dir.tagNames).toEqual(['alpha', 'zeta']);
});
