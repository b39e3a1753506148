// BatchUpdateAnnotations on a replica: one call, one transaction, and each
// record's change in the outbox as the UpdateAnnotation the platform knows,
// pushed like any other edit (the platform has no batch update).
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
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
});
