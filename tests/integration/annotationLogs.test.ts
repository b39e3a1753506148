// AnnotationLogService over real HTTP: the 4 operations (plus the second
// ListAnnotationLogs binding), kind/property matching and applying logs.
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

async function newAnnotation(extra: Record<string, unknown> = {}) {
  const res = await s.api('POST', '/api/v1/annotations', {
    name: 'a',
    startTime: '2026-09-01T10:00:00Z',
    endTime: '2026-09-01T10:00:00Z',
    runId: f.runId,
    ...extra,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.annotation as { annotationId: string; state?: string };
}

const comment = (text: string) => ({
  kind: 'ANNOTATION_LOG_KIND_COMMENT',
  comment: { body: [{ type: 'ANNOTATION_COMMENT_BODY_ELEMENT_TYPE_TEXT', text }] },
});

describe('CreateAnnotationLog', () => {
  it('creates a comment with the full wire shape (oneof: only comment present)', async () => {
    const a = await newAnnotation();
    const res = await s.api('POST', `/api/v1/annotations/${a.annotationId}/logs`, {
      kind: 'ANNOTATION_LOG_KIND_COMMENT',
      comment: {
        body: [
          { type: 'ANNOTATION_COMMENT_BODY_ELEMENT_TYPE_TEXT', text: 'Looks like the valve 🚀 ' },
          { type: 'ANNOTATION_COMMENT_BODY_ELEMENT_TYPE_USER_MENTION', userMention: { userId: f.otherUserId } },
        ],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const log = res.body.annotationLog;
    expect(Object.keys(log).sort()).toEqual(
      ['annotationId', 'annotationLogId', 'comment', 'createdByUserId', 'createdByUserName', 'createdDate', 'kind', 'modifiedDate'].sort(),
    );
    expect(log).toMatchObject({
      annotationId: a.annotationId,
      kind: 'ANNOTATION_LOG_KIND_COMMENT',
      createdByUserId: f.userId,
      createdByUserName: 'engineer@outpost.local',
      comment: {
        body: [
          { type: 'ANNOTATION_COMMENT_BODY_ELEMENT_TYPE_TEXT', text: 'Looks like the valve 🚀 ', userMention: null },
          {
            type: 'ANNOTATION_COMMENT_BODY_ELEMENT_TYPE_USER_MENTION',
            text: '',
            userMention: { userId: f.otherUserId, userEmail: 'other@outpost.local' },
          },
        ],
      },
    });
  });

  it('applies a STATE_UPDATE log to the annotation (numbers shifted by CREATED)', async () => {
    const a = await newAnnotation();
    const res = await s.api('POST', `/api/v1/annotations/${a.annotationId}/logs`, { kind: 2, state_update: { state: 3 } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.annotationLog.stateUpdate).toEqual({ state: 'ANNOTATION_LOG_STATE_FLAGGED' });
    expect((await s.api('GET', `/api/v1/annotations/${a.annotationId}`)).body.annotation.state).toBe('ANNOTATION_STATE_FLAGGED');
  });

  it('applies an ASSIGNED log to the annotation and fills the email', async () => {
    const a = await newAnnotation();
    const res = await s.api('POST', `/api/v1/annotations/${a.annotationId}/logs`, {
      kind: 'ANNOTATION_LOG_KIND_ASSIGNED',
      assigned: { assignedToUserId: f.otherUserId },
    });
    expect(res.body.annotationLog.assigned).toEqual({ assignedToUserId: f.otherUserId, assignedToUserEmail: 'other@outpost.local' });
    expect((await s.api('GET', `/api/v1/annotations/${a.annotationId}`)).body.annotation.assignedToUserId).toBe(f.otherUserId);
  });

  it.each([
    ['a kind that does not match the properties', { kind: 'ANNOTATION_LOG_KIND_COMMENT', assigned: { assignedToUserId: 'x' } }, 'comment'],
    ['two properties', { ...comment('x'), stateUpdate: { state: 'ANNOTATION_LOG_STATE_OPEN' } }, 'comment'],
    ['no properties', { kind: 'ANNOTATION_LOG_KIND_STATE_UPDATE' }, 'state_update'],
    ['an UNSPECIFIED kind', { ...comment('x'), kind: 0 }, 'kind'],
    [
      'state CREATED',
      { kind: 'ANNOTATION_LOG_KIND_STATE_UPDATE', stateUpdate: { state: 'ANNOTATION_LOG_STATE_CREATED' } },
      'state_update.state',
    ],
    ['an empty comment', { kind: 'ANNOTATION_LOG_KIND_COMMENT', comment: { body: [] } }, 'comment.body'],
    [
      'a TEXT element without text',
      { kind: 'ANNOTATION_LOG_KIND_COMMENT', comment: { body: [{ type: 'ANNOTATION_COMMENT_BODY_ELEMENT_TYPE_TEXT' }] } },
      'comment.body[0].text',
    ],
    [
      'an unknown assignee',
      { kind: 'ANNOTATION_LOG_KIND_ASSIGNED', assigned: { assignedToUserId: 'nobody' } },
      'assigned.assigned_to_user_id',
    ],
    ['a missing kind', { ...comment('x'), kind: undefined }, 'kind'],
  ])('rejects %s with INVALID_ARGUMENT naming the field, changing nothing', async (_l, body, field) => {
    const a = await newAnnotation();
    const res = await s.api('POST', `/api/v1/annotations/${a.annotationId}/logs`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.code).toBe(3);
    expect(res.body.details[0].fieldViolations.map((v: { field: string }) => v.field)).toContain(field);
    const logs = (await s.api('GET', `/api/v1/annotations/${a.annotationId}/logs`)).body.annotationLogs;
    expect(logs).toHaveLength(1); // only the CREATED entry
    expect((await s.api('GET', `/api/v1/annotations/${a.annotationId}`)).body.annotation.state).toBe('ANNOTATION_STATE_OPEN');
  });

  it('rejects a state update on a PHASE annotation and logs on a missing annotation', async () => {
    const p = await newAnnotation({ annotationType: 'ANNOTATION_TYPE_PHASE' });
    const res = await s.api('POST', `/api/v1/annotations/${p.annotationId}/logs`, {
      kind: 'ANNOTATION_LOG_KIND_STATE_UPDATE',
      stateUpdate: { state: 'ANNOTATION_LOG_STATE_OPEN' },
    });
    expect(res.status).toBe(400);
    const missing = await s.api('POST', `/api/v1/annotations/${randomUUID()}/logs`, comment('x'));
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(5);
  });
});

describe('ListAnnotationLogs and DeleteAnnotationLog', () => {
  it('lists oldest first with paging on both bindings', async () => {
    const a = await newAnnotation();
    for (let i = 0; i < 5; i++) await s.api('POST', `/api/v1/annotations/${a.annotationId}/logs`, comment(`c${i}`));
    const seen: string[] = [];
    let token = '';
    do {
      const res = await s.api('GET', `/api/v1/annotations/${a.annotationId}/logs?page_size=2${token ? `&page_token=${token}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.annotationLogs.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.annotationLogs.map((l: { comment?: { body: { text: string }[] } }) => l.comment?.body[0].text ?? 'created'));
      token = res.body.nextPageToken;
    } while (token);
    expect(seen).toEqual(['created', 'c0', 'c1', 'c2', 'c3', 'c4']);
    const second = await s.api('GET', `/api/v1/annotation-logs?annotation_id=${a.annotationId}&pageSize=100`);
    expect(second.body.annotationLogs).toHaveLength(6);
    const all = await s.api('GET', '/api/v1/annotation-logs?page_size=1000');
    expect(all.body.annotationLogs.length).toBeGreaterThanOrEqual(6);
  });

  it('deletes a log; only its author may, and it must belong to the annotation', async () => {
    const a = await newAnnotation();
    const log = (await s.api('POST', `/api/v1/annotations/${a.annotationId}/logs`, comment('bye'))).body.annotationLog;
    const other = s.newToken('other@outpost.local');
    expect((await s.api('DELETE', `/api/v1/annotations/${a.annotationId}/logs/${log.annotationLogId}`, undefined, other)).status).toBe(403);
    const b = await newAnnotation();
    expect((await s.api('DELETE', `/api/v1/annotations/${b.annotationId}/logs/${log.annotationLogId}`)).status).toBe(404);
    expect(await s.api('DELETE', `/api/v1/annotations/${a.annotationId}/logs/${log.annotationLogId}`)).toMatchObject({
      status: 200,
      body: {},
    });
    expect((await s.api('GET', `/api/v1/annotations/${a.annotationId}/logs`)).body.annotationLogs).toHaveLength(1);
    expect((await s.api('DELETE', `/api/v1/annotations/${a.annotationId}/logs/${log.annotationLogId}`)).status).toBe(404);
  });

  it('hides logs of another organization', async () => {
    const a = await newAnnotation();
    const stranger = s.newToken('stranger@else.where', 'Other Org');
    expect((await s.api('GET', `/api/v1/annotations/${a.annotationId}/logs`, undefined, stranger)).status).toBe(404);
    expect((await s.api('GET', '/api/v1/annotation-logs', undefined, stranger)).body).toEqual({ annotationLogs: [], nextPageToken: '' });
  });
});
