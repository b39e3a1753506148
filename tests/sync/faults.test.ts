// Push and pull through the fault-injecting proxy: every outcome-unknown
// create is resolved without a duplicate, transient failures retry,
// authentication failures stop, refusals fail one entry without blocking others.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { nowMicros } from '../../src-shared/api/time';
import { Code } from '../../src-shared/errors';
import { prng } from '../../src-main/seed/seedDemoData';
import { backoffDelay, DEFAULT_RETRY, parseRetryAfter } from '../../src-main/sync/retry';
import { startFaultProxy, type FaultProxy, type Matcher } from './faultProxy';
import { artifactView, stageUpload } from './artifactKit';
import {
  annotationRequest,
  comment,
  createReplica,
  insertAsset,
  loseThenLinkDown,
  ONE_TRY,
  startRemote,
  viewOf,
  type Replica,
} from './helpers';

let remote: Awaited<ReturnType<typeof startRemote>>;
let proxy: FaultProxy;
let a: Replica;

const remoteCount = (sql: string, params: unknown[] = []) => remote.engine.db.get<{ n: number }>(sql, params as never)!.n;
const isCreateAnnotation = (r: { method: string; path: string }) => r.method === 'POST' && r.path === '/api/v1/annotations';
const isCreateLog = (r: { method: string; path: string }) => r.method === 'POST' && /\/logs$/.test(r.path);

beforeEach(async () => {
  remote = await startRemote();
  proxy = await startFaultProxy(remote.url, { strict: true });
  a = await createReplica('a', proxy.url, remote.token);
  expect((await a.sync()).ok).toBe(true);
});
afterEach(async () => {
  a.close();
  await proxy.close();
  await remote.close();
});

async function offlineCreate(name: string): Promise<string> {
  return (await a.call('CreateAnnotation', annotationRequest(name))).annotation.annotationId;
}

describe('unknown outcomes never duplicate', () => {
  test('a create whose response was lost is found by its marker (CEL filter) instead of being sent again', async () => {
    await offlineCreate('lost response');
    proxy.once({ kind: 'lose' }, isCreateAnnotation);
    const s = await a.sync();
    expect(s.ok).toBe(true);
    expect(s.progress.recovered).toBe(1);
    expect(proxy.forwarded(isCreateAnnotation)).toBe(1);
    expect(remoteCount('SELECT count(*) AS n FROM annotations')).toBe(1);
    expect(viewOf(a.engine.db)).toEqual(viewOf(remote.engine.db));
  });

  test('the same without a filter engine on the remote: a newest-first scan finds it', async () => {
    proxy.rejectFilters(true);
    await offlineCreate('no filters');
    proxy.once({ kind: 'lose' }, isCreateAnnotation);
    const s = await a.sync();
    expect(s.ok).toBe(true);
    expect(s.progress.recovered).toBe(1);
    expect(proxy.log.some((e) => e.fault === 'no-filter')).toBe(true);
    expect(remoteCount('SELECT count(*) AS n FROM annotations')).toBe(1);
    expect(viewOf(a.engine.db)).toEqual(viewOf(remote.engine.db));
  });

  test('a comment whose response was lost is matched among the annotation logs', async () => {
    const id = await offlineCreate('commented');
    await a.call('CreateAnnotationLog', comment(id, 'same words'));
    await a.call('CreateAnnotationLog', comment(id, 'same words'));
    proxy.once({ kind: 'lose' }, isCreateLog);
    const s = await a.sync();
    expect(s.ok).toBe(true);
    expect(s.progress.recovered).toBe(1);
    // Two deliberate identical comments stay two; the lost response adds none.
    expect(remoteCount('SELECT count(*) AS n FROM annotation_logs WHERE kind = 1')).toBe(2);
    expect(viewOf(a.engine.db)).toEqual(viewOf(remote.engine.db));
  });

  test('a create still travelling when its request timed out lands before the lookup, not after the retry', async () => {
    await offlineCreate('slow network');
    proxy.once({ kind: 'delay', ms: 400 }, isCreateAnnotation);
    const s = await a.sync({ remote: { baseUrl: proxy.url, apiKey: remote.token, timeoutMs: 150 }, createQuietMs: 700 });
    expect(s.ok).toBe(true);
    expect(s.progress.recovered).toBe(1);
    expect(remoteCount('SELECT count(*) AS n FROM annotations')).toBe(1);
    expect(viewOf(a.engine.db)).toEqual(viewOf(remote.engine.db));
  });

  test('connection dropped before the remote saw the create: sent again, created once', async () => {
    await offlineCreate('dropped');
    proxy.once({ kind: 'drop' }, isCreateAnnotation);
    const s = await a.sync();
    expect(s.ok).toBe(true);
    expect(proxy.forwarded(isCreateAnnotation)).toBe(1);
    expect(remoteCount('SELECT count(*) AS n FROM annotations')).toBe(1);
  });

  test('a crash after sending (entry left in flight) is resolved on restart by the pull', async () => {
    await offlineCreate('crashed');
    proxy.once({ kind: 'lose' }, isCreateAnnotation);
    proxy.partition(); // the lookup after the lost response fails too: the run ends with the entry in flight
    const s1 = await a.sync();
    expect(s1.ok).toBe(false);
    proxy.heal();
    a.reopen();
    expect(a.engine.db.get<{ state: string }>("SELECT state FROM sync_outbox WHERE operation = 'CreateAnnotation'")!.state).toMatch(
      /pending|inflight/,
    );
    const s2 = await a.sync();
    expect(s2.ok).toBe(true);
    expect(remoteCount('SELECT count(*) AS n FROM annotations')).toBe(1);
    expect(viewOf(a.engine.db)).toEqual(viewOf(remote.engine.db));
  });

  test('a replayed create (duplicating middlebox) leaves one live copy; the extra one is archived and reported', async () => {
    await offlineCreate('twice');
    proxy.once({ kind: 'duplicate' }, isCreateAnnotation);
    const s = await a.sync();
    expect(s.ok).toBe(true);
    expect(remoteCount('SELECT count(*) AS n FROM annotations')).toBe(2);
    expect(remoteCount('SELECT count(*) AS n FROM annotations WHERE archived_date IS NULL')).toBe(1);
    expect(a.engine.db.get<{ n: number }>("SELECT count(*) AS n FROM sync_conflicts WHERE kind = 'duplicate'")!.n).toBe(1);
    expect(viewOf(a.engine.db)).toEqual(viewOf(remote.engine.db));
  });

  test('duplicated idempotent writes are harmless', async () => {
    const id = await offlineCreate('dup update');
    await a.call('UpdateAnnotation', { annotation: { annotationId: id, description: 'd' }, updateMask: 'description' });
    await a.call('ArchiveAnnotation', { annotationId: id });
    proxy.random({ rate: 1, kinds: ['duplicate'], when: (r) => r.method === 'PATCH' || r.path.endsWith(':archive'), random: Math.random });
    expect((await a.sync()).ok).toBe(true);
    proxy.random(undefined);
    expect(remoteCount('SELECT count(*) AS n FROM annotations')).toBe(1);
    expect(viewOf(a.engine.db)).toEqual(viewOf(remote.engine.db));
  });
});

describe('retries and stops', () => {
  test('500, 503 and 429 are retried until the write lands', async () => {
    const id = await offlineCreate('flaky');
    await a.call('UpdateAnnotation', { annotation: { annotationId: id, name: 'flaky 2' }, updateMask: 'name' });
    proxy.once({ kind: 'status', status: 503 }, isCreateAnnotation);
    proxy.once({ kind: 'status', status: 500 }, (r) => r.method === 'PATCH');
    proxy.once({ kind: 'throttle', seconds: 0 }, (r) => r.method === 'PATCH');
    const s = await a.sync();
    expect(s.ok).toBe(true);
    expect(s.progress.retries).toBeGreaterThanOrEqual(3);
    expect(remoteCount('SELECT count(*) AS n FROM annotations')).toBe(1);
    expect(viewOf(remote.engine.db).annotations[Object.keys(viewOf(remote.engine.db).annotations)[0]].name).toBe('flaky 2');
  });

  test('Retry-After is honoured and backoff grows with jitter', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(new Date(Date.now() + 5000).toUTCString())).toBeGreaterThan(3000);
    expect(backoffDelay(DEFAULT_RETRY, 0, 7000, () => 0)).toBe(7000);
    const p = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 10_000, jitter: 0.5 };
    expect(backoffDelay(p, 0, undefined, () => 0)).toBe(50);
    expect(backoffDelay(p, 0, undefined, () => 1)).toBe(100);
    expect(backoffDelay(p, 3, undefined, () => 1)).toBe(800);
    expect(backoffDelay(p, 20, undefined, () => 1)).toBe(10_000);
  });

  test('a partition ends the run with the edits kept; healing delivers them once', async () => {
    for (let i = 0; i < 5; i++) await offlineCreate(`p${i}`);
    proxy.partition();
    const s1 = await a.sync();
    expect(s1.ok).toBe(false);
    expect(s1.pending).toBe(5);
    proxy.heal();
    const s2 = await a.sync();
    expect(s2.ok).toBe(true);
    expect(s2.pending).toBe(0);
    expect(remoteCount('SELECT count(*) AS n FROM annotations')).toBe(5);
  });

  test('401 stops sync and says so', async () => {
    await offlineCreate('unauthorized');
    // The same data directory with a wrong key: one process holds a directory at a time, so `a` lets go first.
    a.engine.close();
    const bad = await createReplica('bad', proxy.url, 'op_not-a-key', a.dir);
    const s = await bad.sync();
    expect(s.ok).toBe(false);
    expect(s.authError).toBe(true);
    expect(s.error).toMatch(/API key/);
    const status = await remote.api('GET', '/api/v1/outpost/sync/status');
    expect(status.status).toBe(200);
    bad.engine.close();
    a.reopen();
    expect((await a.call('GetSyncStatus', {})).state).toBe('auth_error');
  });
});

describe('a remote that asks for fewer requests', () => {
  test('a 429 narrows the push window: later edits go out with fewer requests in parallel, and all land', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 120; i++) ids.push(await offlineCreate(`rig ${i}`));
    expect((await a.sync({ concurrency: 32 })).ok).toBe(true);
    const isPatch = (r: { method: string }) => r.method === 'PATCH';
    // Every update takes the remote a while (40-80 ms), long beside the client's refill of its window even on a loaded
    // machine, so the client keeps as many on their way as its window allows.
    proxy.random({ rate: 1, kinds: ['delay'], when: isPatch, random: prng(7), delayMs: [40, 80] });
    /** Edits every annotation offline, syncs, and returns how many updates the proxy saw on their way at once, per update. */
    const pushRound = async (round: number, throttles: number) => {
      for (const [i, id] of ids.entries())
        await a.call('UpdateAnnotation', { annotation: { annotationId: id, name: `round ${round} ${i}` }, updateMask: 'name' });
      for (let i = 0; i < throttles; i++) proxy.once({ kind: 'throttle', seconds: 0 }, isPatch);
      const from = proxy.log.length;
      const s = await a.sync({ concurrency: 32 });
      expect(s.ok).toBe(true);
      expect(s.progress.pushed).toBe(120);
      const patches = proxy.log.slice(from).filter(isPatch);
      expect(patches.filter((e) => e.status === 429)).toHaveLength(throttles);
      // After the first wave (32 sent at once, and the retries of the refused ones) has drained:
      return Math.max(...patches.slice(40).map((e) => e.concurrent));
    };
    // Unthrottled, the client keeps close to its 32 on their way (with 1-40 ms answers a loaded machine once saw 22).
    expect(await pushRound(1, 0)).toBeGreaterThanOrEqual(24);
    // Three 429s in the first wave halve the window once (32 -> 16; a whole window refused at once counts once),
    // and it widens by one per window of successes: at most 22 by the 120th update.
    expect(await pushRound(2, 3)).toBeLessThanOrEqual(22);
    proxy.random(undefined);
    expect(viewOf(a.engine.db)).toEqual(viewOf(remote.engine.db));
  });
});

describe('order across outbox batches', () => {
  test('an edit made before an offline create landed and one made after (another id, a later batch) still go out in order', async () => {
    // 600 synced annotations to edit: the push reads the outbox 500 entries at a time.
    for (let i = 0; i < 600; i++) await remote.client.CreateAnnotation(annotationRequest(`filler ${i}`));
    expect((await a.sync()).ok).toBe(true);
    const fillers = a.engine.db.all<{ id: string }>("SELECT id FROM annotations WHERE name LIKE 'filler %'").map((r) => r.id);
    const x = await offlineCreate('created offline');
    await a.call('UpdateAnnotation', { annotation: { annotationId: x, name: 'first' }, updateMask: 'name' });
    for (const [i, id] of fillers.entries())
      await a.call('UpdateAnnotation', { annotation: { annotationId: id, description: `checked ${i}` }, updateMask: 'description' });
    await a.call('UpdateAnnotation', { annotation: { annotationId: x, name: 'second' }, updateMask: 'name' });
    // The create lands at once; the first rename is slow; the fillers take long enough that the second batch is read
    // after the create landed (it then names the annotation by its remote id) and while the first rename travels.
    proxy.once({ kind: 'delay', ms: 2000 }, (r) => r.method === 'PATCH' && r.body.includes('"first"'));
    proxy.random({ rate: 1, kinds: ['delay'], when: (r) => r.method === 'PATCH' && r.body.includes('checked'), random: prng(11) });
    const s = await a.sync({ concurrency: 32 });
    proxy.random(undefined);
    expect(s.ok).toBe(true);
    expect(s.progress.pushed).toBe(603);
    const renames = proxy.log
      .filter((e) => e.method === 'PATCH' && /"(first|second)"/.test(e.body))
      .map((e) => /"(first|second)"/.exec(e.body)![1]);
    expect(renames).toEqual(['first', 'second']);
    expect(remoteCount("SELECT count(*) AS n FROM annotations WHERE name = 'second'")).toBe(1);
    expect(viewOf(a.engine.db)).toEqual(viewOf(remote.engine.db));
  });
});

describe('remote writes during a sync', () => {
  // A record of each kind read again before the push, and a listing pulled after its own, held while the record is
  // renamed on the remote.
  const kinds = [
    {
      kind: 'an annotation',
      heldListing: '/api/v1/annotation-logs',
      create: async () => (await remote.client.CreateAnnotation(annotationRequest('pump'))).annotation.annotationId,
      rename: (r: { call(op: string, req: unknown): Promise<any> }, id: string, name: string) =>
        r.call('UpdateAnnotation', { annotation: { annotationId: id, name }, updateMask: 'name' }),
      nameOf: async (r: { call(op: string, req: unknown): Promise<any> }, id: string) =>
        (await r.call('GetAnnotation', { annotationId: id })).annotation.name,
    },
    {
      kind: 'a saved search',
      heldListing: '/api/v1/rules:list',
      create: async () =>
        (await remote.client.CreateSavedSearch({ name: 'pumps', properties: { overviewMode: 'OVERVIEW_MODE_ANNOTATIONS' } })).savedSearch
          .savedSearchId,
      rename: (r: { call(op: string, req: unknown): Promise<any> }, id: string, name: string) =>
        r.call('UpdateSavedSearch', { savedSearch: { savedSearchId: id, name }, updateMask: 'name' }),
      nameOf: async (r: { call(op: string, req: unknown): Promise<any> }, id: string) =>
        (await r.call('GetSavedSearch', { savedSearchId: id })).savedSearch.name,
    },
  ];

  test.each(kinds.map((k) => [k.kind, k] as const))(
    '%s edited on the remote while later lists were pulled is not overwritten by the push: the later write wins, ours is logged',
    async (_kind, k) => {
      const onRemote = { call: (op: string, req: unknown) => (remote.client as any)[op](req) };
      const id = await k.create();
      await a.sync();
      await k.rename(a, id, 'ours, earlier');
      const held: Matcher = (r) => r.method === 'GET' && r.path.startsWith(k.heldListing);
      proxy.once({ kind: 'delay', ms: 500 }, held);
      const seen = proxy.log.length;
      const syncing = a.sync();
      await vi.waitFor(() => expect(proxy.log.slice(seen).some(held)).toBe(true), { timeout: 5_000, interval: 5 });
      await k.rename(onRemote, id, 'theirs, later');
      expect((await syncing).ok).toBe(true);
      expect(await k.nameOf(onRemote, id)).toBe('theirs, later');
      expect(await k.nameOf(a, id)).toBe('theirs, later');
      const conflicts = (await a.call('ListSyncConflicts', {})).conflicts;
      expect(conflicts).toMatchObject([
        { recordId: id, field: 'name', winner: 'remote', localValue: 'ours, earlier', remoteValue: 'theirs, later' },
      ]);
    },
  );

  test('an annotation edited on the remote during a long push is not overwritten when its turn comes: the push reads it again', async () => {
    const { annotation } = await remote.client.CreateAnnotation(annotationRequest('pump'));
    const id = annotation.annotationId;
    const fillers = await Promise.all(
      Array.from(
        { length: 40 },
        async (_, i) => (await remote.client.CreateAnnotation(annotationRequest(`filler ${i}`))).annotation.annotationId,
      ),
    );
    await a.sync();
    // Forty edits ahead of ours, each answered slowly: the push takes about two seconds before it reaches ours.
    for (const f of fillers)
      await a.call('UpdateAnnotation', { annotation: { annotationId: f, description: 'checked' }, updateMask: 'description' });
    await a.call('UpdateAnnotation', { annotation: { annotationId: id, name: 'ours, earlier' }, updateMask: 'name' });
    for (let i = 0; i < fillers.length; i++)
      proxy.once({ kind: 'delay', ms: 100 }, (r) => r.method === 'PATCH' && r.body.includes('checked'));
    const seen = proxy.log.length;
    const syncing = a.sync({ concurrency: 2, pushRereadEveryMs: 200 });
    // Once the push is under way (its first edits have been sent), a colleague renames the annotation.
    await vi.waitFor(() => expect(proxy.log.slice(seen).some((r) => r.method === 'PATCH')).toBe(true), { timeout: 5_000, interval: 5 });
    await remote.client.UpdateAnnotation({ annotation: { annotationId: id, name: 'theirs, later' }, updateMask: 'name' });
    const s = await syncing;
    expect(s.ok).toBe(true);
    expect((await remote.client.GetAnnotation({ annotationId: id })).annotation.name).toBe('theirs, later');
    expect((await a.call('GetAnnotation', { annotationId: id })).annotation.name).toBe('theirs, later');
    const conflicts = (await a.call('ListSyncConflicts', {})).conflicts;
    expect(conflicts).toMatchObject([
      { recordId: id, field: 'name', winner: 'remote', localValue: 'ours, earlier', remoteValue: 'theirs, later' },
    ]);
    // Ours never left; every filler edit did.
    expect(proxy.log.some((r) => r.method === 'PATCH' && r.body.includes('ours, earlier'))).toBe(false);
    expect(remoteCount("SELECT count(*) AS n FROM annotations WHERE description = 'checked'")).toBe(40);
  });
});

describe('refusals', () => {
  test('a 4xx fails its entry with the message, fails its dependents, and blocks nothing else; Retry queues them again together', async () => {
    // An asset only the replica knows: the remote refuses the create (400).
    insertAsset(a.engine.db, '6b6b6b6b-0000-4000-a000-000000000002', 'Local-Only');
    const bad = (await a.call('CreateAnnotation', { ...annotationRequest('refused'), assets: ['Local-Only'] })).annotation.annotationId;
    await a.call('CreateAnnotationLog', comment(bad, 'on the refused one'));
    const good = await offlineCreate('accepted');
    const s = await a.sync();
    expect(s.ok).toBe(true);
    expect(s.progress.failed).toBe(2);
    expect(remoteCount('SELECT count(*) AS n FROM annotations')).toBe(1);
    const failed = (await a.call('ListSyncOutbox', { state: 'failed' })).entries;
    expect(failed.map((e: any) => e.operation)).toEqual(['CreateAnnotation', 'CreateAnnotationLog']);
    expect(failed[0].lastError).toMatch(/Local-Only/);
    expect(failed[0].errorCode).toBe(3);
    expect(failed[1].lastError).toMatch(/depends on/);
    // Each names the record it writes, as the sync view shows it.
    expect(failed.map((e: any) => e.records)).toEqual([0, 1].map(() => [{ resource: 'annotation', recordId: bad, name: 'refused' }]));
    expect((await a.call('GetSyncStatus', {})).failedCount).toBe(2);
    // The accepted one is on the remote under its new id.
    expect(Object.values(viewOf(remote.engine.db).annotations).map((x) => x.name)).toEqual(['accepted']);
    void good;

    // Once the remote has the asset, Retry of the create queues the comment that waited on it too; both land.
    insertAsset(remote.engine.db, '6b6b6b6b-0000-4000-a000-000000000003', 'Local-Only');
    expect((await a.call('RetrySyncEntry', { seq: failed[0].seq })).entry.state).toBe('pending');
    expect((await a.call('ListSyncOutbox', { state: 'failed' })).entries).toEqual([]);
    const retried = await a.sync();
    expect(retried.progress.pushed).toBe(2);
    expect(retried.failedEntries).toBe(0);
    const landed = Object.values(viewOf(remote.engine.db).annotations).find((x) => x.name === 'refused');
    expect(landed).toBeDefined();
    expect(
      remote.engine.db.get<{ n: number }>(
        "SELECT count(*) AS n FROM annotation_logs WHERE kind = 1 AND comment_body LIKE '%on the refused one%'",
      )!.n,
    ).toBe(1);
  });

  test("a refused create retried, whose answer is lost, edited here and then later by a colleague: the colleague's edit stands and ours is logged as lost (soak seed 5051)", async () => {
    insertAsset(a.engine.db, '6b6b6b6b-0000-4000-a000-000000000004', 'Local-Only');
    const id = (await a.call('CreateAnnotation', { ...annotationRequest('refused'), assets: ['Local-Only'] })).annotation.annotationId;
    await a.sync();
    const [failed] = (await a.call('ListSyncOutbox', { state: 'failed' })).entries;
    insertAsset(remote.engine.db, '6b6b6b6b-0000-4000-a000-000000000005', 'Local-Only');
    await a.call('RetrySyncEntry', { seq: failed.seq });
    // The create lands, its answer does not: it stays in flight here.
    loseThenLinkDown(proxy, isCreateAnnotation);
    await a.sync(ONE_TRY);
    proxy.refuse(undefined);
    const [copy] = Object.values(viewOf(remote.engine.db).annotations);
    await a.call('UpdateAnnotation', { annotation: { annotationId: id, description: 'ours, earlier' }, updateMask: 'description' });
    await new Promise((r) => setTimeout(r, 5));
    await remote.client.UpdateAnnotation({
      annotation: { annotationId: copy.annotationId, description: 'theirs, later' },
      updateMask: 'description',
    });
    // The pull adopts the copy by its marker and merges: the colleague's later edit of it is a change, not our create's content.
    expect((await a.sync()).ok).toBe(true);
    expect((await remote.client.GetAnnotation({ annotationId: copy.annotationId })).annotation.description).toBe('theirs, later');
    expect((await a.call('GetAnnotation', { annotationId: copy.annotationId })).annotation.description).toBe('theirs, later');
    expect((await a.call('ListSyncConflicts', {})).conflicts).toMatchObject([
      { recordId: copy.annotationId, field: 'description', winner: 'remote', localValue: 'ours, earlier', remoteValue: 'theirs, later' },
    ]);
  });

  test("Retry of a refused create also queues what waited on the edits that waited on it: an artifact linked to it, and that artifact's archive and new version", async () => {
    proxy.refuse((r) => r.method === 'POST' && r.path === '/api/v1/annotations' && r.body.includes('"name":"x:'), {
      status: 400,
      code: Code.INVALID_ARGUMENT,
      message: "name: 'x:' is not allowed",
    });
    const bad = await offlineCreate('x:refused');
    const link = { relation: 'ARTIFACT_LINK_RELATION_ATTACHED_TO', entityType: 'ARTIFACT_ENTITY_TYPE_ANNOTATION', entityId: bad };
    const { artifact } = await a.call('UploadArtifact', {
      file: stageUpload(a.dir, 'first', 'frame.jpg', 'image/jpeg'),
      title: 'frame',
      links: JSON.stringify([link]),
    });
    await a.call('CreateArtifactVersion', {
      artifactId: artifact.artifactId,
      file: stageUpload(a.dir, 'second', 'frame-2.jpg', 'image/jpeg'),
    });
    await a.call('ArchiveArtifact', { artifactId: artifact.artifactId });
    expect((await a.sync()).failedEntries).toBe(4);
    const failed = (await a.call('ListSyncOutbox', { state: 'failed' })).entries;
    expect(failed.map((e: any) => e.operation)).toEqual(['CreateAnnotation', 'UploadArtifact', 'CreateArtifactVersion', 'ArchiveArtifact']);

    await a.call('UpdateAnnotation', { annotation: { annotationId: bad, name: 'corrected' }, updateMask: 'name' });
    await a.call('RetrySyncEntry', { seq: failed[0].seq });
    expect((await a.call('ListSyncOutbox', { state: 'failed' })).entries).toEqual([]);
    const s = await a.sync();
    expect(s.failedEntries).toBe(0);
    expect(Object.values(viewOf(remote.engine.db).annotations).map((x) => x.name)).toEqual(['corrected']);
    expect(artifactView(remote.engine).map((x) => [x.title, x.version, x.archived, x.links.length])).toEqual([['frame', 2, true, 1]]);
  });

  test('Retry of a refused create sends the record as it is now: a correction made after the refusal goes with it', async () => {
    // A colleague only the replica still counts as a member (they left the team on the remote).
    const db = a.engine.db;
    const org = a.caller().organizations[0].id;
    const leaver = '7c7c7c7c-0000-4000-a000-000000000001';
    db.run('INSERT INTO users(id, user_name, created_date, modified_date) VALUES (?, ?, ?, ?)', [
      leaver,
      'leaver@example.com',
      nowMicros(),
      nowMicros(),
    ]);
    db.run('INSERT INTO memberships(user_id, organization_id) VALUES (?, ?)', [leaver, org]);
    // Every field a create carries, so the rebuilt request is seen to keep them all.
    const rich = {
      assignToUserId: leaver,
      description: 'valve 2 chatter',
      tags: ['hot-fire', 'valves'],
      legendConfig: '{"color":"red"}',
      state: 'ANNOTATION_STATE_FLAGGED',
      metadata: [
        { key: { name: 'station', type: 'METADATA_KEY_TYPE_STRING' }, stringValue: 'S-7' },
        { key: { name: 'pressure', type: 'METADATA_KEY_TYPE_NUMBER' }, numberValue: 41.5 },
        { key: { name: 'reviewed', type: 'METADATA_KEY_TYPE_BOOLEAN' }, booleanValue: true },
      ],
    };
    const id = (await a.call('CreateAnnotation', annotationRequest('handover', rich))).annotation.annotationId;
    await a.call('CreateAnnotationLog', comment(id, 'over to you'));
    expect((await a.sync()).progress.failed).toBe(2);
    const [create] = (await a.call('ListSyncOutbox', { state: 'failed' })).entries;
    expect(create).toMatchObject({
      operation: 'CreateAnnotation',
      errorCode: Code.INVALID_ARGUMENT,
      lastError: expect.stringMatching(/unknown user/),
    });

    // The reviewer takes it over and renames it; those edits wait on the create (and fail with it).
    const me = a.caller().userId;
    await a.call('UpdateAnnotation', {
      annotation: { annotationId: id, assignedToUserId: me, name: 'handover (mine)' },
      updateMask: 'assigned_to_user_id,name',
    });
    expect((await a.sync()).progress.failed).toBe(1);
    expect(remoteCount('SELECT count(*) AS n FROM annotations')).toBe(0);

    await a.call('RetrySyncEntry', { seq: create.seq });
    const s = await a.sync();
    expect(s.failedEntries).toBe(0);
    expect(s.progress.pushed).toBe(3);
    const landed = Object.values(viewOf(remote.engine.db).annotations);
    expect(landed.map((x) => [x.name, x.assignedToUserId])).toEqual([['handover (mine)', me]]);
    expect(remoteCount("SELECT count(*) AS n FROM annotation_logs WHERE kind = 1 AND comment_body LIKE '%over to you%'")).toBe(1);
    await a.sync();
    expect(viewOf(a.engine.db)).toEqual(viewOf(remote.engine.db));
  });

  test('the same for a saved search: renamed after the refusal, it lands under the new name', async () => {
    proxy.refuse((r) => r.method === 'POST' && r.body.includes('"Pumps/all"'), {
      status: 400,
      code: Code.INVALID_ARGUMENT,
      message: "name: '/' is not allowed",
    });
    const { savedSearch } = await a.call('CreateSavedSearch', {
      name: 'Pumps/all',
      properties: { overviewMode: 'OVERVIEW_MODE_ANNOTATIONS', searchTerm: 'pump' },
    });
    expect((await a.sync()).progress.failed).toBe(1);
    await a.call('UpdateSavedSearch', {
      savedSearch: { savedSearchId: savedSearch.savedSearchId, name: 'Pumps, all' },
      updateMask: 'name',
    });
    const [create] = (await a.call('ListSyncOutbox', { state: 'failed' })).entries;
    await a.call('RetrySyncEntry', { seq: create.seq });
    expect((await a.sync()).failedEntries).toBe(0);
    const remoteSearches = (await remote.client.ListSavedSearches({})).savedSearches;
    expect(remoteSearches.map((x: any) => [x.name, x.properties.searchTerm])).toEqual([['Pumps, all', 'pump']]);
    // The local record now stands for it.
    expect((await a.call('ListSavedSearches', {})).savedSearches.map((x: any) => x.savedSearchId)).toEqual([
      remoteSearches[0].savedSearchId,
    ]);
  });

  test('a refused create is discarded only when asked to: its record goes here with the comments and edits that waited on it, and nothing is sent', async () => {
    const db = a.engine.db;
    insertAsset(db, '6b6b6b6b-0000-4000-a000-000000000004', 'Local-Only');
    const { annotation: kept } = await remote.client.CreateAnnotation(annotationRequest('kept'));
    await a.sync();
    const bad = (await a.call('CreateAnnotation', { ...annotationRequest('never there'), assets: ['Local-Only'] })).annotation.annotationId;
    await a.call('CreateAnnotationLog', comment(bad, 'about the rig'));
    await a.call('UpdateAnnotation', { annotation: { annotationId: bad, description: 'rig 9' }, updateMask: 'description' });
    await a.call('BatchArchiveAnnotations', { annotationIds: [bad, kept.annotationId] });
    proxy.refuse((r) => r.method === 'POST' && r.body.includes('"Pumps/all"'), {
      status: 400,
      code: Code.INVALID_ARGUMENT,
      message: "name: '/' is not allowed",
    });
    await a.call('CreateSavedSearch', { name: 'Pumps/all', properties: { overviewMode: 'OVERVIEW_MODE_ANNOTATIONS' } });
    expect((await a.sync()).progress.failed).toBe(5);
    const failed = (await a.call('ListSyncOutbox', { state: 'failed' })).entries;
    expect(failed.map((e: any) => [e.operation, e.dismissable, e.discardable])).toEqual([
      ['CreateAnnotation', false, true],
      // (A comment can be given up on its own too.)
      ['CreateAnnotationLog', false, true],
      ['UpdateAnnotation', true, false],
      ['BatchArchiveAnnotations', true, false],
      ['CreateSavedSearch', false, true],
    ]);
    const [create, , , batch, searchCreate] = failed;

    // Not without saying so; not while an edit that waited on it also writes another record.
    await expect(a.call('DismissSyncEntry', { seq: create.seq })).rejects.toMatchObject({
      code: Code.FAILED_PRECONDITION,
      message: expect.stringMatching(/discard_record/),
    });
    await expect(a.call('DismissSyncEntry', { seq: create.seq, discardRecord: true })).rejects.toMatchObject({
      code: Code.FAILED_PRECONDITION,
      message: expect.stringMatching(new RegExp(`entry ${batch.seq} \\(BatchArchiveAnnotations\\).*also writes other records`)),
    });
    expect((await a.call('GetAnnotation', { annotationId: bad })).annotation.description).toBe('rig 9');

    await a.call('DismissSyncEntry', { seq: batch.seq });
    expect((await a.call('DismissSyncEntry', { seq: create.seq, discardRecord: true })).entry).toMatchObject({
      state: 'dismissed',
      discardable: false,
    });
    await expect(a.call('GetAnnotation', { annotationId: bad })).rejects.toMatchObject({ code: Code.NOT_FOUND });
    expect(db.get<{ n: number }>('SELECT count(*) AS n FROM annotation_logs WHERE annotation_id = ?', [bad])!.n).toBe(0);
    expect(db.get<{ n: number }>('SELECT count(*) AS n FROM sync_id_map WHERE local_id = ?', [bad])!.n).toBe(0);
    expect((await a.call('DismissSyncEntry', { seq: searchCreate.seq, discardRecord: true })).entry.state).toBe('dismissed');
    expect((await a.call('ListSavedSearches', {})).savedSearches).toEqual([]);

    expect((await a.call('ListSyncOutbox', { state: 'failed' })).entries).toEqual([]);
    expect((await a.call('GetSyncStatus', {})).failedCount).toBe(0);
    expect((await a.call('ListSyncOutbox', { state: 'all' })).entries.filter((e: any) => e.state === 'dismissed')).toHaveLength(5);
    const next = await a.sync();
    expect(next.ok).toBe(true);
    expect(next.progress.pushed).toBe(0);
    expect(Object.values(viewOf(remote.engine.db).annotations).map((x) => [x.name, x.isArchived])).toEqual([['kept', false]]);
    expect(viewOf(a.engine.db)).toEqual(viewOf(remote.engine.db));
  });

  test('an edit set aside while the push that queued it runs is neither sent nor counted as pushed', async () => {
    const fillers = await Promise.all(
      Array.from(
        { length: 40 },
        async (_, i) => (await remote.client.CreateAnnotation(annotationRequest(`filler ${i}`))).annotation.annotationId,
      ),
    );
    await a.sync();
    proxy.refuse(isCreateAnnotation, { status: 400, code: Code.INVALID_ARGUMENT, message: 'asset: not found' });
    const bad = await offlineCreate('refused');
    expect((await a.sync()).failedEntries).toBe(1);
    proxy.refuse(undefined);
    // Forty slow edits ahead of a comment on the refused annotation, which the push queues with them.
    for (const f of fillers)
      await a.call('UpdateAnnotation', { annotation: { annotationId: f, description: 'checked' }, updateMask: 'description' });
    await a.call('CreateAnnotationLog', comment(bad, 'queued behind the fillers'));
    for (let i = 0; i < fillers.length; i++)
      proxy.once({ kind: 'delay', ms: 50 }, (r) => r.method === 'PATCH' && r.body.includes('checked'));
    const seen = proxy.log.length;
    const syncing = a.sync({ concurrency: 2 });
    await vi.waitFor(() => expect(proxy.log.slice(seen).some((r) => r.method === 'PATCH')).toBe(true), { timeout: 5_000, interval: 5 });
    const [create] = (await a.call('ListSyncOutbox', { state: 'failed' })).entries;
    expect((await a.call('DismissSyncEntry', { seq: create.seq, discardRecord: true })).entry.state).toBe('dismissed');
    const s = await syncing;
    expect(s.ok).toBe(true);
    expect(s.progress.pushed).toBe(40);
    expect(proxy.log.some((r) => isCreateLog(r))).toBe(false);
    expect(
      (await a.call('ListSyncOutbox', { state: 'all' })).entries.filter((e: any) => e.state === 'dismissed').map((e: any) => e.operation),
    ).toEqual(['CreateAnnotation', 'CreateAnnotationLog']);
  });

  test("a refused update can be dismissed: it leaves the refused list and the count, and the remote's version stands; a refused create cannot be", async () => {
    const { annotation } = await remote.client.CreateAnnotation(annotationRequest('pump'));
    const id = annotation.annotationId;
    await a.sync();
    await a.call('UpdateAnnotation', { annotation: { annotationId: id, name: 'not allowed there' }, updateMask: 'name' });
    await offlineCreate('also refused');
    proxy.refuse((r) => r.method !== 'GET', { status: 400, code: Code.INVALID_ARGUMENT, message: 'name: not allowed here' });
    expect((await a.sync()).progress.failed).toBe(2);
    proxy.refuse(undefined);
    const [update, create] = (await a.call('ListSyncOutbox', { state: 'failed' })).entries;
    expect(update).toMatchObject({ operation: 'UpdateAnnotation', dismissable: true });
    expect(create).toMatchObject({ operation: 'CreateAnnotation', dismissable: false });
    expect((await a.call('GetAnnotation', { annotationId: id })).annotation.name).toBe('pump');

    expect((await a.call('DismissSyncEntry', { seq: update.seq })).entry).toMatchObject({
      seq: update.seq,
      state: 'dismissed',
      dismissable: false,
    });
    expect((await a.call('ListSyncOutbox', { state: 'failed' })).entries.map((e: any) => e.seq)).toEqual([create.seq]);
    expect((await a.call('ListSyncOutbox', { state: 'all' })).entries.find((e: any) => e.seq === update.seq).state).toBe('dismissed');
    expect((await a.call('GetSyncStatus', {})).failedCount).toBe(1);
    await expect(a.call('DismissSyncEntry', { seq: update.seq })).rejects.toMatchObject({
      code: Code.FAILED_PRECONDITION,
      message: expect.stringMatching(/is dismissed/),
    });
    await expect(a.call('DismissSyncEntry', { seq: create.seq })).rejects.toMatchObject({
      code: Code.FAILED_PRECONDITION,
      message: expect.stringMatching(/exists only here/),
    });
    await expect(a.call('DismissSyncEntry', { seq: '999999' })).rejects.toMatchObject({ code: Code.NOT_FOUND });
    // Nothing dismissed is sent again.
    const next = await a.sync();
    expect(next.progress.pushed).toBe(0);
    expect((await remote.client.GetAnnotation({ annotationId: id })).annotation.name).toBe('pump');
  });

  test("a refused edit's record is read again from the remote, at the next pull when that read fails at once: the copy here does not keep a value the remote never took", async () => {
    const { annotation } = await remote.client.CreateAnnotation(annotationRequest('pump'));
    const id = annotation.annotationId;
    await remote.client.CreateAnnotation(annotationRequest('a later one')); // the cursor passes the pump's version
    const noOverlap = { overlapMs: 0 }; // no window re-reads the pump by chance
    await a.sync(noOverlap);
    const logsOf = async () =>
      (await a.call('ListAnnotationLogs', { annotationId: id })).annotationLogs.map((l: any) => l.stateUpdate?.state ?? l.kind);
    await a.call('UpdateAnnotation', {
      annotation: { annotationId: id, name: 'not allowed there', state: 'ANNOTATION_STATE_FLAGGED' },
      updateMask: 'name,state',
    });
    expect(await logsOf()).toContain('ANNOTATION_LOG_STATE_FLAGGED'); // the history log the change wrote here
    proxy.refuse((r) => r.method === 'PATCH' || (r.method === 'GET' && r.path === `/api/v1/annotations/${id}`), {
      status: 400,
      code: Code.INVALID_ARGUMENT,
      message: 'name: not allowed here',
    });
    expect((await a.sync(noOverlap)).failedEntries).toBe(1);
    expect((await a.call('GetAnnotation', { annotationId: id })).annotation.name).toBe('not allowed there');
    expect(a.engine.db.all('SELECT resource, record_id FROM sync_refetch')).toEqual([{ resource: 'annotation', record_id: id }]);
    // The change did not happen: its history log is gone at once.
    expect(await logsOf()).not.toContain('ANNOTATION_LOG_STATE_FLAGGED');

    proxy.refuse(undefined);
    const next = await a.sync(noOverlap);
    expect(next.ok).toBe(true);
    expect(next.progress.pushed).toBe(0);
    expect((await a.call('GetAnnotation', { annotationId: id })).annotation.name).toBe('pump');
    expect(a.engine.db.all('SELECT * FROM sync_refetch')).toEqual([]);
    expect(viewOf(a.engine.db)).toEqual(viewOf(remote.engine.db));
    // The refused edit stays listed until the user retries or dismisses it.
    expect((await a.call('ListSyncOutbox', { state: 'failed' })).entries.map((e: any) => e.operation)).toEqual(['UpdateAnnotation']);
  });

  test("the same for a saved search: a refused rename gives way to the remote's name", async () => {
    const { savedSearch } = await remote.client.CreateSavedSearch({
      name: 'Pumps',
      properties: { overviewMode: 'OVERVIEW_MODE_ANNOTATIONS' },
    });
    await remote.client.CreateSavedSearch({ name: 'Later', properties: { overviewMode: 'OVERVIEW_MODE_ANNOTATIONS' } });
    await a.sync({ overlapMs: 0 });
    await a.call('UpdateSavedSearch', { savedSearch: { savedSearchId: savedSearch.savedSearchId, name: 'Pumps/all' }, updateMask: 'name' });
    proxy.refuse((r) => r.method === 'PATCH', { status: 400, code: Code.INVALID_ARGUMENT, message: "name: '/' is not allowed" });
    expect((await a.sync({ overlapMs: 0 })).failedEntries).toBe(1);
    expect((await a.call('GetSavedSearch', { savedSearchId: savedSearch.savedSearchId })).savedSearch.name).toBe('Pumps');
    expect(a.engine.db.all('SELECT * FROM sync_refetch')).toEqual([]);
  });

  test('a dismissed edit takes the history logs it wrote here with it: a state change on a refused create, dismissed before the create is corrected', async () => {
    proxy.refuse((r) => r.method === 'POST' && r.path === '/api/v1/annotations' && r.body.includes('"name":"x:'), {
      status: 400,
      code: Code.INVALID_ARGUMENT,
      message: "name: 'x:' is not allowed",
    });
    const id = await offlineCreate('x:refused');
    await a.call('UpdateAnnotation', { annotation: { annotationId: id, state: 'ANNOTATION_STATE_RESOLVED' }, updateMask: 'state' });
    expect((await a.sync()).failedEntries).toBe(2);
    const [create, update] = (await a.call('ListSyncOutbox', { state: 'failed' })).entries;
    expect(update).toMatchObject({ operation: 'UpdateAnnotation', dismissable: true, lastError: expect.stringMatching(/^depends on/) });
    const stateLogs = () =>
      a.engine.db.get<{ n: number }>('SELECT count(*) AS n FROM annotation_logs WHERE annotation_id = ? AND kind = 2 AND state = 4', [id])!
        .n;
    expect(stateLogs()).toBe(1);
    await a.call('DismissSyncEntry', { seq: update.seq });
    expect(stateLogs()).toBe(0);
    // The record keeps its state (nothing remote to go back to): the corrected create carries it, and the remote writes its own history.
    await a.call('UpdateAnnotation', { annotation: { annotationId: id, name: 'corrected' }, updateMask: 'name' });
    await a.call('RetrySyncEntry', { seq: create.seq });
    const s = await a.sync();
    expect(s.failedEntries).toBe(0);
    expect(Object.values(viewOf(remote.engine.db).annotations).map((x) => [x.name, x.state])).toEqual([
      ['corrected', 'ANNOTATION_STATE_RESOLVED'],
    ]);
    expect(viewOf(a.engine.db)).toEqual(viewOf(remote.engine.db));
  });

  test('the outbox names the records an edit writes, while they are held here', async () => {
    const { annotation } = await remote.client.CreateAnnotation(annotationRequest('pump 3 overheat'));
    const { annotationLog } = await remote.client.CreateAnnotationLog(comment(annotation.annotationId, 'seen it'));
    await a.sync();
    await a.call('DeleteAnnotationLog', { annotationId: annotation.annotationId, annotationLogId: annotationLog.annotationLogId });
    expect((await a.call('ListSyncOutbox', {})).entries.map((e: any) => e.records)).toEqual([
      [
        { resource: 'annotation', recordId: annotation.annotationId, name: 'pump 3 overheat' },
        { resource: 'annotation_log', recordId: annotationLog.annotationLogId, name: '' },
      ],
    ]);
  });

  test('an update of a record gone from the remote keeps the local copy and reports a conflict', async () => {
    const { annotation } = await remote.client.CreateAnnotation(annotationRequest('doomed'));
    await a.sync();
    await a.call('UpdateAnnotation', {
      annotation: { annotationId: annotation.annotationId, description: 'my notes' },
      updateMask: 'description',
    });
    remote.engine.db.run('DELETE FROM annotations WHERE id = ?', [annotation.annotationId]);
    const s = await a.sync();
    expect(s.ok).toBe(true);
    expect(s.progress.failed).toBe(1);
    const local = await a.call('GetAnnotation', { annotationId: annotation.annotationId });
    expect(local.annotation.description).toBe('my notes');
    const conflicts = (await a.call('ListSyncConflicts', {})).conflicts;
    expect(conflicts).toHaveLength(1);
    expect(conflicts[0]).toMatchObject({
      kind: 'remote_missing',
      recordId: annotation.annotationId,
      recordName: 'doomed',
      winner: 'local',
    });
    expect(conflicts[0].localValue.description).toBe('my notes');
  });
});
