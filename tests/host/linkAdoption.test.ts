// The link form's "send the records made here" is the engine's choice, not the
// window's (issue #30 item 4): stored with the link by the real engine host (a
// forked process), it survives the host being killed before any sync, and the
// first background run of a host started later adopts and sends them with no
// window involved.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { CallResult } from '../../src-main/host/protocol';
import { createMemorySecretStore, type SecretStore } from '../../src-main/sync/secretStore';
import { startTestHost, type TestHost } from '../support/engineHost';
import { ASSET, startRemote, type RemoteServer } from '../sync/helpers';

let remote: RemoteServer;
let dataDir: string;
let secrets: SecretStore;
const hosts: TestHost[] = [];

function data(result: CallResult): any {
  if (!result.ok) throw new Error(`call failed: ${JSON.stringify(result.error)}`);
  return result.data;
}

async function waitFor<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const start = async (backgroundSync: boolean) => {
  const host = await startTestHost({ runner: 'fork', dataDir, secrets, init: { backgroundSync } });
  hosts.push(host);
  return host;
};

beforeEach(async () => {
  remote = await startRemote();
  dataDir = mkdtempSync(join(tmpdir(), 'outpost-host-adoption-'));
  secrets = createMemorySecretStore();
});
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
  rmSync(dataDir, { recursive: true, force: true });
  await remote.close();
});

test('chosen when linking, kept through a killed host, and carried out by the next host’s first background sync', async () => {
  // A host that runs no sync: the link is saved and nothing is sent before the host dies.
  const first = await start(false);
  data(await first.supervisor.call('CreateAsset', { name: ASSET }));
  data(
    await first.supervisor.call('CreateAnnotation', {
      name: 'made offline',
      startTime: '2026-09-01T00:00:00Z',
      endTime: '2026-09-01T00:01:00Z',
      assets: [ASSET],
    }),
  );
  const me = await remote.client.GetMe({});
  const organizationId = me.organizations[0].organizationId;
  const linked = data(
    await first.supervisor.call('ConfigureSyncRemote', { baseUrl: remote.url, apiKey: remote.token, adoptPreLinkRecords: {} }),
  );
  expect(linked.remote).toMatchObject({ hasApiKey: true, adoptPreLinkRecords: { organizationId } });

  // kill -9; the supervisor starts a new host on the same directory: the choice is still there, nothing was sent.
  process.kill(first.supervisor.pid!, 'SIGKILL');
  await waitFor(
    'the restarted host',
    async () => first.processes.length,
    (n) => n === 2,
  );
  await first.supervisor.whenReady();
  expect(data(await first.supervisor.call('GetSyncRemote', {})).remote).toMatchObject({ adoptPreLinkRecords: { organizationId } });
  expect(data(await first.supervisor.call('GetSyncStatus', {})).lastSyncStartedDate).toBeNull();
  expect((await remote.client.ListAnnotations({ filter: 'name == "made offline"' })).annotations).toEqual([]);
  await first.close();
  hosts.splice(0);

  // The app started again, with background sync and no window: its first run adopts and sends them.
  const second = await start(true);
  const sent = await waitFor(
    'the records made before the link on the remote',
    async () => (await remote.client.ListAnnotations({ filter: 'name == "made offline"' })).annotations,
    (list) => list.length === 1,
  );
  expect(sent[0]).toMatchObject({ createdByUserId: me.userId, organizationId });
  expect(data(await second.supervisor.call('GetSyncRemote', {})).remote).toMatchObject({ adoptPreLinkRecords: null });
  expect(data(await second.supervisor.call('GetPreLinkRecords', {}))).toMatchObject({ total: 0 });
});
