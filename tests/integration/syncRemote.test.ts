// The remote profile and "sync now" operations over real HTTP: configure,
// read, remove (the key is write-only and kept in the data directory's 0600
// secret file), validation naming the field with nothing changed, SyncNow
// without a host scheduler; then with the same background sync `outpost
// serve` runs, against a second real server as the remote.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src-main/auth/apiKeys';
import { DEFAULT_ORGANIZATION_NAME, DEFAULT_USER_NAME } from '../../src-main/auth/identity';
import { BackgroundSync } from '../../src-main/sync/backgroundSync';
import { dataDirSecretStore, SECRETS_FILE } from '../../src-main/sync/secretStore';
import { startTestServer, type TestServer } from '../support/testServer';
import { expectViolation } from '../support/assertions';
import { annotationRequest, startRemote, type RemoteServer } from '../sync/helpers';

const until = async (what: string, ok: () => boolean | Promise<boolean>, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

const REMOTE = '/api/v1/outpost/sync/remote';
const RUN = '/api/v1/outpost/sync:run';

describe('remote profile without a host scheduler', () => {
  let server: TestServer;
  // Real remotes: a link is checked before it is saved (syncLinkCheck.test.ts).
  let first: RemoteServer;
  let elsewhere: RemoteServer;
  const secretsFile = () => join(server.dataDir, SECRETS_FILE);
  const settings = () =>
    server.engine.db.all<{ key: string; value: string }>("SELECT key, value FROM settings WHERE key LIKE 'sync.%' ORDER BY key");

  beforeAll(async () => {
    server = await startTestServer();
    first = await startRemote();
    elsewhere = await startRemote();
  });
  afterAll(async () => {
    await server?.close();
    await first?.close();
    await elsewhere?.close();
  });

  it('starts with no remote', async () => {
    expect(await server.api('GET', REMOTE)).toMatchObject({ status: 200, body: { remote: null } });
  });

  it.each([
    ['a missing URL', { api_key: 'k' }, 'base_url', /is required/],
    ['an empty URL', { base_url: '  ', api_key: 'k' }, 'base_url', /is required/],
    ['a relative URL', { base_url: 'remote.example', api_key: 'k' }, 'base_url', /absolute http/],
    ['another scheme', { base_url: 'ftp://remote.example', api_key: 'k' }, 'base_url', /http or https, not ftp/],
    ['credentials in the URL', { base_url: 'https://me:secret@remote.example', api_key: 'k' }, 'base_url', /credentials/],
    ['a query string', { base_url: 'https://remote.example/?x=1', api_key: 'k' }, 'base_url', /query/],
    ['a key with spaces', { base_url: 'https://remote.example', api_key: 'op_a b' }, 'api_key', /spaces/],
    ['an empty key', { base_url: 'https://remote.example', api_key: '' }, 'api_key', /empty/],
    ['no key for a new remote', { base_url: 'https://remote.example' }, 'api_key', /is required/],
  ])('rejects %s, naming the field, and changes nothing', async (_what, body, field, description) => {
    const res = await server.api('PUT', REMOTE, body);
    expectViolation(res, field);
    expect(res.body.message).toMatch(description);
    expect(settings()).toEqual([]);
    expect(existsSync(secretsFile())).toBe(false);
    expect((await server.api('GET', REMOTE)).body).toEqual({ remote: null });
  });

  it('configures a remote: the key goes to the 0600 secret file and is never returned', async () => {
    const key = first.token;
    const res = await server.api('PUT', REMOTE, { baseUrl: `${first.url}/`, apiKey: key });
    expect(res).toMatchObject({ status: 200, body: { remote: { baseUrl: first.url, hasApiKey: true, adoptPreLinkRecords: null } } });
    expect(JSON.stringify(res.body)).not.toContain(key);
    expect(statSync(secretsFile()).mode & 0o777).toBe(0o600);
    expect(await dataDirSecretStore(server.dataDir).get(`remote:${first.url}`)).toBe(key);
    const read = await server.api('GET', REMOTE);
    expect(read.body).toEqual({ remote: { baseUrl: first.url, hasApiKey: true, adoptPreLinkRecords: null } });
    expect(JSON.stringify(read.body)).not.toContain(key);
    expect((await server.client.GetSyncStatus({})).remoteUrl).toBe(first.url);
    expect((await server.client.GetSyncStatus({})).replica).toBe(true);
  });

  it('records writes in the outbox from the moment the remote is linked (no restart)', async () => {
    await server.client.CreateSavedSearch({ name: 'after linking', properties: { overviewMode: 'ANNOTATIONS' } });
    const { entries } = await server.client.ListSyncOutbox({});
    expect(entries.map((e) => [e.operation, e.state])).toEqual([['CreateSavedSearch', 'pending']]);
  });

  it('keeps the stored key when the same remote is configured without one', async () => {
    const res = await server.api('PUT', REMOTE, { baseUrl: first.url });
    expect(res.body).toEqual({ remote: { baseUrl: first.url, hasApiKey: true, adoptPreLinkRecords: null } });
    expect(await dataDirSecretStore(server.dataDir).get(`remote:${first.url}`)).toBe(first.token);
  });

  it('refuses a second remote while one is linked, naming base_url, and keeps the first', async () => {
    const before = settings();
    const secrets = readFileSync(secretsFile(), 'utf8');
    const res = await server.api('PUT', REMOTE, { baseUrl: elsewhere.url, apiKey: elsewhere.token });
    expectViolation(res, 'base_url', 400, 9);
    expect(res.body.message).toContain(`syncs with ${first.url}; remove that remote first`);
    expect(settings()).toEqual(before);
    expect(readFileSync(secretsFile(), 'utf8')).toBe(secrets);
  });

  it('SyncNow is FAILED_PRECONDITION when no host runs background sync', async () => {
    const res = await server.api('POST', RUN, {});
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 9 });
    expect(res.body.message).toMatch(/no background sync/);
    expect((await server.client.GetSyncStatus({})).state).toBe('idle');
  });

  it('removes the remote and its key; queued edits stay', async () => {
    expect(await server.api('DELETE', REMOTE)).toMatchObject({ status: 200, body: {} });
    expect((await server.api('GET', REMOTE)).body).toEqual({ remote: null });
    expect(existsSync(secretsFile())).toBe(false);
    expect((await server.client.ListSyncOutbox({})).entries).toHaveLength(1);
    // Another remote may be linked now.
    const res = await server.api('PUT', REMOTE, { baseUrl: elsewhere.url, apiKey: elsewhere.token });
    expect(res.body).toEqual({ remote: { baseUrl: elsewhere.url, hasApiKey: true, adoptPreLinkRecords: null } });
  });
});

describe('remote profile with background sync (as `outpost serve` runs it)', () => {
  let remote: Awaited<ReturnType<typeof startRemote>>;
  let local: TestServer;
  let sync: BackgroundSync;

  beforeAll(async () => {
    remote = await startRemote();
    local = await startTestServer();
    sync = new BackgroundSync({
      engine: local.engine,
      intervalMs: 60_000,
      afterEditMs: 50,
      run: { retry: { baseDelayMs: 5, maxDelayMs: 20, maxAttempts: 2 } },
    });
    await sync.start();
  });
  afterAll(async () => {
    await sync?.stop();
    await local?.close();
    await remote?.close();
  });

  it('SyncNow without a remote says to configure one', async () => {
    const res = await local.api('POST', RUN, {});
    expect(res.body).toMatchObject({ code: 9 });
    expect(res.body.message).toMatch(/no remote is configured/);
  });

  it('configuring starts background sync; local API keys then write as the synced remote user', async () => {
    await local.api('PUT', REMOTE, { baseUrl: remote.url, apiKey: remote.token });
    await until('the first sync', async () => (await local.client.GetSyncStatus({})).lastSuccessDate !== null);
    const remoteMe = await remote.client.GetMe({});
    // The serve session key belongs to the local default user; on the synced replica it acts as the remote user.
    expect((await local.client.GetMe({})).userId).toBe(remoteMe.userId);
    const { annotation } = await local.client.CreateAnnotation(annotationRequest('written under serve'));
    expect(annotation.createdByUserId).toBe(remoteMe.userId);
    const status = await local.api('POST', RUN, {});
    expect(status.status).toBe(200);
    expect(status.body.state).toBe('syncing');
    await until('the edit on the remote', () => !!remote.engine.db.get("SELECT 1 FROM annotations WHERE name = 'written under serve'"));
    await until('nothing pending', async () => {
      const s = await local.client.GetSyncStatus({});
      return s.pendingCount === 0 && s.state === 'idle';
    });
    const onRemote = await remote.client.ListAnnotations({ filter: 'name == "written under serve"' });
    expect(onRemote.annotations.map((a) => a.createdByUserId)).toEqual([remoteMe.userId]);
  });

  it('a key the remote revokes stops sync; configuring the right key again resumes it', async () => {
    // A key the remote accepted when it was linked (the link is checked first), revoked there since.
    const { token } = createApiKey(remote.engine.db, DEFAULT_USER_NAME, DEFAULT_ORGANIZATION_NAME, 'revoked later');
    expect((await local.api('PUT', REMOTE, { baseUrl: remote.url, apiKey: token })).status).toBe(200);
    remote.engine.db.run("UPDATE api_keys SET revoked_date = 1 WHERE name = 'revoked later'");
    await local.api('POST', RUN, {});
    await until('the auth stop', async () => (await local.client.GetSyncStatus({})).state === 'auth_error');
    expect((await local.client.GetSyncStatus({})).lastError).toMatch(/refused the API key \(401\).*stopped until the key is replaced/);
    await local.api('PUT', REMOTE, { baseUrl: remote.url, apiKey: remote.token });
    await until('a successful sync after the new key', async () => (await local.client.GetSyncStatus({})).state === 'idle');
    expect((await local.client.GetSyncStatus({})).lastError).toBe('');
  });

  it('removing the remote stops background sync', async () => {
    await local.api('DELETE', REMOTE);
    expect(sync.scheduler.started).toBe(false);
    expect((await local.api('POST', RUN, {})).body.message).toMatch(/no remote is configured/);
  });
});
