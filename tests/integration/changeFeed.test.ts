// The change feed over real HTTP (issue #30 item 1): GET /api/v1/outpost/changes
// as Server-Sent Events from a real `outpost serve` engine. Another caller's
// write, an ATML import and a background sync pull each reach a reader within
// 1 s; a resumed reader (Last-Event-ID) loses nothing; no key is 401; a record
// a Cedar forbid hides from the reader never appears in its feed.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANGES_PATH } from '../../src-shared/api/changes';
import { BackgroundSync } from '../../src-main/sync/backgroundSync';
import { openChangeStream, ready, type ChangeStreamReader } from '../support/changeStream';
import { startTestServer, type TestServer } from '../support/testServer';
import { annotationRequest, startRemote, type RemoteServer } from '../sync/helpers';

/** The bound: a change reaches a reader within a second. */
const WITHIN_MS = 1_000;
const SAMPLE = readFileSync(join(__dirname, '../fixtures/teststand/demo_test_report.xml'));

let s: TestServer;
let alice: string;
const readers: ChangeStreamReader[] = [];

beforeAll(async () => {
  s = await startTestServer();
  alice = s.newToken('alice@outpost.local');
  expect((await s.api('POST', '/api/v1/assets', { name: 'bench-1' })).status).toBe(200);
});
afterAll(async () => {
  for (const r of readers) r.close();
  await s?.close();
});

const open = async (token: string | null, lastEventId?: string) => {
  const reader = await openChangeStream(s.url, token, lastEventId);
  readers.push(reader);
  if (reader.status === 200) await ready(reader);
  return reader;
};

const createAnnotation = async (name: string, token: string, extra: Record<string, unknown> = {}) => {
  const res = await s.api(
    'POST',
    '/api/v1/annotations',
    { name, startTime: '2026-01-01T00:00:00Z', endTime: '2026-01-01T00:01:00Z', assets: ['bench-1'], ...extra },
    token,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.annotation.annotationId as string;
};

describe('GET /api/v1/outpost/changes', () => {
  it('without a key, or with a wrong one, is 401 in the contract body; the OpenAPI document describes it once', async () => {
    for (const token of [null, 'not-a-key']) {
      const res = await fetch(s.url + CHANGES_PATH, token ? { headers: { Authorization: `Bearer ${token}` } } : {});
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect((await res.json()).code).toBe(16);
    }
    const doc = (await s.api('GET', '/api/v1/openapi.json', undefined, null)).body;
    expect(doc.paths[CHANGES_PATH].get).toMatchObject({ operationId: 'StreamChanges', 'x-outpost-extension': true });
    expect(Object.keys(doc.paths[CHANGES_PATH].get.responses['200'].content)).toEqual(['text/event-stream']);
  });

  it("another caller's write reaches the owner's feed within 1 s, naming the record, the reason and the writer", async () => {
    const feed = await open(s.token);
    const id = await createAnnotation('written by alice', alice);
    const change = await feed.waitFor(
      'alice’s create',
      (c) => c.resource === 'annotations' && c.ids !== 'many' && c.ids.includes(id),
      WITHIN_MS,
    );
    const aliceId = s.engine.db.get<{ id: string }>("SELECT id FROM users WHERE user_name = 'alice@outpost.local'")!.id;
    expect(change).toMatchObject({ reason: 'write', userId: aliceId });
    // An edit and an archive of the same record are changes too.
    const seen = feed.changes().length;
    expect((await s.api('POST', `/api/v1/annotations/${id}:archive`, {}, alice)).status).toBe(200);
    await feed.waitFor('the archive', (c) => c.ids !== 'many' && c.ids.includes(id), WITHIN_MS, seen);
  });

  it('an ATML import reaches the feed within 1 s as an import of the new report', async () => {
    const feed = await open(s.token);
    const form = new FormData();
    form.append('entityId', randomUUID());
    form.append('entityType', 'test_reports');
    form.append('file', new Blob([SAMPLE], { type: 'application/xml' }), 'demo_test_report.xml');
    const uploaded = await fetch(`${s.url}/api/v0/remote-files/upload`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${alice}` },
      body: form,
    });
    const remoteFileId = (await uploaded.json()).remoteFile.remoteFileId as string;
    const imported = await s.api('POST', '/api/v1/test-reports:import', { remoteFileId }, alice);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    const reportId = imported.body.testReport.testReportId as string;
    const change = await feed.waitFor('the import', (c) => c.reason === 'import', WITHIN_MS);
    expect(change).toMatchObject({ resource: 'test_reports', ids: [reportId] });
  });

  it('a batch is one change listing its records, with the reason batch', async () => {
    const ids = [await createAnnotation('batch 1', alice), await createAnnotation('batch 2', alice)];
    const feed = await open(s.token);
    expect((await s.api('POST', '/api/v1/annotations:batchArchive', { annotationIds: ids }, alice)).status).toBe(200);
    const change = await feed.waitFor('the batch', (c) => c.reason === 'batch', WITHIN_MS);
    expect(change.resource).toBe('annotations');
    expect([...(change.ids as string[])].sort()).toEqual([...ids].sort());
  });

  it('resumed with Last-Event-ID, a reader gets every change it missed; a position the feed never gave is a gap', async () => {
    const first = await open(s.token);
    const position = first.lastId()!;
    first.close();
    const missed: string[] = [];
    for (let i = 0; i < 12; i++) missed.push(await createAnnotation(`while away ${i}`, alice));
    const resumed = await open(s.token, position);
    await resumed.waitFor('the last missed write', (c) => c.ids !== 'many' && c.ids.includes(missed[11]), WITHIN_MS);
    const seen = new Set(resumed.changes().flatMap((c) => (c.ids === 'many' ? [] : c.ids)));
    expect(missed.filter((id) => !seen.has(id))).toEqual([]);
    // Coalesced: the twelve writes come as few events, not one each.
    expect(resumed.events.filter((e) => e.event === 'changes').length).toBeLessThan(12);

    const stranger = await open(s.token, 'feedfeed.3');
    expect(await stranger.waitFor('the gap', (c) => c.reason === 'gap', WITHIN_MS)).toEqual({ resource: '*', ids: 'many', reason: 'gap' });
  });

  it('a record a Cedar forbid hides from the reader never appears in its feed; the records it may read do', async () => {
    const bob = s.newToken('bob@outpost.local');
    const policy = await s.api('POST', '/api/v1/policies', {
      name: 'Bob reads no secrets',
      configuration: {
        cedarPolicy:
          'forbid(principal, action in Action::"read", resource is Annotation) when { principal.name == "bob@outpost.local" && resource.tags.contains("secret") };',
      },
    });
    expect(policy.status, JSON.stringify(policy.body)).toBe(200);
    try {
      const bobFeed = await open(bob);
      const ownerFeed = await open(s.token);
      const secret = await createAnnotation('the secret one', alice, { tags: ['secret'] });
      const open1 = await createAnnotation('an open one', alice, { tags: ['open'] });
      expect((await s.api('GET', `/api/v1/annotations/${secret}`, undefined, bob)).status).toBe(403);
      await bobFeed.waitFor('the open record', (c) => c.ids !== 'many' && c.ids.includes(open1), WITHIN_MS);
      await ownerFeed.waitFor('the secret record (owner)', (c) => c.ids !== 'many' && c.ids.includes(secret), WITHIN_MS);
      // A later event proves the feed went past the secret write: still nothing of it.
      const later = await createAnnotation('after the secret', alice, { tags: ['open'] });
      await bobFeed.waitFor('the later record', (c) => c.ids !== 'many' && c.ids.includes(later), WITHIN_MS);
      expect(JSON.stringify(bobFeed.events)).not.toContain(secret);
    } finally {
      await s.api('POST', `/api/v1/policies/${policy.body.policy.policyId}/archive`, {});
    }
  });
});

describe('a background sync pull', () => {
  let remote: RemoteServer;
  let local: TestServer;
  let sync: BackgroundSync;

  beforeAll(async () => {
    remote = await startRemote();
    local = await startTestServer();
    sync = new BackgroundSync({
      engine: local.engine,
      intervalMs: 200,
      afterEditMs: 50,
      run: { retry: { baseDelayMs: 5, maxDelayMs: 20, maxAttempts: 2 } },
    });
    await sync.start();
    expect((await local.api('PUT', '/api/v1/outpost/sync/remote', { baseUrl: remote.url, apiKey: remote.token })).status).toBe(200);
    const end = Date.now() + 20_000;
    while ((await local.client.GetSyncStatus({})).lastSuccessDate === null) {
      if (Date.now() > end) throw new Error('the first sync did not finish');
      await new Promise((r) => setTimeout(r, 25));
    }
  });
  afterAll(async () => {
    await sync?.stop();
    await local?.close();
    await remote?.close();
  });

  it('reaches the feed of the replica within 1 s of applying a colleague’s remote edit, as a sync change', async () => {
    const feed = await openChangeStream(local.url, local.token);
    readers.push(feed);
    await ready(feed);
    const made = await remote.client.CreateAnnotation(annotationRequest('made on the remote'));
    const id = made.annotation.annotationId;
    const end = Date.now() + 20_000;
    while (!local.engine.db.get('SELECT 1 FROM annotations WHERE id = ?', [id])) {
      if (Date.now() > end) throw new Error('the background pull never brought the record');
      await new Promise((r) => setTimeout(r, 5));
    }
    const change = await feed.waitFor('the pulled record', (c) => c.ids !== 'many' && c.ids.includes(id), WITHIN_MS);
    expect(change).toMatchObject({ resource: 'annotations', reason: 'sync' });
    expect(change.userId).toBeUndefined();
  });
});
