import { expect, test } from 'vitest';
import { ApiError, Code } from '../../../../src-shared/errors';
import { fakeClient } from '../testing/fakeClient';
import { syncStatus } from '../testing/syncFactories';
import type { SyncUpdate } from '../transport/syncUpdates';
import { SyncMonitor } from './syncMonitor.svelte';

test('reads the status at start, then follows pushed updates; progress lives while a run does', async () => {
  const fake = fakeClient().on('GetSyncStatus', () => syncStatus({ pendingCount: 2 }));
  let push: (u: SyncUpdate) => void = () => {};
  let unsubscribed = false;
  const monitor = new SyncMonitor(fake.client, (listener) => {
    push = listener;
    return () => void (unsubscribed = true);
  });
  const stop = monitor.start();
  await monitor.refresh();
  expect(monitor.status?.pendingCount).toBe(2);
  expect(monitor.badge).toMatchObject({ text: '2' });

  push({ kind: 'progress', progress: { phase: 'push', pulled: { annotations: 4 }, pushed: 1, failed: 0, pendingAtStart: 2 } });
  expect(monitor.running).toBe(true);
  expect(monitor.badge).toMatchObject({ text: 'Syncing' });
  expect(monitor.finishedRuns).toBe(0);

  push({ kind: 'status', status: syncStatus({ lastSyncFinishedDate: '2026-09-01T11:00:00Z' }), running: false });
  expect(monitor.running).toBe(false);
  expect(monitor.progress).toBeUndefined();
  expect(monitor.finishedRuns).toBe(1);
  expect(monitor.badge).toMatchObject({ text: '✓' });
  stop();
  expect(unsubscribed).toBe(true);
});

test('an unreadable status is shown, and cleared by the next good one', async () => {
  let fail = true;
  const fake = fakeClient().on('GetSyncStatus', () => {
    if (fail) throw new ApiError(Code.UNAVAILABLE, 'engine restarting');
    return syncStatus();
  });
  const monitor = new SyncMonitor(fake.client, () => () => {});
  await monitor.refresh();
  expect(monitor.error).toMatchObject({ code: 'UNAVAILABLE', message: 'engine restarting' });
  fail = false;
  await monitor.refresh();
  expect(monitor.error).toBeUndefined();
  expect(monitor.status?.state).toBe('idle');
});
