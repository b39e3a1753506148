// "Adopt the records made here, or keep them here" is chosen when linking
// (issue #30 item 4), and the engine holds the choice: ConfigureSyncRemote
// stores it with the link (checked against the key user's organizations), a
// new key for the same link leaves it, removing the link forgets it, and the
// first sync adopts them whoever starts it: here `outpost sync`, a real child
// process, on a directory linked over HTTP (the host's background sync after a
// restart: tests/host/linkAdoption.test.ts).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { isReplica } from '../../src-main/engine';
import { PENDING_ADOPTION_SETTING } from '../../src-main/sync/pendingAdoption';
import { expectViolation } from '../support/assertions';
import { startTestServer, type TestServer } from '../support/testServer';
import { annotationRequest, ASSET, insertAsset, startRemote, type RemoteServer } from './helpers';

const OUTPOST = fileURLToPath(new URL('../../bin/outpost.mjs', import.meta.url));
const REMOTE = '/api/v1/outpost/sync/remote';

let remote: RemoteServer;
let dir: string;
let local: TestServer | undefined;
let remoteOrganization: string;

beforeEach(async () => {
  remote = await startRemote();
  remoteOrganization = (await remote.client.GetMe({})).organizations[0].organizationId;
  dir = mkdtempSync(join(tmpdir(), 'outpost-link-adoption-'));
  local = await startTestServer({ dataDir: dir });
  // Made here before any link, in this profile's own organization.
  insertAsset(local.engine.db, '5a5a5a5a-0000-4000-a000-0000000000bb', ASSET);
  await local.client.CreateAnnotation(annotationRequest('made offline'));
});
afterEach(async () => {
  await local?.close();
  rmSync(dir, { recursive: true, force: true });
  await remote.close();
});

const pendingOf = async () => ((await local!.api('GET', REMOTE)).body as { remote: { adoptPreLinkRecords: unknown } | null }).remote;

test('the choice is checked and stored with the link; a new key keeps it, removing the link forgets it', async () => {
  // An organization that is not the key user's: refused, naming the field, and nothing of the link is stored.
  const wrong = await local!.api('PUT', REMOTE, {
    baseUrl: remote.url,
    apiKey: remote.token,
    adoptPreLinkRecords: { organizationId: 'not-an-organization-of-theirs' },
  });
  expectViolation(wrong, 'adopt_pre_link_records.organization_id');
  expect(isReplica(local!.engine.db)).toBe(false);
  expect(local!.engine.db.all("SELECT key FROM settings WHERE key LIKE 'sync.%'")).toEqual([]);

  // Omitted: the user's only organization.
  const linked = await local!.api('PUT', REMOTE, { baseUrl: remote.url, apiKey: remote.token, adopt_pre_link_records: {} });
  expect(linked).toMatchObject({
    status: 200,
    body: { remote: { baseUrl: remote.url, hasApiKey: true, adoptPreLinkRecords: { organizationId: remoteOrganization } } },
  });
  expect(await pendingOf()).toMatchObject({ adoptPreLinkRecords: { organizationId: remoteOrganization } });

  // The same link with its key given again (no choice named): the choice stays.
  expect((await local!.api('PUT', REMOTE, { baseUrl: remote.url, apiKey: remote.token })).status).toBe(200);
  expect(await pendingOf()).toMatchObject({ adoptPreLinkRecords: { organizationId: remoteOrganization } });

  // Removed: forgotten with it; a new link that names no choice keeps the records here.
  expect((await local!.api('DELETE', REMOTE)).status).toBe(200);
  expect(local!.engine.db.setting(PENDING_ADOPTION_SETTING)).toBeUndefined();
  expect((await local!.api('PUT', REMOTE, { baseUrl: remote.url, apiKey: remote.token })).body).toEqual({
    remote: { baseUrl: remote.url, hasApiKey: true, adoptPreLinkRecords: null },
  });
  expect(local!.engine.db.setting(PENDING_ADOPTION_SETTING)).toBeUndefined();
});

test('the first sync adopts them as chosen, whoever starts it: `outpost sync` on a directory linked over HTTP', async () => {
  expect((await local!.api('PUT', REMOTE, { baseUrl: remote.url, apiKey: remote.token, adoptPreLinkRecords: {} })).status).toBe(200);
  await local!.close();
  local = undefined;

  const run = await promisify(execFile)(process.execPath, [OUTPOST, 'sync', '--data', dir, '--json'], {
    env: { ...process.env, OUTPOST_DATA_DIR: '' },
  });
  const summary = JSON.parse(run.stdout) as { ok: boolean; preLink: { total: number } };
  expect(summary.ok).toBe(true);
  expect(summary.preLink.total).toBe(0);

  // Sent in that one run, as the remote user; the choice is done with.
  const me = await remote.client.GetMe({});
  const sent = (await remote.client.ListAnnotations({ filter: 'name == "made offline"' })).annotations;
  expect(sent).toHaveLength(1);
  expect(sent[0]).toMatchObject({ createdByUserId: me.userId, organizationId: remoteOrganization });
  local = await startTestServer({ dataDir: dir });
  expect(await pendingOf()).toMatchObject({ adoptPreLinkRecords: null });
});
