import { expect, test } from 'vitest';
import { ApiError, Code } from '../../../../src-shared/errors';
import { sentenceOf } from '../errorSentences';
import { fakeClient } from '../testing/fakeClient';
import { outboxEntry, syncConflict, syncStatus } from '../testing/syncFactories';
import { SyncMonitor } from './syncMonitor.svelte';
import { SyncWorkspace } from './sync.svelte';
import type { SyncRemote } from '../services/syncService';

/** The engine's link check: a bad URL names the field, `op_wrong` is refused; `staysLocal` records made here stay. */
function linkCheck(req: Record<string, unknown>, remote: { baseUrl: string } | null, staysLocal = 0) {
  if (!String(req.baseUrl).startsWith('http')) throw ApiError.invalid('base_url', 'must use http or https, not ftp');
  if (req.apiKey === 'op_wrong')
    throw new ApiError(Code.FAILED_PRECONDITION, `not linked: ${String(req.baseUrl)} refused the API key (missing or invalid API key)`, [
      { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'REMOTE_KEY_REFUSED', domain: 'outpost.sync.link', metadata: {} },
    ]);
  return {
    baseUrl: String(req.baseUrl).replace(/\/$/, ''),
    userId: 'u-1',
    userEmail: 'ana@remote.example',
    organizations: [{ organizationId: 'org-r', name: 'Remote Org' }],
    linked: remote !== null,
    staysLocal: {
      identityKnown: false,
      localOrganizations: [{ organizationId: 'org-l', name: 'Field Team' }],
      remoteOrganizations: [{ organizationId: 'org-r', name: 'Remote Org' }],
      total: staysLocal,
      adoptable: staysLocal,
      kinds: staysLocal ? [{ resource: 'annotation', label: 'annotations', count: staysLocal, adoptable: true, reason: '' }] : [],
    },
  };
}

function setup(staysLocal = 0) {
  let remote: SyncRemote | null = null;
  let failed = ['7', '8'];
  const fake = fakeClient()
    .on('GetSyncRemote', () => ({ remote }))
    .on('TestSyncRemote', (req) => linkCheck(req, remote, staysLocal))
    .on('AdoptPreLinkRecords', () => ({
      adopted: [{ resource: 'annotation', label: 'annotations', count: staysLocal }],
      leftBehind: [],
      remaining: { ...linkCheck({ baseUrl: 'http://x' }, remote).staysLocal, identityKnown: true },
    }))
    .on('ConfigureSyncRemote', (req) => {
      if (!String(req.baseUrl).startsWith('http')) throw ApiError.invalid('base_url', 'must use http or https, not ftp');
      const adopt = req.adoptPreLinkRecords as { organizationId?: string } | undefined;
      remote = {
        baseUrl: String(req.baseUrl).replace(/\/$/, ''),
        hasApiKey: true,
        adoptPreLinkRecords: adopt ? { organizationId: adopt.organizationId ?? 'org-r' } : null,
      };
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
  /** What the engine's first run does to a waiting choice: adopts, and forgets it. */
  const adoptionDone = () => {
    if (remote) remote = { ...remote, adoptPreLinkRecords: null };
  };
  return { adoptionDone, fake, monitor, ws: new SyncWorkspace(fake.client, monitor) };
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
  expect(ws.remote).toEqual({ baseUrl: 'https://remote.example', hasApiKey: true, adoptPreLinkRecords: null });
  expect(ws.baseUrl).toBe('https://remote.example');
  expect(ws.apiKey).toBe('');
  expect(monitor.status?.remoteUrl).toBe('https://remote.example');
  expect(fake.callsTo('ConfigureSyncRemote').at(-1)).toEqual({ baseUrl: 'https://remote.example/', apiKey: 'op_key' });

  expect(ws.notice).toBe('Saved. A sync with https://remote.example has started. You work there as ana@remote.example (Remote Org).');

  expect(await ws.removeRemote()).toBe(true);
  expect(ws.remote).toBeNull();
  expect(monitor.status?.remoteUrl).toBe('');
});

test('a link the check refuses saves nothing and says which step failed, in words', async () => {
  const { fake, ws } = setup();
  await ws.load();
  ws.baseUrl = 'https://remote.example';
  ws.apiKey = 'op_wrong';
  expect(await ws.saveRemote()).toBe(false);
  expect(ws.formError).toMatchObject({ code: 'FAILED_PRECONDITION', linkCheck: 'REMOTE_KEY_REFUSED' });
  expect(sentenceOf(ws.formError!)).toBe(
    'Not linked: the server answered, but refused the API key. Check the key (it may have been revoked).',
  );
  expect(fake.callsTo('ConfigureSyncRemote')).toEqual([]);
  expect(ws.notice).toBe('');
  expect(ws.remote).toBeNull();
});

test('a first link that leaves records here asks first: keep them, or have the engine send them with the first sync', async () => {
  const { adoptionDone, fake, ws } = setup(3);
  await ws.load();
  ws.baseUrl = 'https://remote.example';
  ws.apiKey = 'op_key';
  expect(await ws.saveRemote()).toBe(false);
  expect(ws.linkCheck?.staysLocal.total).toBe(3);
  expect(ws.adoptTo).toBe('org-r');
  expect(fake.callsTo('ConfigureSyncRemote')).toEqual([]);
  ws.cancelLink();
  expect(ws.linkCheck).toBeUndefined();

  expect(await ws.saveRemote()).toBe(false);
  expect(await ws.saveRemote('adopt')).toBe(true);
  expect(fake.callsTo('TestSyncRemote')).toHaveLength(2); // the choice reuses the check it answers
  // The choice travels with the link: the engine keeps it and its first sync adopts them, not this window.
  expect(fake.callsTo('ConfigureSyncRemote')).toEqual([
    { baseUrl: 'https://remote.example', apiKey: 'op_key', adoptPreLinkRecords: { organizationId: 'org-r' } },
  ]);
  expect(ws.remote?.adoptPreLinkRecords).toEqual({ organizationId: 'org-r' });
  expect(ws.notice).toMatch(/The 3 records made here go to the remote with the first sync\.$/);
  expect(fake.callsTo('AdoptPreLinkRecords')).toEqual([]);

  // The engine's first run sent them: a finished run reads the remote again while the choice waits, then no more.
  adoptionDone();
  await ws.refreshLists();
  expect(ws.remote?.adoptPreLinkRecords).toBeNull();
  const reads = fake.callsTo('GetSyncRemote').length;
  await ws.refreshLists();
  expect(fake.callsTo('GetSyncRemote')).toHaveLength(reads);
});

test('keeping the records here links without a choice to send them', async () => {
  const { fake, ws } = setup(2);
  await ws.load();
  ws.baseUrl = 'https://remote.example';
  ws.apiKey = 'op_key';
  await ws.saveRemote();
  expect(await ws.saveRemote('keep')).toBe(true);
  expect(fake.callsTo('ConfigureSyncRemote')).toEqual([{ baseUrl: 'https://remote.example', apiKey: 'op_key' }]);
  expect(ws.remote?.adoptPreLinkRecords).toBeNull();
  expect(ws.notice).toMatch(/The 2 records made here stay on this machine; they can still be sent from this page\.$/);
  expect(fake.callsTo('AdoptPreLinkRecords')).toEqual([]);
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
