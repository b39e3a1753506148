// A synced replica works as its remote user whoever calls locally: the
// desktop's IPC bridge (which hands invoke() the local default user) and
// local API keys under `outpost serve` both act as the adopted identity.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { DEFAULT_ORGANIZATION_NAME, DEFAULT_USER_NAME, ensureMember, loadCaller } from '../../src-main/auth/identity';
import { readBridgeReply } from '../../src-shared/bridge';
import { handleInvoke } from '../../src-main/electron/ipcBridge';
import { openEngine } from '../../src-main/engine';
import { dispatch } from '../../src-main/host/dispatch';
import { syncReplica } from '../../src-main/sync/assembly/syncReplica';
import type { ReplicaEngine } from '../../src-main/sync/replica';
import { runSync } from '../../src-main/sync/runSync';
import { annotationRequest, startRemote } from './helpers';

let remote: Awaited<ReturnType<typeof startRemote>>;
let dir: string;
let engine: ReplicaEngine;

beforeEach(async () => {
  remote = await startRemote();
  dir = mkdtempSync(join(tmpdir(), 'outpost-acting-'));
  engine = openEngine(dir, { replica: syncReplica() });
});
afterEach(async () => {
  engine.close();
  rmSync(dir, { recursive: true, force: true });
  await remote.close();
});

test('the IPC bridge acts as the local user before the first sync and as the remote user after it', async () => {
  // What the desktop app does at start: its own local user.
  const { userId } = ensureMember(engine.db, DEFAULT_USER_NAME, DEFAULT_ORGANIZATION_NAME);
  // The desktop's user owns the data directory (src-main/electron/main.ts).
  const desktopUser = { ...loadCaller(engine.db, userId)!, owner: true };
  const host = { context: () => ({ engine, db: engine.db, caller: desktopUser }) };
  const options = { call: (operation: string, request: unknown) => dispatch(host, operation, request), isTrustedSender: () => true };
  const call = async (operation: string, request: Record<string, unknown> = {}) => {
    const result = readBridgeReply(await handleInvoke(options, { senderFrame: { url: 'app://outpost/index.html' } }, operation, request));
    if (!result.ok) throw new Error(result.error.message);
    return result.data as any;
  };
  expect((await call('GetMe')).userId).toBe(desktopUser.userId);

  await engine.replica.remoteProfile.save(remote.url, remote.token);
  const summary = await runSync({ db: engine.db, catalog: engine.replica.catalog, remote: { baseUrl: remote.url, apiKey: remote.token } });
  expect(summary.ok).toBe(true);

  const remoteMe = await remote.client.GetMe({});
  expect(remoteMe.userId).not.toBe(desktopUser.userId);
  const me = await call('GetMe');
  expect(me.userId).toBe(remoteMe.userId);
  expect(me.organizations.map((o: { organizationId: string }) => o.organizationId)).toEqual(
    remoteMe.organizations.map((o) => o.organizationId),
  );

  const { annotation } = await call('CreateAnnotation', annotationRequest('from the desktop'));
  expect(annotation.createdByUserId).toBe(remoteMe.userId);
  expect(annotation.organizationId).toBe(remoteMe.organizations[0].organizationId);
  expect(
    (await runSync({ db: engine.db, catalog: engine.replica.catalog, remote: { baseUrl: remote.url, apiKey: remote.token } })).pending,
  ).toBe(0);
  const onRemote = await remote.client.ListAnnotations({ filter: 'name == "from the desktop"' });
  expect(onRemote.annotations.map((a) => a.createdByUserId)).toEqual([remoteMe.userId]);
});
