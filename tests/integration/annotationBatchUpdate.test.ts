// BatchUpdateAnnotations (an Outpost extension, POST /api/v1/annotations:batchUpdate) over real HTTP:
// many UpdateAnnotation requests in one call and one transaction, each exactly
// as if sent alone (its history entry, its authorization), all or none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestServer, type TestServer } from '../support/testServer';
import { createFixtures, type Fixtures } from '../support/fixtures';
import { expectViolation } from '../support/assertions';

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
    startTime: '2026-09-01T10:00:00Z',
    endTime: '2026-09-01T10:00:05Z',
    assets: [f.assetName],
    tags: ['keep'],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.annotation;
}

const get = async (id: string) => (await s.api('GET', `/api/v1/annotations/${id}`)).body.annotation;
const stateUpdate = (annotationId: string, state: string) => ({ annotation: { annotationId, state }, updateMask: 'state' });

describe('BatchUpdateAnnotations', () => {
  it('runs each update as UpdateAnnotation would, in one call, and answers each as it would', async () => {
    const [a, b, c] = [await create('batch a'), await create('batch b'), await create('batch c')];
    const res = await s.api('POST', '/api/v1/annotations:batchUpdate', {
      requests: [
        stateUpdate(a.annotationId, 'ANNOTATION_STATE_FLAGGED'),
        { annotation: { annotationId: b.annotationId, assignedToUserId: f.otherUserId }, update_mask: 'assigned_to_user_id' },
        { annotation: { annotationId: c.annotationId, tags: ['keep', 'reviewed'] }, updateMask: 'tags' },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.responses).toHaveLength(3);
    expect(res.body.responses[0].annotation).toEqual(await get(a.annotationId));
    expect(res.body.responses[0].annotation.state).toBe('ANNOTATION_STATE_FLAGGED');
    expect((await get(b.annotationId)).assignedToUserId).toBe(f.otherUserId);
    expect((await get(c.annotationId)).tags).toEqual(['keep', 'reviewed']);
    // The history has the same entries a single UpdateAnnotation writes.
    const logs = (await s.api('GET', `/api/v1/annotations/${a.annotationId}/logs`)).body.annotationLogs as Array<{ kind: string }>;
    expect(logs.map((l) => l.kind)).toContain('ANNOTATION_LOG_KIND_STATE_UPDATE');
  });

  it('one failing item fails the batch, naming the item, and changes nothing', async () => {
    const [a, b] = [await create('atomic a'), await create('atomic b')];
    const ghost = randomUUID();
    const res = await s.api('POST', '/api/v1/annotations:batchUpdate', {
      requests: [
        stateUpdate(a.annotationId, 'ANNOTATION_STATE_RESOLVED'),
        stateUpdate(ghost, 'ANNOTATION_STATE_RESOLVED'),
        stateUpdate(b.annotationId, 'ANNOTATION_STATE_RESOLVED'),
      ],
    });
    expect(res.status).toBe(404);
    expect(res.body.message).toMatch(/^requests\[1\]: /);
    expect(res.body.message).toContain(ghost);
    expect((await get(a.annotationId)).state).toBe(a.state);
    expect((await get(b.annotationId)).state).toBe(b.state);
  });

  it("an invalid item is INVALID_ARGUMENT naming its field under requests[i]; an empty batch names 'requests'", async () => {
    const a = await create('invalid');
    expectViolation(
      await s.api('POST', '/api/v1/annotations:batchUpdate', {
        requests: [
          stateUpdate(a.annotationId, 'ANNOTATION_STATE_FLAGGED'),
          { annotation: { annotationId: a.annotationId, state: 'NOPE' }, updateMask: 'state' },
        ],
      }),
      'requests[1].annotation.state',
    );
    expectViolation(await s.api('POST', '/api/v1/annotations:batchUpdate', { requests: [] }), 'requests');
    expect((await get(a.annotationId)).state).toBe(a.state);
  });

  it('each item is decided by the policies as its own UpdateAnnotation: a forbid on one record refuses the batch', async () => {
    const [a, b] = [await create('policy a'), await create('policy b')];
    const member = s.newToken('member@outpost.local');
    const policy = (
      await s.api('POST', '/api/v1/policies', {
        name: 'Frozen record',
        configuration: {
          cedarPolicy: `forbid(principal, action == Action::"UpdateAnnotation", resource == Annotation::"${b.annotationId}");`,
        },
      })
    ).body.policy;
    try {
      const res = await s.api(
        'POST',
        '/api/v1/annotations:batchUpdate',
        { requests: [stateUpdate(a.annotationId, 'ANNOTATION_STATE_FLAGGED'), stateUpdate(b.annotationId, 'ANNOTATION_STATE_FLAGGED')] },
        member,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body.message).toMatch(/^requests\[1\]: UpdateAnnotation/);
      expect((await get(a.annotationId)).state).toBe(a.state);
    } finally {
      await s.api('POST', `/api/v1/policies/${policy.policyId}/archive`);
    }
  });
});
