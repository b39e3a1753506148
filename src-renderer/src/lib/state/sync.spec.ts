import { expect, test } from 'vitest';
import { ApiError, Code } from '../../../../src-shared/errors';
import { fakeClient } from '../testing/fakeClient';
import { outboxEntry, syncConflict, syncStatus } from '../testing/syncFactories';
import { SyncMonitor } from './syncMonitor.svelte';
import { SyncWorkspace } from './sync.svelte';

function setup() {
  let remote: { baseUrl: string; hasApiKey: boolean } | null = null;
  let failed = ['7', '8'];
  const fake = fakeClient()
    .on('GetSyncRemote', () => ({ remote }))
    .on('ConfigureSyncRemote', (req) => {
      if (!String(req.baseUrl).startsWith('http')) throw ApiError.invalid('base_url', 'must use http or https, not ftp');
      remote = { baseUrl: String(req.baseUrl).replace(/\/$/, ''), hasApiKey: true };
      return { remote };
    })
    .on('DeleteSyncRemote', () => ((remote = null), {}))
    .on('GetSyncStatus', () => syncStatus({ remoteUrl: remote?.baseUrl ?? '' }))
    .on('SyncNow', () => syncStatus({ state: 'syncing', phase: 'connecting' }))
    // Entry 8 was refused because it depends on 7: retrying 7 queues both again.
    .on('ListSyncOutbox', () => ({ entries: failed.map((seq) => outboxEntry({ seq })), nextPageToken: '' }))
    .on('RetrySyncEntry', (req) => {
      failed = failed.filter((seq) => seq !== req.seq && !(req.seq === '7' && seq === '8'));
      return { entry: outboxEntry({ seq: String(req.seq), state: 'pending' }) };
    })
    .on('DismissSyncEntry', (req) => {
      // Discarding create 7 sets its dependent 8 aside with it.
      failed = failed.filter((seq) => seq !== req.seq && !(req.discardRecord && req.seq === '7' && seq === '8'));
      return { entry: outboxEntry({ seq: String(req.seq), state: 'dismissed' }) };
    })
    .on('ListSyncConflicts', () => ({ conflicts: [syncConflict(), syncConflict({ conflictId: 'c2' })], nextPageToken: '' }))
    .on('UndoSyncConflict', (req) => {
      if (req.conflictId === 'c2') throw new ApiError(Code.FAILED_PRECONDITION, 'conflict c2 is already dismissed');
      return { conflict: syncConflict({ state: 'undone' }) };
    })
    .on('DismissSyncConflict', () => ({ conflict: syncConflict({ conflictId: 'c2', state: 'dismissed' }) }));
  const monitor = new SyncMonitor(fake.client, () => () => {});
  return { fake, monitor, ws: new SyncWorkspace(fake.client, monitor) };
}

test('configure the remote: a rejected URL names the field; the key is sent once and never kept', async () => {
  const { fake, monitor, ws } = setup();
  await ws.load();
  expect(ws.remote).toBeNull();
  expect(ws.failed.map((e) => e.seq)).toEqual(['7', '8']);
  expect(ws.conflicts.map((c) => c.conflictId)).toEqual(['c1', 'c2']);

  ws.baseUrl = 'ftp://remote.example';
  ws.apiKey = 'op_key';
  expect(await ws.saveRemote()).toBe(false);
  expect(ws.fieldError('base_url')).toBe('must use http or https, not ftp');
  expect(ws.apiKey).toBe('op_key');

  ws.baseUrl = 'https://remote.example/';
  expect(await ws.saveRemote()).toBe(true);
  expect(ws.formError).toBeUndefined();
  expect(ws.remote).toEqual({ baseUrl: 'https://remote.example', hasApiKey: true });
  expect(ws.baseUrl).toBe('https://remote.example');
  expect(ws.apiKey).toBe('');
  expect(monitor.status?.remoteUrl).toBe('https://remote.example');
  expect(fake.callsTo('ConfigureSyncRemote').at(-1)).toEqual({ baseUrl: 'https://remote.example/', apiKey: 'op_key' });

  expect(await ws.removeRemote()).toBe(true);
  expect(ws.remote).toBeNull();
  expect(monitor.status?.remoteUrl).toBe('');
});

test('sync now shows the run at once; retry, undo and dismiss update the lists; a refusal is shown', async () => {
  const { monitor, ws } = setup();
  await ws.load();
  await ws.syncNow();
  expect(monitor.running).toBe(true);
  expect(monitor.status?.phase).toBe('connecting');

  await ws.retry('7');
  expect(ws.failed).toEqual([]); // 8 went back with 7
  await ws.undo('c1');
  expect(ws.conflicts.map((c) => c.conflictId)).toEqual(['c2']);
  await ws.undo('c2');
  expect(ws.actionError).toMatchObject({ code: 'FAILED_PRECONDITION', message: 'conflict c2 is already dismissed' });
  expect(ws.conflicts.map((c) => c.conflictId)).toEqual(['c2']);
  await ws.dismiss('c2');
  expect(ws.actionError).toBeUndefined();
  expect(ws.conflicts).toEqual([]);
  expect(ws.pending).toBeUndefined();
});

test('dismissing a refused edit removes that one row and refreshes the status', async () => {
  const { fake, ws } = setup();
  await ws.load();
  const statusReads = fake.callsTo('GetSyncStatus').length;
  await ws.dismissEntry('8');
  expect(ws.failed.map((e) => e.seq)).toEqual(['7']);
  expect(fake.callsTo('DismissSyncEntry')).toEqual([{ seq: '8' }]);
  expect(fake.callsTo('GetSyncStatus').length).toBe(statusReads + 1);
  expect(ws.pending).toBeUndefined();
});

test('discarding a refused create asks for the record to go, and reads the list again (its dependents went with it)', async () => {
  const { fake, ws } = setup();
  await ws.load();
  await ws.discardEntry('7');
  expect(fake.callsTo('DismissSyncEntry')).toEqual([{ seq: '7', discardRecord: true }]);
  expect(ws.failed).toEqual([]);
  expect(fake.callsTo('ListSyncOutbox').length).toBe(2);
  expect(ws.pending).toBeUndefined();
});
