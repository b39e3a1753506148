// Offline edits on a replica reach the remote exactly once; remote edits reach
// the replica; ids of offline-created records become the remote's everywhere.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { annotationRequest, closeProxiedPair, comment, createReplica, openProxiedPair, startRemote, viewOf, type Replica } from './helpers';

let remote: Awaited<ReturnType<typeof startRemote>>;
let a: Replica;

beforeEach(async () => {
  remote = await startRemote();
  a = await createReplica('a', remote.url, remote.token);
});
afterEach(async () => {
  a.close();
  await remote.close();
});

describe('sync: annotations and logs', () => {
  test('first sync adopts the remote identity and pulls its data', async () => {
    const created = await remote.client.CreateAnnotation(annotationRequest('from the remote', { tags: ['t1'] }));
    await remote.client.CreateAnnotationLog(comment(created.annotation.annotationId, 'remote comment'));
    const summary = await a.sync();
    expect(summary.error).toBeUndefined();
    expect(summary.ok).toBe(true);
    expect(a.caller().userName).toBe('engineer@outpost.local');
    expect(viewOf(a.engine.db)).toEqual(viewOf(remote.engine.db));
    expect(a.engine.db.get<{ n: number }>('SELECT count(*) AS n FROM sync_outbox')!.n).toBe(0);
  });

  test('offline create, comment, update and archive reach the remote once, with the remote ids', async () => {
    await a.sync();
    const { annotation } = await a.call('CreateAnnotation', annotationRequest('offline', { tags: ['x'] }));
    const localId = annotation.annotationId;
    const { annotationLog } = await a.call('CreateAnnotationLog', comment(localId, 'first look'));
    await a.call('UpdateAnnotation', {
      annotation: { annotationId: localId, name: 'offline, renamed', state: 'ANNOTATION_STATE_FLAGGED' },
      updateMask: 'name,state',
    });
    await a.call('ArchiveAnnotation', { annotationId: localId });
    expect(a.engine.db.get<{ n: number }>("SELECT count(*) AS n FROM sync_outbox WHERE state = 'pending'")!.n).toBe(4);

    const summary = await a.sync();
    expect(summary.error).toBeUndefined();
    expect(summary.progress.pushed).toBe(4);
    const remoteView = viewOf(remote.engine.db);
    expect(Object.keys(remoteView.annotations)).toHaveLength(1);
    const [remoteId] = Object.keys(remoteView.annotations);
    expect(remoteId).not.toBe(localId);
    expect(remoteView.annotations[remoteId]).toMatchObject({
      name: 'offline, renamed',
      state: 'ANNOTATION_STATE_FLAGGED',
      isArchived: true,
      tags: ['x'],
    });
    expect(viewOf(a.engine.db)).toEqual(remoteView);
    // The comment exists once, on the remote annotation; the stale local ids still resolve.
    const comments = Object.values(remoteView.logs).filter((l) => l.kind === 'ANNOTATION_LOG_KIND_COMMENT');
    expect(comments).toHaveLength(1);
    expect((await a.call('GetAnnotation', { annotationId: localId })).annotation.annotationId).toBe(remoteId);
    expect(a.engine.db.get('SELECT 1 FROM annotation_logs WHERE id = ?', [annotationLog.annotationLogId])).toBeUndefined();

    // A second sync changes nothing.
    const again = await a.sync();
    expect(again.progress.pushed).toBe(0);
    expect(viewOf(remote.engine.db)).toEqual(remoteView);
  });

  test('an archive and a restore through the update mask (deleted_date) reach the strict platform as ArchiveAnnotation and UnarchiveAnnotation', async () => {
    // The strict stand-in refuses an UpdateAnnotation mask path the platform does not document (deleted_date among them).
    const pair = await openProxiedPair();
    try {
      const { remote: strictRemote, proxy, a: b } = pair;
      const { annotation } = await strictRemote.client.CreateAnnotation(annotationRequest('masked'));
      await b.sync();
      await b.call('UpdateAnnotation', {
        annotation: { annotationId: annotation.annotationId, name: 'masked, renamed', deletedDate: '2026-09-03T00:00:00Z' },
        updateMask: 'name,deleted_date',
      });
      const archived = await b.sync();
      expect(archived).toMatchObject({ ok: true, failedEntries: 0 });
      const there = (await strictRemote.client.GetAnnotation({ annotationId: annotation.annotationId })).annotation;
      expect(there).toMatchObject({ name: 'masked, renamed', isArchived: true });
      expect(there.deletedDate).not.toBeNull();
      const sent = proxy.log.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path.split('?')[0]} ${r.status}`);
      expect(sent).toContain(`POST /api/v1/annotations/${annotation.annotationId}:archive 200`);
      expect(proxy.log.filter((r) => r.fault === 'not-allowed')).toEqual([]);
      await b.call('UpdateAnnotation', { annotation: { annotationId: annotation.annotationId }, updateMask: 'archived_date' });
      expect(await b.sync()).toMatchObject({ ok: true, failedEntries: 0 });
      expect((await strictRemote.client.GetAnnotation({ annotationId: annotation.annotationId })).annotation).toMatchObject({
        isArchived: false,
        deletedDate: null,
      });
      expect(proxy.log.some((r) => r.method === 'POST' && r.path === `/api/v1/annotations/${annotation.annotationId}:unarchive`)).toBe(
        true,
      );
      expect(proxy.log.filter((r) => /deletedDate|archivedDate/.test(r.body) && r.method === 'PATCH')).toEqual([]);
      expect(viewOf(b.engine.db)).toEqual(viewOf(strictRemote.engine.db));
    } finally {
      await closeProxiedPair(pair);
    }
  });

  test('remote edits arrive: update, archive and new logs', async () => {
    const { annotation } = await remote.client.CreateAnnotation(annotationRequest('shared'));
    await a.sync();
    await remote.client.UpdateAnnotation({
      annotation: { annotationId: annotation.annotationId, description: 'remote desc' },
      updateMask: 'description',
    });
    await remote.client.ArchiveAnnotation({ annotationId: annotation.annotationId });
    await remote.client.CreateAnnotationLog(comment(annotation.annotationId, 'later'));
    await a.sync();
    expect(viewOf(a.engine.db)).toEqual(viewOf(remote.engine.db));
    expect(viewOf(a.engine.db).annotations[annotation.annotationId]).toMatchObject({ description: 'remote desc', isArchived: true });
  });

  test('pull-applied changes create no outbox entries', async () => {
    await remote.client.CreateAnnotation(annotationRequest('one'));
    await a.sync();
    expect(a.engine.db.get<{ n: number }>('SELECT count(*) AS n FROM sync_outbox')!.n).toBe(0);
  });
});
