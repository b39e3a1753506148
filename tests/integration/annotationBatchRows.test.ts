// A batch reads the rows of the annotations it acts on once and keeps them for
// its items (services/annotations/annotationBatchRead.ts): over real HTTP, an
// item that follows another on the same record sees that record as the earlier
// item left it, every answer is the record as it then was, and nothing a refused
// batch read or wrote outlives it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestServer, type TestServer } from '../support/testServer';
import { createFixtures, type Fixtures } from '../support/fixtures';

let s: TestServer;
let f: Fixtures;

beforeAll(async () => {
  s = await startTestServer();
  f = createFixtures(s);
});
afterAll(async () => s.close());

async function create(name: string) {
  const res = await s.api('POST', '/api/v1/annotations', {
    name,
    startTime: '2026-09-02T10:00:00Z',
    endTime: '2026-09-02T10:00:05Z',
    assets: [f.assetName],
    tags: ['keep'],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.annotation;
}

const get = async (id: string) => (await s.api('GET', `/api/v1/annotations/${id}`)).body.annotation;
const logKinds = async (id: string) =>
  ((await s.api('GET', `/api/v1/annotations/${id}/logs`)).body.annotationLogs as { kind: string }[]).map((l) => l.kind).sort();
const update = (annotationId: string, annotation: Record<string, unknown>, updateMask: string) => ({
  annotation: { annotationId, ...annotation },
  updateMask,
});

describe('a batch that names a record more than once', () => {
  it('runs each item on the record as the items before it left it, and answers each as the record then was', async () => {
    const [a, b] = [await create('kept a'), await create('kept b')];
    const res = await s.api('POST', '/api/v1/annotations:batchUpdate', {
      requests: [
        update(a.annotationId, { state: 'ANNOTATION_STATE_FLAGGED' }, 'state'),
        update(a.annotationId, { tags: ['keep', 'second'] }, 'tags'),
        update(b.annotationId, { linkedChannels: [{ channel: { channelId: f.channelId } }] }, 'linked_channels'),
        update(a.annotationId, { assignedToUserId: f.otherUserId }, 'assigned_to_user_id'),
        update(b.annotationId, { description: 'after the channels' }, 'description'),
        // Back to the state the record had: a state log again, as a second single UpdateAnnotation would write.
        update(a.annotationId, { state: 'ANNOTATION_STATE_OPEN' }, 'state'),
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const answered = (res.body.responses as { annotation: Record<string, unknown> }[]).map((r) => r.annotation);
    expect(answered[0]).toMatchObject({ state: 'ANNOTATION_STATE_FLAGGED', tags: ['keep'], assignedToUserId: '' });
    expect(answered[1]).toMatchObject({ state: 'ANNOTATION_STATE_FLAGGED', tags: ['keep', 'second'], assignedToUserId: '' });
    expect(answered[2]).toMatchObject({ description: '', linkedChannels: [{ channel: { channelId: f.channelId } }] });
    expect(answered[3]).toMatchObject({
      state: 'ANNOTATION_STATE_FLAGGED',
      tags: ['keep', 'second'],
      assignedToUserId: f.otherUserId,
      assignedToUser: { userId: f.otherUserId },
    });
    expect(answered[4]).toMatchObject({ description: 'after the channels', linkedChannels: [{ channel: { channelId: f.channelId } }] });
    // The last answer for each record is the record as stored.
    expect(answered[5]).toEqual(await get(a.annotationId));
    expect(answered[4]).toEqual(await get(b.annotationId));
    expect(answered[5]).toMatchObject({ state: 'ANNOTATION_STATE_OPEN', tags: ['keep', 'second'], assignedToUserId: f.otherUserId });
    // The history of each change, as the single updates write it: created, flagged, assigned, opened again.
    expect(await logKinds(a.annotationId)).toEqual(
      ['ANNOTATION_LOG_KIND_ASSIGNED', ...Array(3).fill('ANNOTATION_LOG_KIND_STATE_UPDATE')].sort(),
    );
  });

  it('a refused batch changes nothing, and the next call reads the record as stored, not as the refused one left it', async () => {
    const a = await create('refused kept');
    const refused = await s.api('POST', '/api/v1/annotations:batchUpdate', {
      requests: [
        update(a.annotationId, { state: 'ANNOTATION_STATE_RESOLVED' }, 'state'),
        update(a.annotationId, { tags: ['keep', 'refused'] }, 'tags'),
        update(randomUUID(), { state: 'ANNOTATION_STATE_RESOLVED' }, 'state'),
      ],
    });
    expect(refused.status).toBe(404);
    expect(refused.body.message).toMatch(/^requests\[2\]: /);
    expect(await get(a.annotationId)).toEqual(a);

    const next = await s.api('POST', '/api/v1/annotations:batchChange', {
      records: [{ annotationId: a.annotationId, change: { addTag: 'next' } }],
    });
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect(next.body.changed).toEqual([{ annotationId: a.annotationId, previous: { removeTag: 'next' } }]);
    expect(await get(a.annotationId)).toMatchObject({ state: a.state, tags: ['keep', 'next'] });
  });
});
