import { describe, expect, test } from 'vitest';
import { fakeClient } from '../testing/fakeClient';
import { listAssetNames, listPeople, listRunNames, listTagNames, whoAmI } from './directoryService';

const user = (id: string, name: string) => ({ userId: id, userName: name, organizations: [] });

describe('directoryService', () => {
  test('listPeople follows page tokens', async () => {
    const fake = fakeClient().on('ListActiveUsers', (req) =>
      req.pageToken ? { users: [user('u2', 'b@x')], nextPageToken: '' } : { users: [user('u1', 'a@x')], nextPageToken: 't' },
    );
    expect(await listPeople(fake.client)).toEqual([
      { userId: 'u1', userName: 'a@x' },
      { userId: 'u2', userName: 'b@x' },
    ]);
  });

  test('whoAmI', async () => {
    const fake = fakeClient().on('GetMe', () => ({ userId: 'u1', userEmail: 'engineer@outpost.local', organizations: [], isAdmin: false }));
    expect(await whoAmI(fake.client)).toEqual({ userId: 'u1', userName: 'engineer@outpost.local' });
  });

  test('listTagNames sorts and de-duplicates', async () => {
    const tag = (name: string) => ({ tagId: name, name, createdByUserId: '', createdDate: '2026-01-01T00:00:00Z' });
    const fake = fakeClient().on('ListTags', () => ({ tags: [tag('thermal'), tag('anomaly'), tag('thermal')], nextPageToken: '' }));
    expect(await listTagNames(fake.client)).toEqual(['anomaly', 'thermal']);
  });

  test('listAssetNames maps ids to names', async () => {
    const fake = fakeClient().on('ListAssets', () => ({ assets: [{ assetId: 'a1', name: 'Falcon-7' }], nextPageToken: '' }));
    expect([...(await listAssetNames(fake.client))]).toEqual([['a1', 'Falcon-7']]);
  });
});

test('listRunNames maps ids to names', async () => {
  const fake = fakeClient().on('ListRuns', () => ({ runs: [{ runId: 'r1', name: 'Hot fire 12' }], nextPageToken: '' }));
  expect([...(await listRunNames(fake.client))]).toEqual([['r1', 'Hot fire 12']]);
});
