// Saved searches replicate like annotations: offline create/update/delete
// reach the remote once, remote changes and deletions arrive, fields merge.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { startFaultProxy, type FaultProxy } from './faultProxy';
import { createReplica, loseThenLinkDown, ONE_TRY, type Replica, startRemote } from './helpers';

let remote: Awaited<ReturnType<typeof startRemote>>;
let proxy: FaultProxy;
let a: Replica;
let b: Replica;

beforeEach(async () => {
  remote = await startRemote(['second@outpost.local']);
  proxy = await startFaultProxy(remote.url, { strict: true });
  a = await createReplica('a', proxy.url, remote.token);
  b = await createReplica('b', remote.url, remote.tokens['second@outpost.local']);
  await a.sync();
  await b.sync();
});
afterEach(async () => {
  a.close();
  b.close();
  await proxy.close();
  await remote.close();
});

const search = (name: string, assets: string[] = []) => ({
  name,
  properties: { overviewMode: 'OVERVIEW_MODE_ANNOTATIONS', assetItems: assets.map((x) => ({ id: x, name: x })) },
});
const remoteSearches = () =>
  remote.engine.db.all<{ id: string; name: string; properties: string }>('SELECT id, name, properties FROM saved_searches ORDER BY name');
const localSearches = (r: Replica) =>
  r.engine.db.all<{ id: string; name: string; properties: string }>('SELECT id, name, properties FROM saved_searches ORDER BY name');

describe('sync: saved searches', () => {
  test('offline create, update and delete reach the remote once; a lost create response makes no duplicate', async () => {
    const keep = (await a.call('CreateSavedSearch', search('keep', ['x']))).savedSearch.savedSearchId;
    const drop = (await a.call('CreateSavedSearch', search('drop'))).savedSearch.savedSearchId;
    await a.call('UpdateSavedSearch', { savedSearch: { savedSearchId: keep, name: 'kept' }, updateMask: 'name' });
    await a.call('DeleteSavedSearch', { savedSearchId: drop });
    proxy.once({ kind: 'lose' }, (r) => r.method === 'POST' && r.path === '/api/v1/saved_searches');
    const s = await a.sync();
    expect(s.ok).toBe(true);
    expect(remoteSearches().map((x) => x.name)).toEqual(['kept']);
    expect(localSearches(a)).toEqual(remoteSearches());
    await b.sync();
    expect(localSearches(b)).toEqual(remoteSearches());
  });

  test('remote deletions and edits arrive; different fields edited on two replicas both stay', async () => {
    const { savedSearch } = await remote.client.CreateSavedSearch(search('shared', ['one']));
    const other = (await remote.client.CreateSavedSearch(search('doomed'))).savedSearch;
    await a.sync();
    await b.sync();
    await remote.client.DeleteSavedSearch({ savedSearchId: other.savedSearchId });
    await a.call('UpdateSavedSearch', {
      savedSearch: { savedSearchId: savedSearch.savedSearchId, name: 'renamed by a' },
      updateMask: 'name',
    });
    await b.call('UpdateSavedSearch', {
      savedSearch: { savedSearchId: savedSearch.savedSearchId, properties: { assetItems: [{ id: 'two', name: 'two' }] } },
      updateMask: 'properties.asset_items',
    });
    await a.sync();
    await b.sync();
    await a.sync();
    const [final] = remoteSearches();
    expect(remoteSearches()).toHaveLength(1);
    expect(final.name).toBe('renamed by a');
    expect(JSON.parse(final.properties).assetItems).toEqual([{ id: 'two', name: 'two' }]);
    expect(localSearches(a)).toEqual(remoteSearches());
    expect(localSearches(b)).toEqual(remoteSearches());
    expect((await b.call('ListSyncConflicts', {})).conflicts).toEqual([]);
  });

  test('a create whose response was lost, left in flight when its retries ran out, is adopted by the pull that follows: never sent again, the rename made offline lands on it', async () => {
    const isCreate = (r: { method: string; path: string }) => r.method === 'POST' && r.path === '/api/v1/saved_searches';
    const { savedSearch } = await a.call('CreateSavedSearch', search('pumps', ['p1']));
    await a.call('UpdateSavedSearch', {
      savedSearch: { savedSearchId: savedSearch.savedSearchId, name: 'pumps, all' },
      updateMask: 'name',
    });
    proxy.once({ kind: 'lose' }, isCreate);
    // One try: the push ends with the search created remotely and its entry in flight (as after a crash); the pull
    // after the push lists that copy. It is ours, not a colleague's new search.
    await a.sync(ONE_TRY);
    expect(
      a.engine.db.get("SELECT state, json_extract(result, '$.adoptedBy') AS by FROM sync_outbox WHERE operation = 'CreateSavedSearch'"),
    ).toEqual({ state: 'done', by: 'pull' });
    expect(localSearches(a).map((x) => x.name)).toEqual(['pumps, all']); // the rename waits, on the adopted record
    const next = await a.sync();
    expect(next.ok).toBe(true);
    expect(next.pending).toBe(0);
    expect(proxy.forwarded(isCreate)).toBe(1);
    expect(remoteSearches().map((x) => x.name)).toEqual(['pumps, all']);
    expect(localSearches(a)).toEqual(remoteSearches());
  });

  test('a create whose response was lost and whose copy a colleague renamed before the next run: found as the only search we made while it was on its way, not sent twice', async () => {
    const isCreate = (r: { method: string; path: string }) => r.method === 'POST' && r.path === '/api/v1/saved_searches';
    await a.call('CreateSavedSearch', search('pumps', ['p1']));
    // The response is lost and the link fails right after: the run ends with the create in flight and nothing pulled.
    loseThenLinkDown(proxy, isCreate);
    await a.sync(ONE_TRY);
    expect(a.engine.db.all("SELECT operation, state FROM sync_outbox WHERE state != 'done'")).toEqual([
      { operation: 'CreateSavedSearch', state: 'inflight' },
    ]);
    const [copy] = remoteSearches();
    await b.sync();
    await b.call('UpdateSavedSearch', { savedSearch: { savedSearchId: copy.id, name: 'pumps (shared)' }, updateMask: 'name' });
    await b.sync();
    proxy.refuse(undefined);

    const next = await a.sync();
    expect(next.ok).toBe(true);
    expect(next.pending).toBe(0);
    expect(proxy.forwarded(isCreate)).toBe(1);
    expect(remoteSearches().map((x) => x.name)).toEqual(['pumps (shared)']);
    expect(localSearches(a)).toEqual(remoteSearches());
  });

  test('an edit of a search deleted on the remote meanwhile: the copy here stays, with a conflict the user sees, until the user dismisses it', async () => {
    const { savedSearch } = await remote.client.CreateSavedSearch(search('shared', ['one']));
    const id = savedSearch.savedSearchId;
    await a.sync();
    await a.call('UpdateSavedSearch', { savedSearch: { savedSearchId: id, name: 'mine now' }, updateMask: 'name' });
    await remote.client.DeleteSavedSearch({ savedSearchId: id });
    const s = await a.sync();
    expect(s.ok).toBe(true);
    expect(s.progress.failed).toBe(1);
    const [entry] = (await a.call('ListSyncOutbox', { state: 'failed' })).entries;
    expect(entry).toMatchObject({
      operation: 'UpdateSavedSearch',
      lastError: expect.stringMatching(/^not found on the remote \(kept locally; see conflicts\)/),
    });
    const { conflicts } = await a.call('ListSyncConflicts', {});
    expect(conflicts).toMatchObject([
      { kind: 'remote_missing', resource: 'saved_search', recordId: id, recordName: 'mine now', winner: 'local', undoable: false },
    ]);
    expect(conflicts[0].localValue).toMatchObject({ name: 'mine now', 'properties.asset_items': [{ id: 'one', name: 'one' }] });
    // Kept through later syncs (the remote's full list no longer has it) while the conflict is open ...
    await a.sync();
    expect(localSearches(a).map((x) => x.name)).toEqual(['mine now']);
    // ... and gone, like on the remote, once the user has dismissed it.
    await a.call('DismissSyncConflict', { conflictId: conflicts[0].conflictId });
    await a.sync();
    expect(localSearches(a)).toEqual([]);
    expect(remoteSearches()).toEqual([]);
  });
});

describe('sync: saved searches ask the platform only what its API allows', () => {
  test('a property edit is pushed as `properties`, the whole current object (kinds of template items kept), never a sub-path mask', async () => {
    const templates = [
      { id: 't1', name: 'Tmpl', kind: 'REPORT_TEMPLATE' },
      { id: 't2', name: 'Other', kind: '' },
    ];
    await a.call('CreateSavedSearch', {
      name: 'pumps',
      properties: {
        overviewMode: 'OVERVIEW_MODE_ANNOTATIONS',
        assetItems: [{ id: 'x', name: 'x' }],
        searchTerm: 'old',
        templateItems: templates,
      },
    });
    await a.sync();
    const id = (await a.call('ListSavedSearches', {})).savedSearches.find((x: { name: string }) => x.name === 'pumps')!.savedSearchId;
    await a.call('UpdateSavedSearch', {
      savedSearch: { savedSearchId: id, properties: { searchTerm: 'new' } },
      updateMask: 'properties.search_term',
    });
    const from = proxy.log.length;
    expect((await a.sync()).ok).toBe(true);
    const patches = proxy.log.slice(from).filter((r) => r.method === 'PATCH' && r.path.startsWith('/api/v1/saved_searches'));
    expect(patches).toHaveLength(1);
    const sent = JSON.parse(patches[0].body);
    expect(sent.updateMask).toBe('properties');
    expect(sent.savedSearch.properties).toMatchObject({
      overviewMode: 'OVERVIEW_MODE_ANNOTATIONS',
      searchTerm: 'new',
      assetItems: [{ id: 'x', name: 'x' }],
      templateItems: templates,
    });
    const [onRemote] = remoteSearches().filter((x) => x.name === 'pumps');
    expect(JSON.parse(onRemote.properties)).toMatchObject({
      searchTerm: 'new',
      assetItems: [{ id: 'x', name: 'x' }],
      templateItems: templates,
    });
    await b.sync();
    const atB = (await b.call('GetSavedSearch', { savedSearchId: id })).savedSearch;
    expect(atB.properties.templateItems).toEqual(templates);
  });
});
