// Linking is checked before it is saved (issue #30 item 4), over real HTTP
// against a second real server on loopback: TestSyncRemote says whether the
// remote answers, accepts the key and whose it is, storing nothing;
// ConfigureSyncRemote runs the same check first and, when a step fails, saves
// nothing and says which step (google.rpc.ErrorInfo reason). Before the first
// link the check counts the records made here that will stay local.
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isReplica } from '../../src-main/engine';
import { listen } from '../../src-main/http/server';
import { SECRETS_FILE } from '../../src-main/sync/secretStore';
import { startTestServer, type TestServer } from '../support/testServer';
import { expectViolation } from '../support/assertions';
import { annotationRequest, ASSET, insertAsset, startRemote, type RemoteServer } from '../sync/helpers';

const TEST = '/api/v1/outpost/sync/remote:test';
const REMOTE = '/api/v1/outpost/sync/remote';

let remote: RemoteServer;
let local: TestServer;
/** An address where nothing listens (a port that was just closed). */
let nothingThere: string;
/** An HTTP server that is no Outpost or Sift API (answers every path with a 404 page). */
let notAnApi: Server;
let notAnApiUrl: string;

const reasonOf = (body: { details?: { '@type': string; reason?: string; domain?: string }[] }) =>
  body.details?.find((d) => d['@type'] === 'type.googleapis.com/google.rpc.ErrorInfo');

/** Nothing of a link is stored: no URL or identity setting, no secret file, not a replica; the remote saw no write. */
async function expectNothingStored() {
  expect(local.engine.db.all("SELECT key FROM settings WHERE key LIKE 'sync.%'")).toEqual([]);
  expect(existsSync(join(local.dataDir, SECRETS_FILE))).toBe(false);
  expect(isReplica(local.engine.db)).toBe(false);
  expect((await local.api('GET', REMOTE)).body).toEqual({ remote: null });
  expect(local.engine.replica.writeRecorder()).toBeUndefined();
}

beforeAll(async () => {
  remote = await startRemote();
  local = await startTestServer();
  const closed = createServer();
  const url = await listen(closed, 0);
  await new Promise<void>((r) => closed.close(() => r()));
  nothingThere = url;
  notAnApi = createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not here</h1>'));
  notAnApiUrl = await listen(notAnApi, 0);
  // Made here before any link: they will stay in this profile's own organization.
  insertAsset(local.engine.db, '5a5a5a5a-0000-4000-a000-0000000000aa', ASSET);
  await local.client.CreateAnnotation(annotationRequest('made offline 1'));
  await local.client.CreateAnnotation(annotationRequest('made offline 2'));
});
afterAll(async () => {
  await local?.close();
  await remote?.close();
  await new Promise<void>((r) => (notAnApi ? notAnApi.close(() => r()) : r()));
});

describe('a link that cannot work is refused, saying which step failed, and nothing is stored', () => {
  it.each([
    ['a URL where nothing answers', () => ({ baseUrl: nothingThere, apiKey: 'op_any' }), 'REMOTE_UNREACHABLE', /nothing answers at/],
    [
      'a URL that is no Outpost or Sift API',
      () => ({ baseUrl: notAnApiUrl, apiKey: 'op_any' }),
      'REMOTE_UNREACHABLE',
      /not as an Outpost or Sift API/,
    ],
    ['a key the remote refuses', () => ({ baseUrl: remote.url, apiKey: 'op_wrong_key' }), 'REMOTE_KEY_REFUSED', /refused the API key/],
  ])('%s', async (_what, body, reason, message) => {
    for (const [method, path] of [
      ['POST', TEST],
      ['PUT', REMOTE],
    ] as const) {
      const res = await local.api(method, path, body());
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.body).toMatchObject({ code: 9, message: expect.stringMatching(message) });
      expect(reasonOf(res.body)).toEqual({
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason,
        domain: 'outpost.sync.link',
        metadata: {},
      });
      await expectNothingStored();
    }
  });

  it('a key whose user belongs to no organization there: the identity step', async () => {
    const token = remote.newToken('loner@remote.example');
    const loner = remote.engine.db.get<{ id: string }>("SELECT id FROM users WHERE user_name = 'loner@remote.example'")!.id;
    remote.engine.db.run('DELETE FROM memberships WHERE user_id = ?', [loner]);
    for (const [method, path] of [
      ['POST', TEST],
      ['PUT', REMOTE],
    ] as const) {
      const res = await local.api(method, path, { baseUrl: remote.url, apiKey: token });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/belongs to no organization/);
      expect(reasonOf(res.body)?.reason).toBe('REMOTE_IDENTITY_UNKNOWN');
      await expectNothingStored();
    }
  });

  it('the form errors come before the network: a bad URL names base_url; no key for a new remote names api_key', async () => {
    expectViolation(await local.api('POST', TEST, { baseUrl: 'ftp://remote.example', apiKey: 'k' }), 'base_url');
    expectViolation(await local.api('POST', TEST, { baseUrl: remote.url }), 'api_key');
    await expectNothingStored();
  });
});

describe('a link that works', () => {
  it('the check says whose key it is and how many records made here stay local, and stores nothing', async () => {
    const res = await local.api('POST', TEST, { baseUrl: `${remote.url}/`, apiKey: remote.token });
    expect(res.status).toBe(200);
    const me = await remote.client.GetMe({});
    const here = local.engine.db.get<{ id: string; name: string }>('SELECT id, name FROM organizations')!;
    expect(res.body).toEqual({
      baseUrl: remote.url,
      userId: me.userId,
      userEmail: me.userEmail,
      organizations: me.organizations.map((o) => ({ organizationId: o.organizationId, name: o.organizationName })),
      linked: false,
      staysLocal: {
        identityKnown: false,
        localOrganizations: [{ organizationId: here.id, name: here.name }],
        remoteOrganizations: me.organizations.map((o) => ({ organizationId: o.organizationId, name: o.organizationName })),
        total: 2,
        adoptable: 2,
        kinds: [{ resource: 'annotation', label: 'annotations', count: 2, adoptable: true, reason: '' }],
      },
    });
    expect(JSON.stringify(res.body)).not.toContain(remote.token);
    await expectNothingStored();
  });

  it('ConfigureSyncRemote with the right key saves the link; the check then knows it is linked', async () => {
    const res = await local.api('PUT', REMOTE, { baseUrl: remote.url, apiKey: remote.token });
    expect(res).toMatchObject({ status: 200, body: { remote: { baseUrl: remote.url, hasApiKey: true } } });
    expect(isReplica(local.engine.db)).toBe(true);
    const again = await local.api('POST', TEST, { baseUrl: remote.url });
    expect(again.status).toBe(200);
    expect(again.body.linked).toBe(true);
  });

  it('replacing the key with one the remote refuses keeps the stored key', async () => {
    const res = await local.api('PUT', REMOTE, { baseUrl: remote.url, apiKey: 'op_wrong_key' });
    expect(reasonOf(res.body)?.reason).toBe('REMOTE_KEY_REFUSED');
    expect(await local.engine.replica.secrets.get(`remote:${remote.url}`)).toBe(remote.token);
  });
});
