import { afterEach, describe, expect, test, vi } from 'vitest';
import { ApiError, Code } from '../../../../src-shared/errors';
import { fakeClient } from '../testing/fakeClient';
import { syncStatus } from '../testing/syncFactories';
import type { BridgeEvent, OutpostBridge } from './bridge';
import { electronSyncWatcher } from './index.electron';
import { pollingSyncWatcher } from './index.web';
import type { SyncUpdate } from './syncUpdates';

afterEach(() => vi.useRealTimers());

describe('sync status on the desktop', () => {
  test('follows the scheduler events; other events are ignored; unsubscribing stops them', () => {
    const listeners = new Set<(e: BridgeEvent) => void>();
    const bridge: OutpostBridge = {
      invoke: async () => ({ ok: true, data: {} }),
      onEvent: (l) => (listeners.add(l), () => void listeners.delete(l)),
    };
    const updates: SyncUpdate[] = [];
    const stop = electronSyncWatcher(bridge)((u) => updates.push(u));
    const emit = (e: BridgeEvent) => listeners.forEach((l) => l(e));
    const status = syncStatus({ state: 'syncing' });
    const progress = { phase: 'pull', pulled: { annotations: 10 }, pushed: 0, failed: 0, pendingAtStart: 1 };
    emit({ type: 'sync-status', status, running: true, nextRunAt: null });
    emit({ type: 'sync-progress', progress });
    emit({ type: 'something-else' });
    expect(updates).toEqual([
      { kind: 'status', status, running: true },
      { kind: 'progress', progress },
    ]);
    stop();
    expect(listeners.size).toBe(0);
  });
});

describe('sync status in the browser', () => {
  test('polls GetSyncStatus now and after each answer; errors are reported; stops when unsubscribed', async () => {
    vi.useFakeTimers();
    let n = 0;
    const fake = fakeClient().on('GetSyncStatus', () => {
      n++;
      if (n === 2) throw new ApiError(Code.UNAVAILABLE, 'down');
      return syncStatus({ pendingCount: n });
    });
    const updates: SyncUpdate[] = [];
    const stop = pollingSyncWatcher(fake.client, 1000)((u) => updates.push(u));
    await vi.advanceTimersByTimeAsync(0);
    expect(updates).toEqual([{ kind: 'status', status: syncStatus({ pendingCount: 1 }), running: false }]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(updates[1]).toMatchObject({ kind: 'error' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(updates[2]).toMatchObject({ kind: 'status', status: { pendingCount: 3 } });
    stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(fake.callsTo('GetSyncStatus')).toHaveLength(3);
  });
});
