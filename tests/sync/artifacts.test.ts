// Artifacts replicate both ways: offline uploads (streamed from the local
// content store), structured artifacts, new versions, links (also to an
// annotation created offline) and archives reach the remote exactly once,
// through lost responses too; another replica pulls them with their content;
// links merge per link; a remote without artifact routes (the platform) keeps
// the artifact entries pending without holding up anything else.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unarchivedMetadata } from '../support/assertions';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { Code } from '../../src-shared/errors';
import { contentPath } from '../../src-main/services/artifacts/artifactStorage';
import type { SyncEvent } from '../../src-main/sync/session';
import { artifactView, binary, onRemote, openEntries, sha256, stageUpload } from './artifactKit';
import { type FaultProxy, type RequestInfo } from './faultProxy';
import { annotationRequest, closeProxiedPair, createReplica, ONE_TRY, openProxiedPair, type RemoteServer, type Replica } from './helpers';

let remote: RemoteServer;
let proxy: FaultProxy;
let a: Replica;
const extra: Replica[] = [];

beforeEach(async () => ({ remote, proxy, a } = await openProxiedPair()));
afterEach(async () => {
  for (const r of extra.splice(0)) r.close();
  await closeProxiedPair({ remote, proxy, a });
});

const isUpload = (r: RequestInfo) => r.method === 'POST' && r.path.startsWith('/api/v1/artifacts:upload');
const isNewVersion = (r: RequestInfo) => r.method === 'POST' && /^\/api\/v1\/artifacts\/[^/]+\/versions/.test(r.path);
const isArtifactRoute = (r: RequestInfo) => r.path.startsWith('/api/v1/artifacts');
const ATTACHED_TO = 'ARTIFACT_LINK_RELATION_ATTACHED_TO';
const REFERENCES = 'ARTIFACT_LINK_RELATION_REFERENCES';
const ANNOTATION = 'ARTIFACT_ENTITY_TYPE_ANNOTATION';
const open = (r: Replica) => openEntries(r.engine.db);

describe('sync: artifacts', () => {
  test('offline upload, structured artifact, new version and links to an offline annotation reach the remote once, through lost responses; another replica pulls them with content', async () => {
    const v1 = binary(3 * 1024 * 1024 + 17);
    const v2 = binary(2 * 1024 * 1024 + 5);
    const { annotation } = await a.call('CreateAnnotation', annotationRequest('with evidence'));
    const { artifact: upload } = await a.call('UploadArtifact', {
      file: stageUpload(a.dir, v1, 'capture.bin'),
      title: 'capture',
      metadata: JSON.stringify([{ key: { name: 'rig', type: 'METADATA_KEY_TYPE_STRING' }, stringValue: 'R1' }]),
      links: JSON.stringify([{ relation: ATTACHED_TO, entityType: ANNOTATION, entityId: annotation.annotationId }]),
    });
    const { artifact: structured } = await a.call('CreateStructuredArtifact', {
      title: 'settings',
      content: { gain: 3, axes: ['x', 'y'] },
    });
    await a.call('CreateArtifactVersion', { artifactId: upload.artifactId, file: stageUpload(a.dir, v2, 'capture-2.bin') });
    await a.call('LinkArtifact', {
      artifactId: structured.artifactId,
      relation: REFERENCES,
      entityType: ANNOTATION,
      entityId: annotation.annotationId,
    });
    // The uploaded temporary files are gone (moved into the store): the push streams the stored content.
    expect(open(a).map((e) => e.operation)).toEqual([
      'CreateAnnotation',
      'UploadArtifact',
      'CreateStructuredArtifact',
      'CreateArtifactVersion',
      'LinkArtifact',
    ]);

    proxy.once({ kind: 'lose' }, isUpload);
    proxy.once({ kind: 'lose' }, isNewVersion);
    const s = await a.sync();
    expect(s.error).toBeUndefined();
    expect(s.ok).toBe(true);
    expect(s.pending).toBe(0);
    expect(s.progress.recovered).toBe(2);
    expect(proxy.forwarded(isUpload)).toBe(1);
    expect(proxy.forwarded(isNewVersion)).toBe(1);

    const onRemoteSide = artifactView(remote.engine);
    expect(onRemoteSide.map((x) => x.title)).toEqual(['capture', 'settings']);
    const [capture, settings] = onRemoteSide;
    const remoteAnnotationId = remote.engine.db.get<{ id: string }>('SELECT id FROM annotations')!.id;
    expect(remoteAnnotationId).not.toBe(annotation.annotationId);
    expect(capture.id).not.toBe(upload.artifactId);
    expect(capture.version).toBe(2);
    expect(capture.versions.map((v) => [v.version, v.size, v.contentSha])).toEqual([
      [1, v1.length, sha256(v1)],
      [2, v2.length, sha256(v2)],
    ]);
    expect(capture.sha256).toBe(sha256(v2));
    expect(capture.metadata).toEqual(unarchivedMetadata({ key: { name: 'rig', type: 'METADATA_KEY_TYPE_STRING' }, stringValue: 'R1' }));
    expect(capture.links).toEqual([{ relation: 1, entityType: 1, entityId: remoteAnnotationId, versionId: capture.versions[0].id }]);
    expect(settings.links).toEqual([{ relation: 3, entityType: 1, entityId: remoteAnnotationId, versionId: settings.currentVersionId }]);
    expect(settings.versions.map((v) => v.contentSha)).toEqual([sha256(JSON.stringify({ gain: 3, axes: ['x', 'y'] }))]);

    // The replica now holds exactly the remote's records (remote ids, same versions and content).
    expect(artifactView(a.engine)).toEqual(onRemoteSide);
    expect((await a.call('GetArtifact', { artifactId: upload.artifactId })).artifact.artifactId).toBe(capture.id);

    const again = await a.sync();
    expect(again.progress.pushed).toBe(0);
    expect(artifactView(remote.engine)).toEqual(onRemoteSide);

    const b = await createReplica('b', remote.url, remote.token);
    extra.push(b);
    const sb = await b.sync();
    expect(sb.ok).toBe(true);
    expect(artifactView(b.engine)).toEqual(onRemoteSide);
  });

  test('a lost upload response left unresolved by the push is adopted by the pull that meets its marker', async () => {
    const bytes = binary(1024 * 1024);
    const { artifact } = await a.call('UploadArtifact', { file: stageUpload(a.dir, bytes, 'trace.bin'), title: 'trace' });
    await a.call('ArchiveArtifact', { artifactId: artifact.artifactId });
    proxy.once({ kind: 'lose' }, isUpload);
    // One try per request: the push gives up on the lost upload; the pull after it finds the remote copy.
    const s = await a.sync(ONE_TRY);
    expect(s.ok).toBe(false);
    const result = a.engine.db.get<{ state: string; result: string }>(
      "SELECT state, result FROM sync_outbox WHERE operation = 'UploadArtifact'",
    )!;
    expect(result.state).toBe('done');
    expect(JSON.parse(result.result)).toMatchObject({ adoptedBy: 'pull' });
    const s2 = await a.sync();
    expect(s2.ok).toBe(true);
    expect(s2.pending).toBe(0);
    expect(proxy.forwarded(isUpload)).toBe(1);
    const view = artifactView(remote.engine);
    expect(view.map((x) => [x.title, x.archived, x.versions[0].contentSha])).toEqual([['trace', true, sha256(bytes)]]);
    expect(artifactView(a.engine)).toEqual(view);
    // Adopted, not downloaded again: the replica's store holds the one file it uploaded.
    expect(readdirSync(join(a.dir, 'artifacts'), { recursive: true, withFileTypes: true }).filter((f) => f.isFile())).toHaveLength(1);
  });

  test('an upload replayed by a middlebox: the extra copy on the remote is archived and logged as a duplicate', async () => {
    const bytes = binary(500_000);
    await a.call('UploadArtifact', { file: stageUpload(a.dir, bytes, 'twice.bin'), title: 'twice' });
    proxy.once({ kind: 'duplicate' }, isUpload);
    const s = await a.sync();
    expect(s.ok).toBe(true);
    expect(proxy.forwarded(isUpload)).toBe(2);
    const view = artifactView(remote.engine);
    expect(view.map((x) => x.title)).toEqual(['twice', 'twice']);
    expect(view.map((x) => x.archived).sort()).toEqual([false, true]);
    const live = view.filter((x) => !x.archived);
    expect(live).toHaveLength(1);
    expect(live[0].versions[0].contentSha).toBe(sha256(bytes));
    const conflict = a.engine.db.get<{ kind: string; record_id: string; local_value: string }>(
      'SELECT kind, record_id, local_value FROM sync_conflicts',
    )!;
    expect(conflict.kind).toBe('duplicate');
    expect(JSON.parse(conflict.local_value)).toBe(live[0].id);
    expect(conflict.record_id).toBe(view.find((x) => x.archived)!.id);
    expect(
      artifactView(a.engine)
        .map((x) => [x.id, x.archived])
        .sort(),
    ).toEqual(view.map((x) => [x.id, x.archived]).sort());
  });

  test('without a filter engine on the remote, a lost upload is found by a newest-first scan and pulls still work (archived ones need the filter)', async () => {
    proxy.rejectFilters(true);
    const { artifact } = await onRemote(remote.engine, 'CreateStructuredArtifact', { title: 'remote one', content: 1 });
    await onRemote(remote.engine, 'ArchiveArtifact', { artifactId: artifact.artifactId });
    await a.call('UploadArtifact', { file: stageUpload(a.dir, binary(200_000), 'local.bin'), title: 'local one' });
    proxy.once({ kind: 'lose' }, isUpload);
    const s = await a.sync();
    expect(s.ok).toBe(true);
    expect(s.progress.recovered).toBe(1);
    expect(proxy.forwarded(isUpload)).toBe(1);
    expect(proxy.log.some((r) => r.fault === 'no-filter' && isArtifactRoute(r))).toBe(true);
    const view = artifactView(remote.engine);
    expect(view.map((x) => [x.title, x.archived])).toEqual([
      ['local one', false],
      ['remote one', true],
    ]);
    // ListArtifacts lists archived artifacts only through its filter's include_archived (seed spec): without filters, not at all.
    expect(artifactView(a.engine)).toEqual(view.filter((x) => !x.archived));
  });

  test('versions added on both sides are both kept; the offline one is numbered after the remote one', async () => {
    const { artifact } = await onRemote(remote.engine, 'UploadArtifact', { file: stageUpload(remote.dataDir, binary(100_000), 'log.bin') });
    await a.sync();
    const mine = binary(150_000);
    const theirs = binary(120_000);
    await a.call('CreateArtifactVersion', { artifactId: artifact.artifactId, file: stageUpload(a.dir, mine, 'log-a.bin') });
    await onRemote(remote.engine, 'CreateArtifactVersion', {
      artifactId: artifact.artifactId,
      file: stageUpload(remote.dataDir, theirs, 'log-r.bin'),
    });
    const s = await a.sync();
    expect(s.ok).toBe(true);
    expect(s.openConflicts).toBe(0);
    const [x] = artifactView(remote.engine);
    expect(x.versions.map((v) => [v.version, v.contentSha])).toEqual([
      [1, x.versions[0].contentSha],
      [2, sha256(theirs)],
      [3, sha256(mine)],
    ]);
    expect(x.version).toBe(3);
    expect(artifactView(a.engine)).toEqual([x]);
  });

  test('a version sent in a run that ended before its response (entry left in flight) is found by the next run, not sent again, though that run pulls first', async () => {
    const { artifact } = await onRemote(remote.engine, 'UploadArtifact', { file: stageUpload(remote.dataDir, binary(10_000), 'log.bin') });
    await a.sync();
    const mine = binary(5_000);
    await a.call('CreateArtifactVersion', { artifactId: artifact.artifactId, file: stageUpload(a.dir, mine, 'log-2.bin') });
    proxy.once({ kind: 'lose' }, isNewVersion);
    // One try: the run ends with the version committed remotely and the entry in flight (as after a crash).
    const first = await a.sync(ONE_TRY);
    expect(first.ok).toBe(false);
    expect(open(a).map((e) => [e.operation, e.state])).toEqual([['CreateArtifactVersion', 'inflight']]);
    // The next run's pull meets the remote's new current version before the push resolves the entry: it leaves it to the lookup.
    const second = await a.sync();
    expect(second.ok).toBe(true);
    expect(second.pending).toBe(0);
    expect(proxy.forwarded(isNewVersion)).toBe(1);
    const [x] = artifactView(remote.engine);
    expect(x.versions.map((v) => [v.version, v.contentSha])).toEqual([
      [1, x.versions[0].contentSha],
      [2, sha256(mine)],
    ]);
    expect(artifactView(a.engine)).toEqual([x]);
  });

  test('pulled content is verified: bytes that do not match the version hash never enter the store', async () => {
    const bytes = binary(256 * 1024);
    const { artifact } = await onRemote(remote.engine, 'UploadArtifact', { file: stageUpload(remote.dataDir, bytes, 'sensor.bin') });
    const stored = contentPath(
      remote.dataDir,
      remote.engine.db.get<{ storage_path: string }>('SELECT storage_path FROM artifact_versions WHERE id = ?', [
        artifact.artifactVersionId,
      ])!.storage_path,
    );
    const corrupt = Buffer.from(bytes);
    corrupt[1000] ^= 0xff;
    writeFileSync(stored, corrupt);
    const s = await a.sync({ retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 } });
    expect(s.ok).toBe(false);
    expect(s.error).toMatch(/content hash/);
    expect(artifactView(a.engine)).toEqual([]);
    expect(existsSync(join(a.dir, 'artifacts'))).toBe(false);

    writeFileSync(stored, bytes);
    const healed = await a.sync();
    expect(healed.ok).toBe(true);
    expect(artifactView(a.engine)[0].versions.map((v) => v.contentSha)).toEqual([sha256(bytes)]);
  });

  test('archive and unarchive travel both ways', async () => {
    const { artifact } = await onRemote(remote.engine, 'CreateStructuredArtifact', { title: 'limits', content: { max: 9 } });
    await a.sync();
    expect(artifactView(a.engine)).toEqual(artifactView(remote.engine));

    await a.call('ArchiveArtifact', { artifactId: artifact.artifactId });
    expect((await a.sync()).ok).toBe(true);
    expect(artifactView(remote.engine)[0].archived).toBe(true);

    await onRemote(remote.engine, 'UnarchiveArtifact', { artifactId: artifact.artifactId });
    await a.sync();
    expect(artifactView(a.engine)[0].archived).toBe(false);

    await onRemote(remote.engine, 'ArchiveArtifact', { artifactId: artifact.artifactId });
    await a.sync();
    expect(artifactView(a.engine)[0].archived).toBe(true);
    await a.call('UnarchiveArtifact', { artifactId: artifact.artifactId });
    await a.sync();
    expect(artifactView(remote.engine)[0].archived).toBe(false);
    expect(artifactView(a.engine)).toEqual(artifactView(remote.engine));
  });

  test("a refused archive and link are undone here from the remote's copy, read again at the next pull when that read fails at once, with a version added there meanwhile and its content", async () => {
    const { annotation: x } = await remote.client.CreateAnnotation(annotationRequest('x'));
    const { artifact } = await onRemote(remote.engine, 'CreateStructuredArtifact', { title: 'limits', content: { max: 9 } });
    const id = artifact.artifactId;
    await onRemote(remote.engine, 'CreateStructuredArtifact', { title: 'later', content: {} }); // the cursor passes 'limits'
    const noOverlap = { overlapMs: 0 }; // no window re-reads 'limits' by chance
    await a.sync(noOverlap);
    await a.call('ArchiveArtifact', { artifactId: id });
    await a.call('LinkArtifact', {
      artifactId: id,
      relation: ATTACHED_TO,
      entityType: ANNOTATION,
      entityId: x.annotationId,
      artifactVersionId: artifact.artifactVersionId,
    });
    const refused = { status: 400, code: Code.FAILED_PRECONDITION, message: 'artifacts are read-only for this team' };
    proxy.refuse((r) => r.method === 'POST' || (r.method === 'GET' && r.path === `/api/v1/artifacts/${id}`), refused);
    expect((await a.sync(noOverlap)).failedEntries).toBe(2);
    // The read-back by id was refused too, and is noted; the run's own listing (whole, every run) already undid both here.
    const [here] = artifactView(a.engine).filter((v) => v.id === id);
    expect([here.archived, here.links.length]).toEqual([false, 0]);
    expect(a.engine.db.all('SELECT resource, record_id FROM sync_refetch')).toEqual([{ resource: 'artifact', record_id: id }]);

    // Meanwhile a colleague adds a version; the next pull cannot list artifacts (as if the remote had no such list).
    const bytes = JSON.stringify({ max: 12 });
    await onRemote(remote.engine, 'CreateArtifactVersion', {
      artifactId: id,
      file: stageUpload(remote.dataDir, bytes, 'limits.json', 'application/json'),
    });
    proxy.refuse((r) => r.method === 'GET' && r.path.split('?')[0] === '/api/v1/artifacts', {
      status: 404,
      code: Code.NOT_FOUND,
      message: 'Not Found',
    });
    const next = await a.sync(noOverlap);
    expect(next.ok).toBe(true);
    expect(next.progress.pushed).toBe(0);
    expect(a.engine.db.all('SELECT * FROM sync_refetch')).toEqual([]);
    const [there] = artifactView(remote.engine).filter((v) => v.id === id);
    expect([there.archived, there.links, there.version]).toEqual([false, [], 2]);
    expect(there.versions[1].contentSha).toBe(sha256(bytes));
    expect(artifactView(a.engine).filter((v) => v.id === id)).toEqual([there]);
    // Both refused edits stay listed until the user retries or dismisses them.
    expect((await a.call('ListSyncOutbox', { state: 'failed' })).entries.map((e: any) => e.operation)).toEqual([
      'ArchiveArtifact',
      'LinkArtifact',
    ]);
  });

  test('a refused new version stays here, current, for Retry, through the read-back of its artifact; Retry then lands it', async () => {
    const { artifact } = await onRemote(remote.engine, 'CreateStructuredArtifact', { title: 'limits', content: { max: 9 } });
    await a.sync();
    const bytes = JSON.stringify({ max: 10 });
    await a.call('CreateArtifactVersion', {
      artifactId: artifact.artifactId,
      file: stageUpload(a.dir, bytes, 'limits.json', 'application/json'),
    });
    proxy.refuse(isNewVersion, { status: 400, code: Code.INVALID_ARGUMENT, message: 'file: too large for this team' });
    expect((await a.sync()).failedEntries).toBe(1);
    const [here] = artifactView(a.engine);
    expect([here.version, here.versions.map((v) => v.contentSha)]).toEqual([2, [here.versions[0].contentSha, sha256(bytes)]]);
    expect(here.currentVersionId).toBe(here.versions[1].id);
    expect(a.engine.db.all('SELECT * FROM sync_refetch')).toEqual([]);

    proxy.refuse(undefined);
    const [entry] = (await a.call('ListSyncOutbox', { state: 'failed' })).entries;
    await a.call('RetrySyncEntry', { seq: entry.seq });
    expect((await a.sync()).progress.pushed).toBe(1);
    expect(artifactView(remote.engine)[0].versions.map((v) => v.contentSha)).toEqual(here.versions.map((v) => v.contentSha));
    expect(artifactView(a.engine)).toEqual(artifactView(remote.engine));
  });

  test('links merge per link: different links on both sides are kept; the same link changed on both sides is a conflict the later write wins', async () => {
    const { annotation: x } = await remote.client.CreateAnnotation(annotationRequest('x'));
    const { annotation: y } = await remote.client.CreateAnnotation(annotationRequest('y'));
    const { artifact } = await onRemote(remote.engine, 'CreateStructuredArtifact', { title: 'plan', content: { step: 1 } });
    const { artifact: second } = await onRemote(remote.engine, 'CreateArtifactVersion', {
      artifactId: artifact.artifactId,
      file: stageUpload(remote.dataDir, JSON.stringify({ step: 2 }), 'plan.json', 'application/json'),
    });
    const firstVersionId = artifact.artifactVersionId;
    const secondVersionId = second.artifactVersionId;
    await a.sync();
    expect(artifactView(a.engine)[0].versions.map((v) => v.id)).toEqual([firstVersionId, secondVersionId]);

    // Offline: a points the link to x at version 1 and archives; then the remote links x at version 2 and links y.
    await a.call('LinkArtifact', {
      artifactId: artifact.artifactId,
      relation: ATTACHED_TO,
      entityType: ANNOTATION,
      entityId: x.annotationId,
      artifactVersionId: firstVersionId,
    });
    await a.call('ArchiveArtifact', { artifactId: artifact.artifactId });
    await onRemote(remote.engine, 'LinkArtifact', {
      artifactId: artifact.artifactId,
      relation: ATTACHED_TO,
      entityType: ANNOTATION,
      entityId: x.annotationId,
      artifactVersionId: secondVersionId,
    });
    await onRemote(remote.engine, 'LinkArtifact', {
      artifactId: artifact.artifactId,
      relation: REFERENCES,
      entityType: ANNOTATION,
      entityId: y.annotationId,
    });

    const s = await a.sync();
    expect(s.ok).toBe(true);
    expect(s.openConflicts).toBe(1);
    const conflict = a.engine.db.get<{ resource: string; field: string; winner: string; local_value: string; remote_value: string }>(
      'SELECT resource, field, winner, local_value, remote_value FROM sync_conflicts',
    )!;
    expect(conflict).toMatchObject({ resource: 'artifact', field: `link:ATTACHED_TO:ANNOTATION:${x.annotationId}`, winner: 'remote' });
    expect(JSON.parse(conflict.local_value)).toBe(firstVersionId);
    expect(JSON.parse(conflict.remote_value)).toBe(secondVersionId);
    const [merged] = artifactView(remote.engine);
    expect(merged.archived).toBe(true);
    expect(merged.links).toEqual([
      { relation: 1, entityType: 1, entityId: x.annotationId, versionId: secondVersionId },
      { relation: 3, entityType: 1, entityId: y.annotationId, versionId: secondVersionId },
    ]);
    expect(artifactView(a.engine)).toEqual(artifactView(remote.engine));
    expect(open(a)).toEqual([]);
  });

  test('a remote without artifact routes keeps the artifact entries pending, with a message, and holds up nothing else', async () => {
    proxy.withoutRoutes(isArtifactRoute);
    const { annotation } = await a.call('CreateAnnotation', annotationRequest('field note'));
    const { artifact: upload } = await a.call('UploadArtifact', {
      file: stageUpload(a.dir, binary(300_000), 'scope.bin'),
      links: JSON.stringify([{ relation: ATTACHED_TO, entityType: ANNOTATION, entityId: annotation.annotationId }]),
    });
    const { artifact: structured } = await a.call('CreateStructuredArtifact', { title: 'checklist', content: ['a', 'b'] });
    await a.call('LinkArtifact', {
      artifactId: structured.artifactId,
      relation: REFERENCES,
      entityType: ANNOTATION,
      entityId: annotation.annotationId,
    });
    await a.call('ArchiveArtifact', { artifactId: upload.artifactId });
    await a.call('UpdateAnnotation', {
      annotation: { annotationId: annotation.annotationId, description: 'after the artifacts' },
      updateMask: 'description',
    });

    const events: SyncEvent[] = [];
    const start = proxy.log.length;
    const s = await a.sync({ onEvent: (e) => events.push(e) });
    expect(s.error).toBeUndefined();
    expect(s.ok).toBe(true);
    // The annotation, and its edit queued behind the artifact entries, reached the remote.
    expect(remote.engine.db.all('SELECT description FROM annotations')).toEqual([{ description: 'after the artifacts' }]);
    expect(artifactView(remote.engine)).toEqual([]);
    const pending = open(a);
    expect(pending.map((e) => [e.operation, e.state])).toEqual([
      ['UploadArtifact', 'pending'],
      ['CreateStructuredArtifact', 'pending'],
      ['LinkArtifact', 'pending'],
      ['ArchiveArtifact', 'pending'],
    ]);
    for (const e of pending) expect(e.last_error).toMatch(/the remote does not support artifacts/);
    expect(s.pending).toBe(4);
    expect(s.failedEntries).toBe(0);
    expect(events.some((e) => e.type === 'warning' && /does not support artifacts/.test(e.message))).toBe(true);
    // One probe per create operation and the two list attempts: no retry storm.
    const probes = proxy.log.slice(start).filter(isArtifactRoute).length;
    expect(probes).toBeLessThanOrEqual(4);

    const before = proxy.log.length;
    const again = await a.sync();
    expect(again.ok).toBe(true);
    expect(again.pending).toBe(4);
    expect(proxy.log.slice(before).filter(isArtifactRoute).length).toBeLessThanOrEqual(probes);

    // The remote gains artifact support (an Outpost): everything arrives once.
    proxy.withoutRoutes(undefined);
    const healed = await a.sync();
    expect(healed.ok).toBe(true);
    expect(healed.pending).toBe(0);
    const view = artifactView(remote.engine);
    expect(view.map((x) => [x.title, x.archived, x.links.length])).toEqual([
      ['checklist', false, 1],
      ['scope.bin', true, 1],
    ]);
    expect(proxy.forwarded(isUpload)).toBe(1);
    expect(artifactView(a.engine)).toEqual(view);
  });
});
