// AnnotationService over real HTTP on loopback: every operation, the exact
// JSON shapes of the reference (§3), and every error path of issue #2.
import { parseTimestamp } from '../../src-shared/api/time';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestServer, type TestServer } from '../support/testServer';
import { createFixtures, type Fixtures } from '../support/fixtures';
import { expectViolation, RFC3339 } from '../support/assertions';

let s: TestServer;
let f: Fixtures;

beforeAll(async () => {
  s = await startTestServer();
  f = createFixtures(s);
});
afterAll(async () => s.close());

async function create(body: Record<string, unknown>) {
  const res = await s.api('POST', '/api/v1/annotations', body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.annotation;
}

describe('CreateAnnotation', () => {
  it('returns the full wire shape, resolving asset names to ids and creating tags on first use', async () => {
    const a = await create({
      name: 'Pressure spike',
      description: 'seen on chamber.pressure',
      startTime: '2026-09-01T10:00:00Z',
      endTime: '2026-09-01T10:00:05.250Z',
      assets: [f.assetName],
      tags: ['brand-new-tag', 'anomaly'],
      runId: f.runId,
      linkedChannels: [{ channel: { channelId: f.channelId } }, { bitFieldElement: { channelId: f.channelId, bitFieldName: 'b0' } }],
      assignToUserId: f.otherUserId,
      metadata: [
        { key: { name: 'severity', type: 'METADATA_KEY_TYPE_NUMBER' }, numberValue: 3 },
        { key: { name: 'env' }, stringValue: 'prod' },
      ],
    });
    expect(Object.keys(a).sort()).toEqual(
      [
        'annotationId',
        'name',
        'description',
        'startTime',
        'endTime',
        'createdByUserId',
        'modifiedByUserId',
        'createdDate',
        'modifiedDate',
        'runId',
        'state',
        'organizationId',
        'assignedToUserId',
        'annotationType',
        'tags',
        'pending',
        'assignedToUser',
        'deletedDate',
        'linkedChannels',
        'assetIds',
        'metadata',
        'archivedDate',
        'isArchived',
        'batchedTriggers',
        'isNoisyRule',
      ].sort(),
    );
    expect(a).toMatchObject({
      name: 'Pressure spike',
      description: 'seen on chamber.pressure',
      startTime: '2026-09-01T10:00:00Z',
      endTime: '2026-09-01T10:00:05.250Z',
      runId: f.runId,
      state: 'ANNOTATION_STATE_OPEN',
      annotationType: 'ANNOTATION_TYPE_DATA_REVIEW',
      tags: ['brand-new-tag', 'anomaly'],
      assetIds: [f.assetId],
      assignedToUserId: f.otherUserId,
      assignedToUser: {
        userId: f.otherUserId,
        userName: 'other@outpost.local',
        organizations: [{ organizationId: f.organizationId, organizationName: 'Field Team' }],
      },
      linkedChannels: [{ channel: { channelId: f.channelId } }, { bitFieldElement: { channelId: f.channelId, bitFieldName: 'b0' } }],
      metadata: [
        { key: { name: 'severity', type: 'METADATA_KEY_TYPE_NUMBER' }, numberValue: 3 },
        { key: { name: 'env', type: 'METADATA_KEY_TYPE_STRING' }, stringValue: 'prod' },
      ],
      pending: false,
      deletedDate: null,
      archivedDate: null,
      isArchived: false,
      batchedTriggers: 0,
      isNoisyRule: false,
      organizationId: f.organizationId,
    });
    expect(a.createdDate).toMatch(RFC3339);
    expect(a.annotationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(a).not.toHaveProperty('legendConfig'); // proto3 optional: omitted when unset
    const tags = s.engine.db.all<{ name: string }>("SELECT name FROM tags WHERE name = 'brand-new-tag'");
    expect(tags).toHaveLength(1);
  });

  it('accepts snake_case keys, enum numbers, numeric offsets and ignores unknown fields', async () => {
    const a = await create({
      name: 'snake',
      start_time: '2026-09-01T12:00:00+02:00',
      end_time: '2026-09-01T10:00:01Z',
      run_id: f.runId,
      annotation_type: 1,
      state: 2,
      legend_config: '{"axes":[]}',
      some_future_field: { whatever: true },
    });
    expect(a.startTime).toBe('2026-09-01T10:00:00Z');
    expect(a.state).toBe('ANNOTATION_STATE_FLAGGED');
    expect(a.legendConfig).toBe('{"axes":[]}');
  });

  it('requires a run, asset or linked channel — tags alone are not enough (spec rule 5)', async () => {
    const res = await s.api('POST', '/api/v1/annotations', {
      name: 'x',
      startTime: '2026-09-01T10:00:00Z',
      endTime: '2026-09-01T10:00:00Z',
      tags: ['a'],
    });
    expectViolation(res, 'assets');
    expect(res.body.message).toMatch(/run_id, assets or linked_channels/);
  });

  it('rejects a PHASE annotation with a state', async () => {
    const res = await s.api('POST', '/api/v1/annotations', {
      name: 'x',
      startTime: '2026-09-01T10:00:00Z',
      endTime: '2026-09-01T10:00:00Z',
      runId: f.runId,
      annotationType: 'ANNOTATION_TYPE_PHASE',
      state: 'ANNOTATION_STATE_OPEN',
    });
    expectViolation(res, 'state');
    const phase = await create({
      name: 'phase',
      startTime: '2026-09-01T10:00:00Z',
      endTime: '2026-09-01T10:00:00Z',
      runId: f.runId,
      annotationType: 'ANNOTATION_TYPE_PHASE',
    });
    expect(phase).not.toHaveProperty('state');
  });

  it.each([
    ['missing name', { startTime: '2026-09-01T10:00:00Z', endTime: '2026-09-01T10:00:00Z' }, 'name'],
    ['missing start_time', { name: 'x', endTime: '2026-09-01T10:00:00Z' }, 'start_time'],
    ['bad timestamp', { name: 'x', startTime: 'yesterday', endTime: '2026-09-01T10:00:00Z' }, 'start_time'],
    ['wrong type', { name: 42, startTime: '2026-09-01T10:00:00Z', endTime: '2026-09-01T10:00:00Z' }, 'name'],
    [
      'bad enum',
      { name: 'x', startTime: '2026-09-01T10:00:00Z', endTime: '2026-09-01T10:00:00Z', state: 'ANNOTATION_STATE_BOGUS' },
      'state',
    ],
    ['end before start', { name: 'x', startTime: '2026-09-01T10:00:01Z', endTime: '2026-09-01T10:00:00Z', runId: 'r' }, 'end_time'],
    [
      'two oneof members',
      {
        name: 'x',
        startTime: '2026-09-01T10:00:00Z',
        endTime: '2026-09-01T10:00:00Z',
        linkedChannels: [{ channel: { channelId: 'a' }, calculatedChannel: { calculatedChannelVersionId: 'b' } }],
      },
      'linked_channels[0]',
    ],
  ])('rejects %s naming the field', async (_label, body, field) => {
    const before = s.engine.db.get<{ n: number }>('SELECT count(*) AS n FROM annotations')!.n;
    expectViolation(await s.api('POST', '/api/v1/annotations', body), field);
    expect(s.engine.db.get<{ n: number }>('SELECT count(*) AS n FROM annotations')!.n).toBe(before);
  });

  it.each([
    ['an unknown asset name', { assets: ['No Such Asset'] }, 'assets', /No Such Asset/],
    ['an unknown run', { runId: 'no-such-run' }, 'run_id', /no-such-run/],
    ['an unknown channel', { linkedChannels: [{ channel: { channelId: 'no-such-channel' } }] }, 'linked_channels', /no-such-channel/],
    ['an unknown assignee', { runId: 'RUN', assignToUserId: 'nobody' }, 'assign_to_user_id', /nobody/],
    [
      'duplicate metadata keys',
      {
        runId: 'RUN',
        metadata: [
          { key: { name: 'k' }, stringValue: 'a' },
          { key: { name: 'k' }, stringValue: 'b' },
        ],
      },
      'metadata',
      /'k'/,
    ],
  ])('rejects %s as INVALID_ARGUMENT naming the value, writing nothing', async (_label, extra, field, pattern) => {
    const body = { name: 'x', startTime: '2026-09-01T10:00:00Z', endTime: '2026-09-01T10:00:00Z', ...extra } as Record<string, unknown>;
    if (body.runId === 'RUN') body.runId = f.runId;
    const tagsBefore = s.engine.db.get<{ n: number }>('SELECT count(*) AS n FROM tags')!.n;
    const res = await s.api('POST', '/api/v1/annotations', { ...body, tags: [`tag-${randomUUID()}`] });
    expectViolation(res, field);
    expect(res.body.message).toMatch(pattern);
    expect(s.engine.db.get<{ n: number }>('SELECT count(*) AS n FROM tags')!.n).toBe(tagsBefore); // the tag was rolled back too
  });

  it('returns 400 for malformed JSON and for a non-object body', async () => {
    const bad = await s.api('POST', '/api/v1/annotations', '{"name": ');
    expectViolation(bad, 'body');
    expect(bad.body.message).toMatch(/malformed JSON/);
    expectViolation(await s.api('POST', '/api/v1/annotations', '[1,2]'), 'body');
  });
});

describe('authentication and routing', () => {
  it('requires a valid bearer token (UNAUTHENTICATED, 401, WWW-Authenticate)', async () => {
    const none = await s.api('GET', '/api/v1/annotations', undefined, null);
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ code: 16, message: expect.stringMatching(/Authorization/), details: [] });
    expect(none.headers.get('www-authenticate')).toBeTruthy();
    const wrong = await s.api('GET', '/api/v1/annotations', undefined, 'op_not-a-real-key');
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe(16);
  });

  it('answers unknown routes with NOT_FOUND and wrong methods with UNIMPLEMENTED (gateway behaviour)', async () => {
    expect(await s.api('GET', '/api/v1/no-such-thing')).toMatchObject({
      status: 404,
      body: { code: 5, message: 'Not Found', details: [] },
    });
    expect(await s.api('PUT', '/api/v1/annotations')).toMatchObject({
      status: 501,
      body: { code: 12, message: 'Method Not Allowed', details: [] },
    });
  });

  it('serves a health check without a key', async () => {
    expect(await s.api('GET', '/api/v1/ping', undefined, null)).toMatchObject({ status: 200, body: { response: 'pong' } });
  });
});

describe('GetAnnotation and organization isolation', () => {
  it('gets by id; another organization sees NOT_FOUND, never the record', async () => {
    const a = await create({ name: 'mine', startTime: '2026-09-01T10:00:00Z', endTime: '2026-09-01T10:00:00Z', runId: f.runId });
    const got = await s.api('GET', `/api/v1/annotations/${a.annotationId}`);
    expect(got.status).toBe(200);
    expect(got.body.annotation).toEqual(a);
    const stranger = s.newToken('stranger@else.where', 'Other Org');
    const res = await s.api('GET', `/api/v1/annotations/${a.annotationId}`, undefined, stranger);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(5);
    expect(JSON.stringify(res.body)).not.toContain('mine');
    const list = await s.api('GET', '/api/v1/annotations?page_size=1000', undefined, stranger);
    expect(list.body).toEqual({ annotations: [], nextPageToken: '' });
    expect((await s.api('GET', `/api/v1/annotations/${randomUUID()}`)).status).toBe(404);
  });

  it('requires organizationId exactly when the caller belongs to several organizations (spec rule 1)', async () => {
    const token = s.newToken('multi@outpost.local', 'Org A');
    s.newToken('multi@outpost.local', 'Org B');
    const orgB = s.engine.db.get<{ id: string }>("SELECT id FROM organizations WHERE name = 'Org B'")!.id;
    const orgA = s.engine.db.get<{ id: string }>("SELECT id FROM organizations WHERE name = 'Org A'")!.id;
    const without = await s.api('GET', '/api/v1/annotations', undefined, token);
    expectViolation(without, 'organization_id');
    const withOrg = await s.api('GET', `/api/v1/annotations?organizationId=${orgB}`, undefined, token);
    expect(withOrg.status).toBe(200);
    s.engine.db.run(
      "INSERT INTO runs(id, organization_id, name, created_date, created_by_user_id, modified_date, modified_by_user_id) VALUES ('run-in-a', ?, 'r', 0, 'u', 0, 'u')",
      [orgA],
    );
    const createNoOrg = await s.api(
      'POST',
      '/api/v1/annotations',
      { name: 'x', startTime: '2026-09-01T10:00:00Z', endTime: '2026-09-01T10:00:00Z', runId: 'run-in-a' },
      token,
    );
    expectViolation(createNoOrg, 'organization_id');
    const created = await s.api(
      'POST',
      '/api/v1/annotations',
      { name: 'x', startTime: '2026-09-01T10:00:00Z', endTime: '2026-09-01T10:00:00Z', runId: 'run-in-a', organizationId: orgA },
      token,
    );
    expect(created.status).toBe(200);
    expect(created.body.annotation.organizationId).toBe(orgA);
    const foreign = await s.api('GET', `/api/v1/annotations?organization_id=${f.organizationId}`, undefined, token);
    expect(foreign.status).toBe(404);
  });
});

describe('UpdateAnnotation', () => {
  it('changes only mask fields, accepting lowerCamelCase and snake_case paths', async () => {
    const a = await create({
      name: 'before',
      description: 'd',
      startTime: '2026-09-01T10:00:00Z',
      endTime: '2026-09-01T10:00:10Z',
      runId: f.runId,
      tags: ['t1'],
    });
    const res = await s.api('PATCH', '/api/v1/annotations', {
      annotation: { annotationId: a.annotationId, name: 'after', description: 'ignored', endTime: '2026-09-01T10:00:20Z' },
      updateMask: 'name,end_time',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.annotation).toMatchObject({ name: 'after', description: 'd', endTime: '2026-09-01T10:00:20Z', tags: ['t1'] });
    expect(parseTimestamp(res.body.annotation.modifiedDate)!).toBeGreaterThan(parseTimestamp(a.modifiedDate)!); // by instant, not text (.123Z sorts after .123456Z)
    const camel = await s.api('PATCH', '/api/v1/annotations', {
      annotation: { annotationId: a.annotationId, legendConfig: 'L' },
      updateMask: 'legendConfig',
    });
    expect(camel.body.annotation.legendConfig).toBe('L');
  });

  it('clears tags when tags is in the mask with an empty list', async () => {
    const a = await create({
      name: 't',
      startTime: '2026-09-01T10:00:00Z',
      endTime: '2026-09-01T10:00:00Z',
      runId: f.runId,
      tags: ['a', 'b'],
    });
    const res = await s.api('PATCH', '/api/v1/annotations', { annotation: { annotationId: a.annotationId, tags: [] }, updateMask: 'tags' });
    expect(res.body.annotation.tags).toEqual([]);
  });

  it.each([
    ['an unknown path', 'nmae', /unknown field 'nmae'/],
    ['an immutable path', 'run_id', /cannot be updated/],
    ['an empty mask', '', /required/],
  ])('rejects %s as INVALID_ARGUMENT on update_mask, changing nothing', async (_l, mask, pattern) => {
    const a = await create({ name: 'keep', startTime: '2026-09-01T10:00:00Z', endTime: '2026-09-01T10:00:00Z', runId: f.runId });
    const res = await s.api('PATCH', '/api/v1/annotations', {
      annotation: { annotationId: a.annotationId, name: 'changed' },
      updateMask: `name,${mask}` === 'name,' ? '' : mask === '' ? '' : `name,${mask}`,
    });
    expectViolation(res, 'update_mask');
    expect(res.body.message).toMatch(pattern);
    expect((await s.api('GET', `/api/v1/annotations/${a.annotationId}`)).body.annotation.name).toBe('keep');
  });

  it('appends STATE_UPDATE and ASSIGNED logs when state or assignee change', async () => {
    const a = await create({ name: 'hist', startTime: '2026-09-01T10:00:00Z', endTime: '2026-09-01T10:00:00Z', runId: f.runId });
    await s.api('PATCH', '/api/v1/annotations', {
      annotation: { annotationId: a.annotationId, state: 'ANNOTATION_STATE_RESOLVED', assignedToUserId: f.otherUserId },
      updateMask: 'state,assigned_to_user_id',
    });
    const logs = (await s.api('GET', `/api/v1/annotations/${a.annotationId}/logs`)).body.annotationLogs;
    expect(logs.map((l: { kind: string }) => l.kind)).toEqual([
      'ANNOTATION_LOG_KIND_STATE_UPDATE',
      'ANNOTATION_LOG_KIND_STATE_UPDATE',
      'ANNOTATION_LOG_KIND_ASSIGNED',
    ]);
    expect(logs[0].stateUpdate).toEqual({ state: 'ANNOTATION_LOG_STATE_CREATED' });
    expect(logs[1].stateUpdate).toEqual({ state: 'ANNOTATION_LOG_STATE_RESOLVED' });
    expect(logs[2].assigned).toEqual({ assignedToUserId: f.otherUserId, assignedToUserEmail: 'other@outpost.local' });
    // an unchanged state appends nothing
    await s.api('PATCH', '/api/v1/annotations', {
      annotation: { annotationId: a.annotationId, state: 'ANNOTATION_STATE_RESOLVED' },
      updateMask: 'state',
    });
    expect((await s.api('GET', `/api/v1/annotations/${a.annotationId}/logs`)).body.annotationLogs).toHaveLength(3);
  });

  it('rejects a state on a PHASE annotation and a missing annotation', async () => {
    const p = await create({
      name: 'p',
      startTime: '2026-09-01T10:00:00Z',
      endTime: '2026-09-01T10:00:00Z',
      runId: f.runId,
      annotationType: 'ANNOTATION_TYPE_PHASE',
    });
    expectViolation(
      await s.api('PATCH', '/api/v1/annotations', {
        annotation: { annotationId: p.annotationId, state: 'ANNOTATION_STATE_OPEN' },
        updateMask: 'state',
      }),
      'annotation.state',
    );
    const missing = await s.api('PATCH', '/api/v1/annotations', {
      annotation: { annotationId: randomUUID(), name: 'n' },
      updateMask: 'name',
    });
    expect(missing.status).toBe(404);
    expectViolation(
      await s.api('PATCH', '/api/v1/annotations', { annotation: { name: 'n' }, updateMask: 'name' }),
      'annotation.annotation_id',
    );
  });
});

describe('archive, unarchive, delete and batches', () => {
  it('archive sets archived_date and unarchive clears it; both return the annotation', async () => {
    const a = await create({ name: 'arch', startTime: '2026-09-01T10:00:00Z', endTime: '2026-09-01T10:00:00Z', runId: f.runId });
    const archived = await s.api('POST', `/api/v1/annotations/${a.annotationId}:archive`, {});
    expect(archived.status).toBe(200);
    expect(archived.body.annotation.isArchived).toBe(true);
    expect(archived.body.annotation.archivedDate).toMatch(RFC3339);
    // Delete and archive are one concept on the platform: the delete date comes and goes with the archive.
    expect(archived.body.annotation.deletedDate).toBe(archived.body.annotation.archivedDate);
    const un = await s.api('POST', `/api/v1/annotations/${a.annotationId}:unarchive`);
    expect(un.body.annotation).toMatchObject({ isArchived: false, archivedDate: null, deletedDate: null });
  });

  it('UpdateAnnotation archives with deleted_date (or archived_date) in the mask and restores with it unset, as the protos describe', async () => {
    const a = await create({ name: 'masked archive', startTime: '2026-09-01T10:00:00Z', endTime: '2026-09-01T10:00:00Z', runId: f.runId });
    const archived = await s.api('PATCH', '/api/v1/annotations', {
      annotation: { annotation_id: a.annotationId, deleted_date: '2026-09-02T08:00:00Z' },
      update_mask: 'deleted_date',
    });
    expect(archived.status, JSON.stringify(archived.body)).toBe(200);
    expect(archived.body.annotation).toMatchObject({
      isArchived: true,
      archivedDate: '2026-09-02T08:00:00Z',
      deletedDate: '2026-09-02T08:00:00Z',
    });
    const restored = await s.api('PATCH', '/api/v1/annotations', {
      annotation: { annotation_id: a.annotationId, archived_date: null },
      update_mask: 'archivedDate',
    });
    expect(restored.body.annotation).toMatchObject({ isArchived: false, archivedDate: null, deletedDate: null });
  });

  it('DELETE archives (never deletes) and returns {}', async () => {
    const a = await create({ name: 'del', startTime: '2026-09-01T10:00:00Z', endTime: '2026-09-01T10:00:00Z', runId: f.runId });
    const res = await s.api('DELETE', `/api/v1/annotations/${a.annotationId}`);
    expect(res).toMatchObject({ status: 200, body: {} });
    expect((await s.api('GET', `/api/v1/annotations/${a.annotationId}`)).body.annotation.isArchived).toBe(true);
    expect((await s.api('DELETE', `/api/v1/annotations/${randomUUID()}`)).status).toBe(404);
  });

  it('batches are atomic: one unknown id fails the whole batch with NOT_FOUND naming it', async () => {
    const a = await create({ name: 'b1', startTime: '2026-09-01T10:00:00Z', endTime: '2026-09-01T10:00:00Z', runId: f.runId });
    const b = await create({ name: 'b2', startTime: '2026-09-01T10:00:00Z', endTime: '2026-09-01T10:00:00Z', runId: f.runId });
    const ghost = randomUUID();
    const res = await s.api('POST', '/api/v1/annotations:batchArchive', { annotationIds: [a.annotationId, ghost, b.annotationId] });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(5);
    expect(res.body.message).toContain(ghost);
    expect((await s.api('GET', `/api/v1/annotations/${a.annotationId}`)).body.annotation.isArchived).toBe(false);

    const ok = await s.api('POST', '/api/v1/annotations:batchArchive', { annotation_ids: [a.annotationId, b.annotationId] });
    expect(ok.body.annotations.map((x: { isArchived: boolean }) => x.isArchived)).toEqual([true, true]);
    const un = await s.api('POST', '/api/v1/annotations:batchUnarchive', { annotationIds: [a.annotationId, b.annotationId] });
    expect(un.body.annotations.map((x: { annotationId: string }) => x.annotationId)).toEqual([a.annotationId, b.annotationId]);
    expect(await s.api('POST', '/api/v1/annotations:batchDelete', { annotationIds: [a.annotationId] })).toMatchObject({
      status: 200,
      body: {},
    });
    expect((await s.api('GET', `/api/v1/annotations/${a.annotationId}`)).body.annotation.isArchived).toBe(true);
  });

  it('limits batches to 1000 ids', async () => {
    const ids = Array.from({ length: 1001 }, () => randomUUID());
    expectViolation(await s.api('POST', '/api/v1/annotations:batchArchive', { annotationIds: ids }), 'annotation_ids');
  });
});
