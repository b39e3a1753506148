// The background scheduler: syncs on start and soon after local edits, backs
// off while the remote is unreachable, stops on authentication errors.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openEngine } from '../../src-main/engine';
import { syncReplica } from '../../src-main/sync/assembly/syncReplica';
import type { ReplicaEngine } from '../../src-main/sync/replica';
import { invoke } from '../../src-main/services/invoke';
import { localCaller } from '../../src-main/sync/identity';
import { SyncScheduler, type SchedulerEvent } from '../../src-main/sync/scheduler';
import { createMemorySecretStore } from '../../src-main/sync/secretStore';
import { startFaultProxy, type FaultProxy } from './faultProxy';
import { annotationRequest, startRemote } from './helpers';

let remote: Awaited<ReturnType<typeof startRemote>>;
let proxy: FaultProxy;
let dir: string;
let engine: ReplicaEngine;
let scheduler: SyncScheduler | undefined;

const until = async (what: string, ok: () => boolean, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

beforeEach(async () => {
  remote = await startRemote();
  proxy = await startFaultProxy(remote.url, { strict: true });
  dir = mkdtempSync(join(tmpdir(), 'outpost-sched-'));
  engine = openEngine(dir, { replica: syncReplica({ replica: true, secrets: createMemorySecretStore() }) });
});
afterEach(async () => {
  await scheduler?.stop();
  scheduler = undefined;
  engine.close();
  rmSync(dir, { recursive: true, force: true });
  await proxy.close();
  await remote.close();
});

const fast = { retry: { baseDelayMs: 2, maxDelayMs: 10, maxAttempts: 2 } };

describe('SyncScheduler', () => {
  test('syncs at start and soon after a local edit, publishing status', async () => {
    const events: SchedulerEvent[] = [];
    scheduler = new SyncScheduler({
      engine,
      publishEvent: (e) => events.push(e),
      intervalMs: 60_000,
      afterEditMs: 50,
      run: fast,
    });
    await scheduler.setProfile({ baseUrl: proxy.url, apiKey: remote.token });
    scheduler.start();
    await until('the first sync', () => !!localCaller(engine.db) && scheduler!.status().lastSuccessDate !== null);
    const ctx = { engine, db: engine.db, caller: { ...localCaller(engine.db)!, owner: true } };
    await invoke(ctx, 'CreateAnnotation', annotationRequest('from the background'));
    await until(
      'the edit to reach the remote',
      () => !!remote.engine.db.get("SELECT 1 FROM annotations WHERE name = 'from the background'"),
    );
    await until('nothing pending', () => scheduler!.status().pendingCount === 0);
    expect(events.some((e) => e.type === 'sync-status' && e.running)).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'sync-status' });
  });

  test('backs off while the remote is unreachable and recovers when it returns', async () => {
    proxy.partition();
    scheduler = new SyncScheduler({
      engine,
      intervalMs: 60_000,
      run: fast,
      backoff: { maxAttempts: 1, baseDelayMs: 20, maxDelayMs: 200, jitter: 0.5 },
    });
    await scheduler.setProfile({ baseUrl: proxy.url, apiKey: remote.token });
    scheduler.start();
    await until('failed runs', () => proxy.log.filter((e) => e.fault === 'partition').length >= 3);
    // An unreachable remote is offline, not an error: the edits wait here.
    await until('the offline state', () => scheduler!.status().state === 'offline');
    expect(scheduler.status().lastError).toMatch(/fetch failed|socket|ECONNRESET|hang up|closed/i);
    proxy.heal();
    await until('recovery', () => scheduler!.status().state === 'idle' && scheduler!.status().lastSuccessDate !== null);
  });

  test('back online, queued edits go within 5 s of the remote answering again, however long the backoff (a probe resets it)', async () => {
    scheduler = new SyncScheduler({
      engine,
      intervalMs: 600_000,
      afterEditMs: 50,
      probeMs: 200,
      run: fast,
      // Alone, this backoff would wait a minute after the first failure.
      backoff: { maxAttempts: 1, baseDelayMs: 60_000, maxDelayMs: 60_000, jitter: 0 },
    });
    await scheduler.setProfile({ baseUrl: proxy.url, apiKey: remote.token });
    scheduler.start();
    await until('the first sync', () => !!localCaller(engine.db) && scheduler!.status().lastSuccessDate !== null);
    proxy.partition();
    const ctx = { engine, db: engine.db, caller: { ...localCaller(engine.db)!, owner: true } };
    await invoke(ctx, 'CreateAnnotation', annotationRequest('queued while offline'));
    await until('the offline state', () => scheduler!.status().state === 'offline');
    expect(scheduler.status().pendingCount).toBe(1);
    proxy.heal();
    await until(
      'the queued edit to reach the remote',
      () => !!remote.engine.db.get("SELECT 1 FROM annotations WHERE name = 'queued while offline'"),
      5_000,
    );
  });

  test('stops on an authentication error until the key is replaced', async () => {
    scheduler = new SyncScheduler({
      engine,
      intervalMs: 20,
      run: fast,
      backoff: { maxAttempts: 1, baseDelayMs: 5, maxDelayMs: 10, jitter: 0 },
    });
    await scheduler.setProfile({ baseUrl: proxy.url, apiKey: 'op_wrong' });
    scheduler.start();
    await until('the auth stop', () => scheduler!.status().state === 'auth_error');
    const requests = proxy.log.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(proxy.log.length).toBe(requests); // no more attempts
    await scheduler.setProfile({ baseUrl: proxy.url, apiKey: remote.token });
    await until(
      'a successful sync with the new key',
      () => scheduler!.status().state === 'idle' && scheduler!.status().lastSuccessDate !== null,
    );
  });

  test('a key replaced while a run with the old one is out is tried as soon as that run ends', async () => {
    scheduler = new SyncScheduler({
      engine,
      intervalMs: 60_000,
      run: fast,
      backoff: { maxAttempts: 1, baseDelayMs: 60_000, maxDelayMs: 60_000, jitter: 0 },
    });
    // The old key's GetMe is held back, so its 401 arrives after the new key is saved.
    proxy.once({ kind: 'delay', ms: 400 }, (r) => r.path.startsWith('/api/v2/me'));
    await scheduler.setProfile({ baseUrl: proxy.url, apiKey: 'op_old_key' });
    scheduler.start();
    await until('the run with the old key', () => scheduler!.status().state === 'syncing');
    await scheduler.setProfile({ baseUrl: proxy.url, apiKey: remote.token });
    await until(
      'a successful sync with the new key',
      () => scheduler!.status().state === 'idle' && scheduler!.status().lastSuccessDate !== null,
    );
    expect(proxy.log.filter((e) => e.path.startsWith('/api/v2/me')).map((e) => e.status)).toEqual([401, 200]);
  });
});
