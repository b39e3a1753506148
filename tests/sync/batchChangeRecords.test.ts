// BatchChangeAnnotations on a replica, beyond one entry per record
// (batchUpdate.test.ts): a record named by the id it had before its create
// reached the remote is found (the batch's request is translated once, as a
// single write's is), and the change feed hears of a batch once, after it
// committed, and never of a refused one.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { changeFeedFor } from '../../src-main/services/changeFeed';
import { annotationRequest, createReplica, startRemote, viewOf, type Replica } from './helpers';

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

const pending = () =>
  a.engine.db
    .all<{ operation: string; request: string }>("SELECT operation, request FROM sync_outbox WHERE state = 'pending' ORDER BY seq")
    .map((r) => [r.operation, JSON.parse(r.request).annotation?.annotationId ?? JSON.parse(r.request).annotationId]);

describe('sync: BatchChangeAnnotations by record', () => {
  test('a record named by its local id after its create reached the remote is changed under the remote id', async () => {
    await a.sync();
    const localId = (await a.call('CreateAnnotation', annotationRequest('made offline'))).annotation.annotationId;
    expect((await a.sync()).error).toBeUndefined();
    const remoteId = a.engine.db.get<{ remote_id: string }>('SELECT remote_id FROM sync_id_map WHERE local_id = ?', [localId])!.remote_id;
    expect(remoteId).toBeTruthy();
    expect(remoteId).not.toBe(localId);

    // The renderer still shows the row under the id it was created with.
    const res = await a.call('BatchChangeAnnotations', {
      records: [{ annotationId: localId, change: { state: 'ANNOTATION_STATE_FLAGGED' } }],
    });
    expect(res.changed).toEqual([{ annotationId: remoteId, previous: { state: 'ANNOTATION_STATE_OPEN' } }]);
    expect(pending()).toEqual([['UpdateAnnotation', remoteId]]);
    expect((await a.sync()).error).toBeUndefined();
    expect((await remote.client.GetAnnotation({ annotationId: remoteId })).annotation.state).toBe('ANNOTATION_STATE_FLAGGED');
    expect(viewOf(a.engine.db)).toEqual(viewOf(remote.engine.db));
  });

  test('the change feed hears of a batch once, naming what it changed, after it committed; of a refused batch, nothing', async () => {
    const ids: string[] = [];
    for (const name of ['feed one', 'feed two', 'feed three'])
      ids.push((await remote.client.CreateAnnotation(annotationRequest(name))).annotation.annotationId);
    await a.sync();
    const feed = changeFeedFor(a.engine.db);

    const before = feed.last;
    await expect(
      a.call('BatchChangeAnnotations', {
        records: [
          { annotationId: ids[0], change: { state: 'ANNOTATION_STATE_RESOLVED' } },
          { annotationId: '00000000-0000-4000-8000-000000000000', change: { state: 'ANNOTATION_STATE_RESOLVED' } },
        ],
      }),
    ).rejects.toThrow(/not found/);
    expect(feed.last).toBe(before);
    expect(pending()).toEqual([]);
    expect(a.engine.db.get<{ n: number }>('SELECT count(*) AS n FROM sync_base')!.n).toBe(0);

    // ids[2] is already open: named, but not changed.
    const res = await a.call('BatchChangeAnnotations', {
      records: ids.map((annotationId, i) => ({
        annotationId,
        change: { state: i < 2 ? 'ANNOTATION_STATE_FLAGGED' : 'ANNOTATION_STATE_OPEN' },
      })),
    });
    expect(res.changed.map((c: { annotationId: string }) => c.annotationId)).toEqual(ids.slice(0, 2));
    const since = feed.since(before);
    if (since === 'gap') throw new Error('the feed lost the batch');
    expect(since.entries).toHaveLength(1);
    const [{ change }] = since.entries;
    expect(change).toMatchObject({ resource: 'annotations', reason: 'batch' });
    expect(change.ids === 'many' ? change.ids : [...change.ids].sort()).toEqual([...ids].sort());
    expect(pending()).toEqual(ids.slice(0, 2).map((id) => ['UpdateAnnotation', id]));
  });
});
