// On a shared `outpost serve`, the remote link is the data directory owner's
// alone (issue #19 item 4). Before, Bob of another organization re-linked the
// server to a remote he controls and Alice's writes went there, as his user.
// Now: linking, unlinking and syncing are PERMISSION_DENIED for anyone but the
// owner, and on a replica only the owner's calls write (as the remote user);
// another key's writes are refused with a message, never re-identified.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BackgroundSync } from '../../src-main/sync/backgroundSync';
import { startTestServer, type TestServer } from '../support/testServer';
import { annotationRequest, startRemote, type RemoteServer } from '../sync/helpers';

const REMOTE = '/api/v1/outpost/sync/remote';
const RUN = '/api/v1/outpost/sync:run';

let shared: TestServer;
let remote: RemoteServer;
let bobsServer: RemoteServer;
let sync: BackgroundSync;
let bob: string;
let alice: string;

beforeAll(async () => {
  remote = await startRemote();
  bobsServer = await startRemote();
  shared = await startTestServer();
  sync = new BackgroundSync({ engine: shared.engine, intervalMs: 3_600_000 });
  await sync.start();
  bob = shared.newToken('bob@b.example', 'Organization B');
  alice = shared.newToken('alice@outpost.local');
});
afterAll(async () => {
  await sync.stop();
  await shared.close();
  await remote.close();
  await bobsServer.close();
});

describe('the remote link is the owner’s', () => {
  test('another user cannot link, unlink or sync the server, and nothing changes', async () => {
    for (const token of [bob, alice]) {
      const link = await shared.api('PUT', REMOTE, { baseUrl: bobsServer.url, apiKey: bobsServer.token }, token);
      expect(link.status).toBe(403);
      expect(link.body).toMatchObject({ code: 7, message: expect.stringContaining('ConfigureSyncRemote is for the owner') });
      expect((await shared.api('POST', RUN, {}, token)).body).toMatchObject({ code: 7 });
      expect((await shared.api('DELETE', REMOTE, undefined, token)).body).toMatchObject({ code: 7 });
    }
    expect((await shared.api('GET', REMOTE)).body).toEqual({ remote: null });
    expect(shared.engine.replica?.writeRecorder()).toBeUndefined();
  });

  test('once the owner links it, only the owner writes (as the remote user); other keys are refused with a message', async () => {
    expect((await shared.api('PUT', REMOTE, { baseUrl: remote.url, apiKey: remote.token })).status).toBe(200);
    await sync.scheduler.syncNow();
    const remoteMe = await remote.client.GetMe({});
    const mine = await shared.api('POST', '/api/v1/annotations', annotationRequest('the owner writes'));
    expect(mine.status).toBe(200);
    expect(mine.body.annotation.createdByUserId).toBe(remoteMe.userId);
    const before = shared.engine.db.get<{ n: number }>('SELECT count(*) AS n FROM annotations')!.n;
    for (const token of [alice, bob]) {
      const res = await shared.api('POST', '/api/v1/annotations', annotationRequest('not the owner'), token);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 7, message: expect.stringContaining("only its owner's calls write here") });
    }
    expect(shared.engine.db.get<{ n: number }>('SELECT count(*) AS n FROM annotations')!.n).toBe(before);
    // Reads stay the caller's own: nothing of the remote's organization for Bob.
    const bobsList = await shared.api('GET', '/api/v1/annotations', undefined, bob);
    expect(bobsList.status).toBe(200);
    expect(bobsList.body.annotations).toEqual([]);
    await sync.scheduler.syncNow();
    expect((await remote.client.ListAnnotations({ filter: 'name == "the owner writes"' })).annotations).toHaveLength(1);
    expect(bobsServer.engine.db.get<{ n: number }>('SELECT count(*) AS n FROM annotations')!.n).toBe(0);
  });
});
