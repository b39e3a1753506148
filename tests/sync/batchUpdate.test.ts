// BatchUpdateAnnotations and BatchChangeAnnotations on a replica: one call, one
// transaction, and each record's change in the outbox as the UpdateAnnotation
// (or archive) the platform knows, pushed like any other edit (the platform has
// no batch update).
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { snapshotAnnotation } from '../../src-main/sync/resources/annotations/apply';
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

describe('sync: a batch of updates', () => {
  test('records one UpdateAnnotation entry per record and pushes each; a refused batch records nothing', async () => {
    const ids: string[] = [];
    for (const name of ['one', 'two', 'three'])
      ids.push((await remote.client.CreateAnnotation(annotationRequest(name))).annotation.annotationId);
    await a.sync();
    const pending = () =>
      a.engine.db
        .all<{ operation: string }>("SELECT operation FROM sync_outbox WHERE state = 'pending' ORDER BY seq")
        .map((r) => r.operation);

    await expect(
      a.call('BatchUpdateAnnotations', {
        requests: [
          { annotation: { annotationId: ids[0], state: 'ANNOTATION_STATE_FLAGGED' }, updateMask: 'state' },
          { annotation: { annotationId: 'no-such-annotation', state: 'ANNOTATION_STATE_FLAGGED' }, updateMask: 'state' },
        ],
      }),
    ).rejects.toThrow(/^requests\[1\]: /);
    expect(pending()).toEqual([]);

    const res = await a.call('BatchUpdateAnnotations', {
      requests: ids.map((annotationId) => ({
        annotation: { annotationId, state: 'ANNOTATION_STATE_RESOLVED', tags: ['batch'] },
        updateMask: 'state,tags',
      })),
    });
    expect(res.responses.map((r: { annotation: { state: string } }) => r.annotation.state)).toEqual(
      Array(3).fill('ANNOTATION_STATE_RESOLVED'),
    );
    expect(pending()).toEqual(['UpdateAnnotation', 'UpdateAnnotation', 'UpdateAnnotation']);

    const summary = await a.sync();
    expect(summary.error).toBeUndefined();
    expect(summary.progress.pushed).toBe(3);
    for (const id of ids) {
      expect((await remote.client.GetAnnotation({ annotationId: id })).annotation).toMatchObject({
        state: 'ANNOTATION_STATE_RESOLVED',
        tags: ['batch'],
      });
    }
    expect(viewOf(a.engine.db)).toEqual(viewOf(remote.engine.db));
  });

  test('a filter batch records one entry per changed record, as its own operation, and so does its undo; a bad filter records nothing', async () => {
    const ids: string[] = [];
    for (const name of ['f-one', 'f-two', 'f-three', 'f-four'])
      ids.push((await remote.client.CreateAnnotation(annotationRequest(name, { tags: ['sweep'] }))).annotation.annotationId);
    await a.sync();
    const pending = () =>
      a.engine.db
        .all<{ operation: string; request: string }>("SELECT operation, request FROM sync_outbox WHERE state = 'pending' ORDER BY seq")
        .map((r) => [r.operation, JSON.parse(r.request).annotationId ?? JSON.parse(r.request).annotation?.annotationId]);

    await expect(a.call('BatchChangeAnnotations', { filter: 'tag_name == ', change: { archived: true } })).rejects.toThrow(/filter/);
    expect(pending()).toEqual([]);

    const bases = ids.map((id) => snapshotAnnotation(a.engine.db, id)!);
    const archived = await a.call('BatchChangeAnnotations', { filter: 'tag_name == "sweep"', change: { archived: true } });
    expect(archived.changed.map((c: { annotationId: string }) => c.annotationId).sort()).toEqual([...ids].sort());
    expect(pending().sort()).toEqual(ids.map((id) => ['ArchiveAnnotation', id]).sort());
    // Each record's merge base is the record as it was before the batch.
    const kept = ids.map((id) =>
      a.engine.db.get<{ remote_version: number; fields: string }>(
        "SELECT remote_version, fields FROM sync_base WHERE resource = 'annotation' AND record_id = ?",
        [id],
      ),
    );
    expect(kept.map((b) => b && { version: b.remote_version, fields: JSON.parse(b.fields) })).toEqual(JSON.parse(JSON.stringify(bases)));
    // The undo: the records it answered, each back to its own previous value, one entry each again.
    await a.call('BatchChangeAnnotations', {
      records: archived.changed.map((c: { annotationId: string; previous: unknown }) => ({
        annotationId: c.annotationId,
        change: c.previous,
      })),
    });
    expect(pending().filter(([op]) => op === 'UnarchiveAnnotation')).toHaveLength(4);
    const tagged = await a.call('BatchChangeAnnotations', { filter: 'tag_name == "sweep"', change: { addTag: 'swept' } });
    expect(tagged.changed).toHaveLength(4);
    expect(pending().filter(([op]) => op === 'UpdateAnnotation')).toHaveLength(4);

    const summary = await a.sync();
    expect(summary.error).toBeUndefined();
    expect(summary.progress.pushed).toBe(12);
    for (const id of ids) {
      expect((await remote.client.GetAnnotation({ annotationId: id })).annotation).toMatchObject({
        archivedDate: null,
        tags: ['sweep', 'swept'],
      });
    }
    expect(viewOf(a.engine.db)).toEqual(viewOf(remote.engine.db));
  });
});
