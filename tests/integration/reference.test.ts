// Reference entities (assets, runs, tags, users, channels; reference §11) over
// real HTTP on loopback: every operation, exact JSON shapes, uniqueness,
// update masks, organization isolation, multi-organization callers, and name
// resolution by annotations of entities created through these endpoints.
import { parseTimestamp } from '../../src-shared/api/time';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { defaultPolicyRecord } from '../../src-main/auth/defaultPolicy';
import { openDatabase } from '../../src-main/db/database';
import { startTestServer, type TestServer } from '../support/testServer';
import { UUID, RFC3339, unarchivedMetadata } from '../support/assertions';

let s: TestServer;
let orgId: string; // the default token's organization ("Field Team")
let meId: string;

beforeAll(async () => {
  s = await startTestServer();
  const me = await ok('GET', '/api/v2/me');
  orgId = me.organizations[0].organizationId;
  meId = me.userId;
});
afterAll(async () => s.close());

async function ok(method: string, path: string, body?: unknown, token?: string) {
  const res = await s.api(method, path, body, token);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}

function expectError(res: { status: number; body: any }, status: number, code: number, field?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.code).toBe(code);
  expect(typeof res.body.message).toBe('string');
  expect(Array.isArray(res.body.details)).toBe(true);
  if (field !== undefined) {
    expect(res.body.details[0]['@type']).toBe('type.googleapis.com/google.rpc.BadRequest');
    expect(res.body.details[0].fieldViolations.map((v: { field: string }) => v.field)).toContain(field);
  }
  expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts:\d+/); // no stack traces
}

/** A list request with a CEL filter (the filter fields themselves are covered in filters.test.ts). */
function withFilter(path: string, filter: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}filter=${encodeURIComponent(filter)}`;
}

const sortedKeys = (o: object) => Object.keys(o).sort();
const uniq = (p: string) => `${p}-${randomUUID().slice(0, 8)}`;

/** A caller alone in a fresh organization, so list contents and orders are exact. */
async function freshOrg(prefix: string) {
  const token = s.newToken(`${uniq(prefix)}@outpost.test`, uniq(`${prefix} org`));
  const me = await ok('GET', '/api/v2/me', undefined, token);
  return { token, organizationId: me.organizations[0].organizationId as string, userId: me.userId as string };
}

async function createAsset(name: string, extra: Record<string, unknown> = {}, token?: string) {
  return (await ok('POST', '/api/v1/assets', { name, ...extra }, token)).asset;
}
async function createRun(body: Record<string, unknown>, token?: string) {
  return (await ok('POST', '/api/v2/runs', body, token)).run;
}
async function createChannel(body: Record<string, unknown>, token?: string) {
  return (await ok('POST', '/api/v3/channels', body, token)).channel;
}

/** Pages through a list until the token is empty. */
async function listAll(path: string, field: string, pageSize: number, token?: string) {
  const items: any[] = [];
  let pageToken = '';
  for (let i = 0; i < 100; i++) {
    const sep = path.includes('?') ? '&' : '?';
    const body = await ok(
      'GET',
      `${path}${sep}page_size=${pageSize}${pageToken ? `&page_token=${encodeURIComponent(pageToken)}` : ''}`,
      undefined,
      token,
    );
    expect(body[field].length).toBeLessThanOrEqual(pageSize);
    items.push(...body[field]);
    pageToken = body.nextPageToken;
    if (!pageToken) break;
  }
  return items;
}

const ASSET_KEYS = [
  'assetId',
  'name',
  'organizationId',
  'createdDate',
  'createdByUserId',
  'modifiedDate',
  'modifiedByUserId',
  'tags',
  'metadata',
  'archivedDate',
  'isArchived',
];
const RUN_REQUIRED_KEYS = [
  'runId',
  'createdDate',
  'modifiedDate',
  'createdByUserId',
  'modifiedByUserId',
  'organizationId',
  'isPinned',
  'name',
  'description',
  'tags',
  'defaultReportId',
  'metadata',
  'assetIds',
  'isAdhoc',
  'isArchived',
];
const CHANNEL_KEYS = [
  'channelId',
  'name',
  'assetId',
  'description',
  'unitId',
  'createdDate',
  'modifiedDate',
  'createdByUserId',
  'modifiedByUserId',
  'dataType',
  'enumTypes',
  'bitFieldElements',
  'displayDescription',
  'displayUnitId',
  'metadata',
  'active',
];

// ---------------------------------------------------------------------------------------------------
describe('Assets', () => {
  it('CreateAsset returns the full wire shape and creates its tags on first use', async () => {
    const name = uniq('engine');
    const tag = uniq('asset-tag');
    const a = await createAsset(name, {
      tags: [tag, 'hot-fire'],
      metadata: [
        { key: { name: 'serial', type: 'METADATA_KEY_TYPE_STRING' }, stringValue: 'SN-1' },
        { key: { name: 'mass' }, numberValue: 12.5 },
      ],
    });
    expect(sortedKeys(a)).toEqual([...ASSET_KEYS].sort());
    expect(a).toEqual({
      assetId: expect.stringMatching(UUID),
      name,
      organizationId: orgId,
      createdDate: expect.stringMatching(RFC3339),
      createdByUserId: meId,
      modifiedDate: a.createdDate,
      modifiedByUserId: meId,
      tags: [tag, 'hot-fire'],
      metadata: unarchivedMetadata(
        { key: { name: 'serial', type: 'METADATA_KEY_TYPE_STRING' }, stringValue: 'SN-1' },
        { key: { name: 'mass', type: 'METADATA_KEY_TYPE_NUMBER' }, numberValue: 12.5 },
      ),
      archivedDate: null,
      isArchived: false,
    });
    const tags = await listAll('/api/v2/tags', 'tags', 1000);
    expect(tags.map((t) => t.name)).toContain(tag);
  });

  it('CreateAsset accepts snake_case keys and ignores unknown ones', async () => {
    const name = uniq('snake');
    const a = (await ok('POST', '/api/v1/assets', { name, tags: [], metadata: [{ key: { name: 'ok' }, boolean_value: true }], bogus: 1 }))
      .asset;
    expect(a.metadata).toEqual(unarchivedMetadata({ key: { name: 'ok', type: 'METADATA_KEY_TYPE_BOOLEAN' }, booleanValue: true }));
  });

  it('CreateAsset: a duplicate name in the organization is ALREADY_EXISTS (409, code 6); names are per organization', async () => {
    const name = uniq('dup');
    await createAsset(name);
    const res = await s.api('POST', '/api/v1/assets', { name });
    expectError(res, 409, 6);
    expect(res.body.details[0]).toMatchObject({
      '@type': 'type.googleapis.com/google.rpc.ResourceInfo',
      resourceType: 'asset',
      resourceName: name,
    });
    const other = await freshOrg('dup');
    expect((await createAsset(name, {}, other.token)).organizationId).toBe(other.organizationId);
  });

  it('CreateAsset validation: name required, tag names non-empty, metadata keys unique', async () => {
    expectError(await s.api('POST', '/api/v1/assets', {}), 400, 3, 'name');
    expectError(await s.api('POST', '/api/v1/assets', { name: '' }), 400, 3, 'name');
    expectError(await s.api('POST', '/api/v1/assets', { name: uniq('t'), tags: ['  '] }), 400, 3, 'tags');
    const dupMeta = [
      { key: { name: 'k' }, stringValue: 'a' },
      { key: { name: 'k' }, stringValue: 'b' },
    ];
    expectError(await s.api('POST', '/api/v1/assets', { name: uniq('m'), metadata: dupMeta }), 400, 3, 'metadata');
    expectError(
      await s.api('POST', '/api/v1/assets', { name: uniq('m'), metadata: [{ stringValue: 'no key' }] }),
      400,
      3,
      'metadata[0].key',
    );
  });

  it('GetAsset returns the asset; unknown ids are NOT_FOUND (404, code 5)', async () => {
    const a = await createAsset(uniq('get'));
    expect(await ok('GET', `/api/v1/assets/${a.assetId}`)).toEqual({ asset: a });
    expectError(await s.api('GET', `/api/v1/assets/${randomUUID()}`), 404, 5);
  });

  it('UpdateAsset changes tags and metadata named by the mask, leaving the rest', async () => {
    const a = await createAsset(uniq('upd'), { tags: ['one'], metadata: [{ key: { name: 'k' }, stringValue: 'v' }] });
    const tag = uniq('new-tag');
    const u = (await ok('PATCH', '/api/v1/assets', { asset: { assetId: a.assetId, tags: [tag], metadata: [] }, updateMask: 'tags' })).asset;
    expect(u.tags).toEqual([tag]);
    expect(u.metadata).toEqual(a.metadata);
    expect(parseTimestamp(u.modifiedDate)!).toBeGreaterThan(parseTimestamp(a.modifiedDate)!); // by instant, not text (.123Z sorts after .123456Z)
    expect(u.createdDate).toBe(a.createdDate);
    const tags = await listAll('/api/v2/tags', 'tags', 1000);
    expect(tags.map((t) => t.name)).toContain(tag);
    const m = (
      await ok('PATCH', '/api/v1/assets', {
        asset: { asset_id: a.assetId, metadata: [{ key: { name: 'n' }, numberValue: 2 }] },
        update_mask: 'metadata,tags',
      })
    ).asset;
    expect(m.metadata).toEqual(unarchivedMetadata({ key: { name: 'n', type: 'METADATA_KEY_TYPE_NUMBER' }, numberValue: 2 }));
    expect(m.tags).toEqual([]);
  });

  it('UpdateAsset archives and unarchives through is_archived and archived_date', async () => {
    const a = await createAsset(uniq('arch'));
    const archived = (await ok('PATCH', '/api/v1/assets', { asset: { assetId: a.assetId, isArchived: true }, updateMask: 'isArchived' }))
      .asset;
    expect(archived.isArchived).toBe(true);
    expect(archived.archivedDate).toMatch(RFC3339);
    // is_archived=true again keeps the original date.
    const again = (await ok('PATCH', '/api/v1/assets', { asset: { assetId: a.assetId, isArchived: true }, updateMask: 'is_archived' }))
      .asset;
    expect(again.archivedDate).toBe(archived.archivedDate);
    const un = (await ok('PATCH', '/api/v1/assets', { asset: { assetId: a.assetId, isArchived: false }, updateMask: 'is_archived' })).asset;
    expect(un).toMatchObject({ isArchived: false, archivedDate: null });
    const dated = (
      await ok('PATCH', '/api/v1/assets', {
        asset: { assetId: a.assetId, archivedDate: '2026-01-02T03:04:05Z' },
        updateMask: 'archivedDate',
      })
    ).asset;
    expect(dated).toMatchObject({ isArchived: true, archivedDate: '2026-01-02T03:04:05Z' });
    const cleared = (await ok('PATCH', '/api/v1/assets', { asset: { assetId: a.assetId }, updateMask: 'archived_date' })).asset;
    expect(cleared).toMatchObject({ isArchived: false, archivedDate: null });
    const contradiction = await s.api('PATCH', '/api/v1/assets', {
      asset: { assetId: a.assetId, archivedDate: '2026-01-02T03:04:05Z', isArchived: false },
      updateMask: 'archived_date,is_archived',
    });
    expectError(contradiction, 400, 3, 'asset.is_archived');
  });

  it('UpdateAsset mask rules: required, immutable and unknown paths are INVALID_ARGUMENT naming update_mask', async () => {
    const a = await createAsset(uniq('mask'));
    expectError(await s.api('PATCH', '/api/v1/assets', { asset: { assetId: a.assetId, tags: [] } }), 400, 3, 'update_mask');
    expectError(await s.api('PATCH', '/api/v1/assets', { asset: { assetId: a.assetId, tags: [] }, updateMask: '' }), 400, 3, 'update_mask');
    const immutable = await s.api('PATCH', '/api/v1/assets', { asset: { assetId: a.assetId, name: 'x' }, updateMask: 'name' });
    expectError(immutable, 400, 3, 'update_mask');
    expect(immutable.body.message).toContain('cannot be updated');
    const unknown = await s.api('PATCH', '/api/v1/assets', { asset: { assetId: a.assetId }, updateMask: 'colour' });
    expectError(unknown, 400, 3, 'update_mask');
    expect(unknown.body.message).toContain('unknown field');
    expectError(await s.api('PATCH', '/api/v1/assets', { asset: {}, updateMask: 'tags' }), 400, 3, 'asset.asset_id');
    expectError(await s.api('PATCH', '/api/v1/assets', { asset: { assetId: randomUUID(), tags: [] }, updateMask: 'tags' }), 404, 5);
    expectError(
      await s.api('PATCH', '/api/v1/assets', { asset: { assetId: a.assetId, archivedDate: 'yesterday' }, updateMask: 'archived_date' }),
      400,
      3,
      'asset.archived_date',
    );
    // Nothing was written by the failed requests.
    expect((await ok('GET', `/api/v1/assets/${a.assetId}`)).asset).toEqual(a);
  });

  it('ArchiveAsset archives the asset and, with archive_runs=true, its runs (returning their ids)', async () => {
    const a = await createAsset(uniq('archive'));
    const b = await createAsset(uniq('bystander'));
    const body = (assetIds: string[]) => ({
      name: uniq('r'),
      startTime: '2026-09-01T00:00:00Z',
      stopTime: '2026-09-01T01:00:00Z',
      assetIds,
    });
    const r1 = (await ok('POST', '/api/v2/runs:adhoc', body([a.assetId]))).run;
    const r2 = (await ok('POST', '/api/v2/runs:adhoc', body([a.assetId, b.assetId]))).run;
    const rb = (await ok('POST', '/api/v2/runs:adhoc', body([b.assetId]))).run;

    expect(await ok('POST', `/api/v1/assets/${b.assetId}/archive`)).toEqual({ archivedRunIds: [] });
    expect((await ok('GET', `/api/v1/assets/${b.assetId}`)).asset.isArchived).toBe(true);
    expect((await ok('GET', `/api/v2/runs/${rb.runId}`)).run.isArchived).toBe(false);

    const res = await ok('POST', `/api/v1/assets/${a.assetId}/archive?archive_runs=true`);
    expect(res).toEqual({ archivedRunIds: [r1.runId, r2.runId] });
    const got = (await ok('GET', `/api/v2/runs/${r1.runId}`)).run;
    expect(got.isArchived).toBe(true);
    expect(got.archivedDate).toMatch(RFC3339);
    // Already archived runs are not reported again.
    expect(await ok('POST', `/api/v1/assets/${a.assetId}/archive?archiveRuns=1`)).toEqual({ archivedRunIds: [] });
    expectError(await s.api('POST', `/api/v1/assets/${a.assetId}/archive?archive_runs=maybe`), 400, 3, 'archive_runs');
    expectError(await s.api('POST', `/api/v1/assets/${randomUUID()}/archive`), 404, 5);
  });

  it('DeleteAsset archives (deprecated) and returns {}', async () => {
    const a = await createAsset(uniq('delete'));
    expect(await ok('DELETE', `/api/v1/assets/${a.assetId}`)).toEqual({});
    const got = (await ok('GET', `/api/v1/assets/${a.assetId}`)).asset;
    expect(got.isArchived).toBe(true);
    expectError(await s.api('DELETE', `/api/v1/assets/${randomUUID()}`), 404, 5);
  });

  it('ListAssets: created_date desc by default, documented order_by fields, keyset paging, filters', async () => {
    const o = await freshOrg('assets');
    const names = ['charlie', 'alpha', 'bravo', 'delta', 'echo'];
    const created = [];
    for (const n of names) created.push(await createAsset(n, {}, o.token));
    const all = await listAll('/api/v1/assets', 'assets', 2, o.token);
    expect(all.map((a) => a.name)).toEqual([...names].reverse());
    expect(all[0]).toEqual(created[created.length - 1]);
    const byName = await listAll('/api/v1/assets?order_by=name', 'assets', 2, o.token);
    expect(byName.map((a) => a.name)).toEqual([...names].sort());
    const byNameDesc = (await ok('GET', '/api/v1/assets?orderBy=name%20desc', undefined, o.token)).assets;
    expect(byNameDesc.map((a: any) => a.name)).toEqual([...names].sort().reverse());
    await ok(
      'PATCH',
      '/api/v1/assets',
      { asset: { assetId: created[0].assetId, archivedDate: '2026-01-01T00:00:00Z' }, updateMask: 'archived_date' },
      o.token,
    );
    const byArchived = (await ok('GET', '/api/v1/assets?order_by=archived_date%20desc,name', undefined, o.token)).assets;
    expect(byArchived[0].name).toBe('charlie');
    for (const f of ['created_date', 'modified_date desc'])
      await ok('GET', `/api/v1/assets?order_by=${encodeURIComponent(f)}`, undefined, o.token);
    expectError(await s.api('GET', '/api/v1/assets?order_by=organization_id', undefined, o.token), 400, 3, 'order_by');
    expectError(await s.api('GET', '/api/v1/assets?page_size=-1', undefined, o.token), 400, 3, 'page_size');
    expect((await listAll(withFilter('/api/v1/assets', "name == 'alpha'"), 'assets', 2, o.token)).map((a) => a.name)).toEqual(['alpha']);
    expect(
      (await listAll(withFilter('/api/v1/assets?order_by=name', 'is_archived == false'), 'assets', 2, o.token)).map((a) => a.name),
    ).toEqual(['alpha', 'bravo', 'delta', 'echo']);
    const first = await ok('GET', '/api/v1/assets?page_size=2', undefined, o.token);
    expectError(
      await s.api(
        'GET',
        `/api/v1/assets?page_size=2&order_by=name&page_token=${encodeURIComponent(first.nextPageToken)}`,
        undefined,
        o.token,
      ),
      400,
      3,
      'page_token',
    );
  });
});

// ---------------------------------------------------------------------------------------------------
describe('Runs', () => {
  it('CreateRun (minimal): proto3 optional fields are omitted when unset', async () => {
    const r = await createRun({ name: uniq('minimal') });
    expect(sortedKeys(r)).toEqual([...RUN_REQUIRED_KEYS].sort());
    expect(r).toEqual({
      runId: expect.stringMatching(UUID),
      createdDate: expect.stringMatching(RFC3339),
      modifiedDate: r.createdDate,
      createdByUserId: meId,
      modifiedByUserId: meId,
      organizationId: orgId,
      isPinned: false,
      name: r.name,
      description: '',
      tags: [],
      defaultReportId: '',
      metadata: [],
      assetIds: [],
      isAdhoc: false,
      isArchived: false,
    });
  });

  it('CreateRun (full): times, duration as a protobuf Duration, client_key, tags, metadata', async () => {
    const key = uniq('key');
    const r = await createRun({
      name: 'Hot fire 7',
      description: 'nominal',
      startTime: '2026-09-01T10:00:00Z',
      stop_time: '2026-09-01T10:02:03.500Z',
      clientKey: key,
      tags: ['campaign-7'],
      metadata: [{ key: { name: 'stand' }, stringValue: 'B' }],
      createDefaultReport: true,
      organizationId: orgId,
    });
    expect(sortedKeys(r)).toEqual([...RUN_REQUIRED_KEYS, 'startTime', 'stopTime', 'clientKey', 'duration'].sort());
    expect(r).toMatchObject({
      name: 'Hot fire 7',
      description: 'nominal',
      startTime: '2026-09-01T10:00:00Z',
      stopTime: '2026-09-01T10:02:03.500Z',
      duration: '123.5s',
      clientKey: key,
      tags: ['campaign-7'],
      metadata: [{ key: { name: 'stand', type: 'METADATA_KEY_TYPE_STRING' }, stringValue: 'B' }],
      defaultReportId: '',
    });
    // Running (no stop): duration counts from start to now.
    const running = await createRun({ name: uniq('running'), startTime: new Date(Date.now() - 60_000).toISOString() });
    expect(running.stopTime).toBeUndefined();
    expect(Number(running.duration.replace(/s$/, ''))).toBeGreaterThanOrEqual(59);
  });

  it('CreateRun: client_key is unique in the organization (409, code 6); validation names the field', async () => {
    const key = uniq('ck');
    await createRun({ name: 'a', clientKey: key });
    expectError(await s.api('POST', '/api/v2/runs', { name: 'b', clientKey: key }), 409, 6);
    const other = await freshOrg('runkey');
    expect((await createRun({ name: 'c', clientKey: key }, other.token)).clientKey).toBe(key);
    expectError(await s.api('POST', '/api/v2/runs', { description: 'no name' }), 400, 3, 'name');
    expectError(await s.api('POST', '/api/v2/runs', { name: 'x', clientKey: '' }), 400, 3, 'client_key');
    expectError(await s.api('POST', '/api/v2/runs', { name: 'x', stopTime: '2026-09-01T10:00:00Z' }), 400, 3, 'stop_time');
    expectError(
      await s.api('POST', '/api/v2/runs', { name: 'x', startTime: '2026-09-01T10:00:00Z', stopTime: '2026-09-01T09:00:00Z' }),
      400,
      3,
      'stop_time',
    );
    expectError(await s.api('POST', '/api/v2/runs', { name: 'x', startTime: 'soon' }), 400, 3, 'start_time');
    expectError(await s.api('POST', '/api/v2/runs', { name: 'x', organizationId: randomUUID() }), 404, 5);
  });

  it('CreateAdhocRun: needs existing assets and both times; the run is ad hoc and lists its assets', async () => {
    const a = await createAsset(uniq('adhoc'));
    const r = (
      await ok('POST', '/api/v2/runs:adhoc', {
        name: 'adhoc',
        description: 'window',
        startTime: '2026-09-01T10:00:00Z',
        stopTime: '2026-09-01T10:00:30Z',
        assetIds: [a.assetId, a.assetId],
        tags: ['adhoc-tag'],
      })
    ).run;
    expect(r).toMatchObject({ isAdhoc: true, assetIds: [a.assetId], duration: '30s', tags: ['adhoc-tag'], organizationId: orgId });
    expect(r.clientKey).toBeUndefined();
    const base = { name: 'x', startTime: '2026-09-01T10:00:00Z', stopTime: '2026-09-01T10:00:30Z' };
    expectError(await s.api('POST', '/api/v2/runs:adhoc', base), 400, 3, 'asset_ids');
    expectError(await s.api('POST', '/api/v2/runs:adhoc', { ...base, assetIds: [] }), 400, 3, 'asset_ids');
    const missing = await s.api('POST', '/api/v2/runs:adhoc', { ...base, assetIds: [a.assetId, 'nope'] });
    expectError(missing, 400, 3, 'asset_ids');
    expect(missing.body.message).toContain("'nope'");
    expectError(
      await s.api('POST', '/api/v2/runs:adhoc', { name: 'x', stopTime: base.stopTime, assetIds: [a.assetId] }),
      400,
      3,
      'start_time',
    );
    expectError(
      await s.api('POST', '/api/v2/runs:adhoc', { name: 'x', startTime: base.startTime, assetIds: [a.assetId] }),
      400,
      3,
      'stop_time',
    );
    expectError(
      await s.api('POST', '/api/v2/runs:adhoc', { ...base, stopTime: '2026-09-01T09:00:00Z', assetIds: [a.assetId] }),
      400,
      3,
      'stop_time',
    );
  });

  it('GetRun returns the run; unknown is NOT_FOUND', async () => {
    const r = await createRun({ name: uniq('get') });
    expect(await ok('GET', `/api/v2/runs/${r.runId}`)).toEqual({ run: r });
    expectError(await s.api('GET', `/api/v2/runs/${randomUUID()}`), 404, 5);
  });

  it('UpdateRun changes exactly the masked fields; clearing optional times omits them', async () => {
    const r = await createRun({
      name: uniq('upd'),
      description: 'd',
      startTime: '2026-09-01T10:00:00Z',
      stopTime: '2026-09-01T11:00:00Z',
      tags: ['x'],
    });
    const u = (
      await ok('PATCH', '/api/v2/runs', {
        run: {
          runId: r.runId,
          name: 'renamed',
          description: 'ignored',
          isPinned: true,
          tags: ['y', 'z'],
          metadata: [{ key: { name: 'k' }, booleanValue: false }],
        },
        updateMask: 'name,isPinned,tags,metadata',
      })
    ).run;
    expect(u).toMatchObject({
      name: 'renamed',
      description: 'd',
      isPinned: true,
      tags: ['y', 'z'],
      metadata: [{ key: { name: 'k', type: 'METADATA_KEY_TYPE_BOOLEAN' }, booleanValue: false }],
    });
    expect(parseTimestamp(u.modifiedDate)!).toBeGreaterThan(parseTimestamp(r.modifiedDate)!); // by instant, not text (.123Z sorts after .123456Z)
    const cleared = (await ok('PATCH', '/api/v2/runs', { run: { runId: r.runId }, updateMask: 'stop_time,description' })).run;
    expect(cleared.stopTime).toBeUndefined();
    expect(cleared.description).toBe('');
    expect(cleared.startTime).toBe('2026-09-01T10:00:00Z');
    const moved = (
      await ok('PATCH', '/api/v2/runs', {
        run: { runId: r.runId, startTime: '2026-09-02T00:00:00Z', stopTime: '2026-09-02T00:00:01.25Z' },
        updateMask: 'start_time,stop_time',
      })
    ).run;
    expect(moved).toMatchObject({ startTime: '2026-09-02T00:00:00Z', stopTime: '2026-09-02T00:00:01.250Z', duration: '1.25s' });
    expectError(await s.api('PATCH', '/api/v2/runs', { run: { runId: r.runId }, updateMask: 'start_time' }), 400, 3, 'run.stop_time');
    expectError(
      await s.api('PATCH', '/api/v2/runs', { run: { runId: r.runId, stopTime: '2026-09-01T00:00:00Z' }, updateMask: 'stop_time' }),
      400,
      3,
      'run.stop_time',
    );
    expectError(await s.api('PATCH', '/api/v2/runs', { run: { runId: r.runId, name: '' }, updateMask: 'name' }), 400, 3, 'run.name');
    const archived = (await ok('PATCH', '/api/v2/runs', { run: { runId: r.runId, isArchived: true }, updateMask: 'is_archived' })).run;
    expect(archived.isArchived).toBe(true);
    expect(archived.archivedDate).toMatch(RFC3339);
    const unarchived = (await ok('PATCH', '/api/v2/runs', { run: { runId: r.runId, isArchived: false }, updateMask: 'is_archived' })).run;
    expect(unarchived.isArchived).toBe(false);
    expect(unarchived.archivedDate).toBeUndefined();
  });

  it('UpdateRun: client_key can be set once, must stay unique, then cannot change', async () => {
    const r = await createRun({ name: uniq('ck') });
    const taken = uniq('taken');
    await createRun({ name: 'holder', clientKey: taken });
    expectError(await s.api('PATCH', '/api/v2/runs', { run: { runId: r.runId, clientKey: taken }, updateMask: 'client_key' }), 409, 6);
    const key = uniq('once');
    expect((await ok('PATCH', '/api/v2/runs', { run: { runId: r.runId, clientKey: key }, updateMask: 'clientKey' })).run.clientKey).toBe(
      key,
    );
    // Repeating the same value is fine; a different value or clearing is not.
    await ok('PATCH', '/api/v2/runs', { run: { runId: r.runId, clientKey: key }, updateMask: 'client_key' });
    expectError(
      await s.api('PATCH', '/api/v2/runs', { run: { runId: r.runId, clientKey: 'other' }, updateMask: 'client_key' }),
      400,
      3,
      'run.client_key',
    );
    expectError(await s.api('PATCH', '/api/v2/runs', { run: { runId: r.runId }, updateMask: 'client_key' }), 400, 3, 'run.client_key');
  });

  it('UpdateRun mask rules', async () => {
    const r = await createRun({ name: uniq('mask') });
    expectError(await s.api('PATCH', '/api/v2/runs', { run: { runId: r.runId, name: 'n' } }), 400, 3, 'update_mask');
    for (const path of ['organization_id', 'asset_ids', 'is_adhoc', 'duration', 'default_report_id', 'archived_date']) {
      const res = await s.api('PATCH', '/api/v2/runs', { run: { runId: r.runId }, updateMask: path });
      expectError(res, 400, 3, 'update_mask');
      expect(res.body.message).toContain('cannot be updated');
    }
    expectError(await s.api('PATCH', '/api/v2/runs', { run: { runId: r.runId }, updateMask: 'speed' }), 400, 3, 'update_mask');
    expectError(await s.api('PATCH', '/api/v2/runs', { run: { runId: randomUUID(), name: 'n' }, updateMask: 'name' }), 404, 5);
    expect((await ok('GET', `/api/v2/runs/${r.runId}`)).run).toEqual(r);
  });

  it('StopRun sets stop_time to now; not started or already stopped is FAILED_PRECONDITION', async () => {
    const r = await createRun({ name: uniq('stop'), startTime: '2026-01-01T00:00:00Z' });
    const before = Date.now();
    expect(await ok('PATCH', '/api/v2/runs:stop', { runId: r.runId })).toEqual({});
    const got = (await ok('GET', `/api/v2/runs/${r.runId}`)).run;
    expect(Date.parse(got.stopTime)).toBeGreaterThanOrEqual(before - 1000);
    expect(got.duration).toMatch(/^\d+(\.\d+)?s$/);
    expectError(await s.api('PATCH', '/api/v2/runs:stop', { run_id: r.runId }), 400, 9);
    const unstarted = await createRun({ name: uniq('unstarted') });
    expectError(await s.api('PATCH', '/api/v2/runs:stop', { runId: unstarted.runId }), 400, 9);
    expectError(await s.api('PATCH', '/api/v2/runs:stop', {}), 400, 3, 'run_id');
    expectError(await s.api('PATCH', '/api/v2/runs:stop', { runId: randomUUID() }), 404, 5);
  });

  it('DeleteRun needs a stop time and archives', async () => {
    const running = await createRun({ name: uniq('del'), startTime: '2026-01-01T00:00:00Z' });
    expectError(await s.api('DELETE', `/api/v2/runs/${running.runId}`), 400, 9);
    const stopped = await createRun({ name: uniq('del'), startTime: '2026-01-01T00:00:00Z', stopTime: '2026-01-01T00:01:00Z' });
    expect(await ok('DELETE', `/api/v2/runs/${stopped.runId}`)).toEqual({});
    const got = (await ok('GET', `/api/v2/runs/${stopped.runId}`)).run;
    expect(got.isArchived).toBe(true);
    expectError(await s.api('DELETE', `/api/v2/runs/${randomUUID()}`), 404, 5);
  });

  it('ListRuns: created_date desc by default, documented order_by fields, paging, filters', async () => {
    const o = await freshOrg('runs');
    const specs = [
      { name: 'b', description: 'z', startTime: '2026-09-03T00:00:00Z' },
      { name: 'a', description: 'y' },
      { name: 'c', description: 'x', startTime: '2026-09-01T00:00:00Z', stopTime: '2026-09-01T00:00:01Z' },
    ];
    for (const b of specs) await createRun(b, o.token);
    const names = async (q: string) => (await listAll(`/api/v2/runs${q}`, 'runs', 2, o.token)).map((r) => r.name);
    expect(await names('')).toEqual(['c', 'a', 'b']);
    expect(await names('?order_by=name')).toEqual(['a', 'b', 'c']);
    expect(await names('?order_by=description')).toEqual(['c', 'a', 'b']);
    expect(await names('?order_by=created_date')).toEqual(['b', 'a', 'c']);
    // Runs without a start time sort first ascending, last descending.
    expect(await names('?order_by=start_time')).toEqual(['a', 'c', 'b']);
    expect(await names('?order_by=start_time%20desc')).toEqual(['b', 'c', 'a']);
    expect(await names('?order_by=stop_time%20desc,name')).toEqual(['c', 'a', 'b']);
    expect(await names('?order_by=modified_date%20desc')).toEqual(['c', 'a', 'b']);
    expectError(await s.api('GET', '/api/v2/runs?order_by=duration', undefined, o.token), 400, 3, 'order_by');
    expect(await names(`?filter=${encodeURIComponent('is_archived == false')}`)).toEqual(['c', 'a', 'b']);
    expect(await names(`?order_by=name&filter=${encodeURIComponent('start_time == null || stop_time != null')}`)).toEqual(['a', 'c']);
  });
});

// ---------------------------------------------------------------------------------------------------
describe('Tags', () => {
  it('CreateTag returns the tag; an existing name is ALREADY_EXISTS', async () => {
    const name = uniq('tag');
    const res = await ok('POST', '/api/v2/tags', { name });
    expect(sortedKeys(res.tag)).toEqual(['createdByUserId', 'createdDate', 'name', 'tagId']);
    expect(res.tag).toEqual({
      tagId: expect.stringMatching(UUID),
      name,
      createdByUserId: meId,
      createdDate: expect.stringMatching(RFC3339),
    });
    expectError(await s.api('POST', '/api/v2/tags', { name }), 409, 6);
    // A tag created on first use by an asset also exists.
    const used = uniq('used');
    await createAsset(uniq('tagged'), { tags: [used] });
    expectError(await s.api('POST', '/api/v2/tags', { name: used }), 409, 6);
    expectError(await s.api('POST', '/api/v2/tags', {}), 400, 3, 'name');
    expectError(await s.api('POST', '/api/v2/tags', { name: '   ' }), 400, 3, 'name');
  });

  it('ListTags: created_date asc by default, order by name, tag_type validated and accepted, filters', async () => {
    const o = await freshOrg('tags');
    for (const n of ['mango', 'apple', 'kiwi']) await ok('POST', '/api/v2/tags', { name: n }, o.token);
    await createAsset('with-tags', { tags: ['banana', 'apple'] }, o.token);
    const names = async (q: string) => (await listAll(`/api/v2/tags${q}`, 'tags', 2, o.token)).map((t) => t.name);
    expect(await names('')).toEqual(['mango', 'apple', 'kiwi', 'banana']);
    expect(await names('?order_by=name')).toEqual(['apple', 'banana', 'kiwi', 'mango']);
    expect(await names('?order_by=name%20desc')).toEqual(['mango', 'kiwi', 'banana', 'apple']);
    expect(await names('?order_by=created_date%20desc')).toEqual(['banana', 'kiwi', 'apple', 'mango']);
    expect(await names('?tag_type=TAG_TYPE_ASSET')).toEqual(['mango', 'apple', 'kiwi', 'banana']);
    expect(await names('?tagType=6')).toEqual(['mango', 'apple', 'kiwi', 'banana']);
    expectError(await s.api('GET', '/api/v2/tags?tag_type=TAG_TYPE_FRUIT', undefined, o.token), 400, 3, 'tag_type');
    expectError(await s.api('GET', '/api/v2/tags?order_by=tag_id', undefined, o.token), 400, 3, 'order_by');
    expect(await names(`?filter=${encodeURIComponent("name == 'kiwi'")}`)).toEqual(['kiwi']);
    expect(await names(`?order_by=name&filter=${encodeURIComponent("name in ['apple', 'banana', 'cherry']")}`)).toEqual([
      'apple',
      'banana',
    ]);
  });
});

// ---------------------------------------------------------------------------------------------------
describe('Users', () => {
  it('GetMe returns the caller, their organizations and empty permissions', async () => {
    const me = await ok('GET', '/api/v2/me');
    expect(me).toEqual({
      userId: expect.stringMatching(UUID),
      userEmail: 'engineer@outpost.local',
      organizations: [{ organizationId: orgId, organizationName: 'Field Team', isAbacEnabled: true }],
      isAdmin: false,
      permissions: { organizationPermissionResources: {} },
      createdDate: expect.stringMatching(RFC3339),
      hashBasedMessageAuthenticationCode: '',
    });
    expectError(await s.api('GET', '/api/v2/me', undefined, null), 401, 16);
  });

  it('GetUser: users sharing an organization are visible, with only the shared organizations', async () => {
    const peerToken = s.newToken('peer@outpost.local');
    const peer = await ok('GET', '/api/v2/me', undefined, peerToken);
    expect(await ok('GET', `/api/v2/users/${peer.userId}`)).toEqual({
      user: {
        userId: peer.userId,
        userName: 'peer@outpost.local',
        organizations: [{ organizationId: orgId, organizationName: 'Field Team', isAbacEnabled: true }],
      },
    });
    expect((await ok('GET', `/api/v2/users/${meId}`)).user.userName).toBe('engineer@outpost.local');
    // The peer also joins an organization the default caller is not in: that one is not shown to the default caller.
    s.newToken('peer@outpost.local', uniq('Peer private'));
    expect((await ok('GET', `/api/v2/users/${peer.userId}`)).user.organizations).toEqual([
      { organizationId: orgId, organizationName: 'Field Team', isAbacEnabled: true },
    ]);
    const stranger = await freshOrg('stranger');
    expectError(await s.api('GET', `/api/v2/users/${stranger.userId}`), 404, 5);
    expectError(await s.api('GET', `/api/v2/users/${meId}`, undefined, stranger.token), 404, 5);
    expectError(await s.api('GET', `/api/v2/users/${randomUUID()}`), 404, 5);
  });

  it('ListActiveUsers: the organization members, name asc by default, paged, filtered', async () => {
    const org = uniq('Users org');
    const tokens = ['zed@u.test', 'amy@u.test', 'mid@u.test'].map((u) => s.newToken(`${u}.${org}`, org));
    const names = async (q: string) => (await listAll(`/api/v2/users${q}`, 'users', 2, tokens[0])).map((u) => u.userName.split('.')[0]);
    expect(await names('')).toEqual(['amy@u', 'mid@u', 'zed@u']);
    expect(await names('?order_by=name%20desc')).toEqual(['zed@u', 'mid@u', 'amy@u']);
    expect(await names('?order_by=created_date')).toEqual(['zed@u', 'amy@u', 'mid@u']);
    expect(await names('?order_by=modified_date%20desc')).toEqual(['mid@u', 'amy@u', 'zed@u']);
    const page = await ok('GET', '/api/v2/users?page_size=1', undefined, tokens[1]);
    expect(page.users).toHaveLength(1);
    expect(sortedKeys(page.users[0])).toEqual(['organizations', 'userId', 'userName']);
    expect(page.users[0].organizations).toHaveLength(1);
    expect(page.nextPageToken).not.toBe('');
    expectError(await s.api('GET', '/api/v2/users?order_by=email', undefined, tokens[0]), 400, 3, 'order_by');
    expect(await names(`?filter=${encodeURIComponent("name.startsWith('amy@')")}`)).toEqual(['amy@u']);
    expect(await names(`?filter=${encodeURIComponent("name == 'x'")}`)).toEqual([]);
    // Users of the default organization are not listed to this organization.
    expect((await ok('GET', '/api/v2/users', undefined, tokens[0])).users.map((u: any) => u.userId)).not.toContain(meId);
  });
});

// ---------------------------------------------------------------------------------------------------
describe('Channels', () => {
  it('CreateChannel (Outpost extension) returns the full v3 shape', async () => {
    const a = await createAsset(uniq('chan-asset'));
    const c = await createChannel({
      assetId: a.assetId,
      name: 'chamber.pressure',
      description: 'Pc',
      unitId: 'psi',
      dataType: 'CHANNEL_DATA_TYPE_FLOAT',
      display_description: 'Chamber',
    });
    expect(sortedKeys(c)).toEqual([...CHANNEL_KEYS].sort());
    expect(c).toEqual({
      channelId: expect.stringMatching(UUID),
      name: 'chamber.pressure',
      assetId: a.assetId,
      description: 'Pc',
      unitId: 'psi',
      createdDate: expect.stringMatching(RFC3339),
      modifiedDate: c.createdDate,
      createdByUserId: meId,
      modifiedByUserId: meId,
      dataType: 'CHANNEL_DATA_TYPE_FLOAT',
      enumTypes: [],
      bitFieldElements: [],
      displayDescription: 'Chamber',
      displayUnitId: '',
      metadata: [],
      active: true,
    });
    expect((await createChannel({ assetId: a.assetId, name: 'valve.state', dataType: 5 })).dataType).toBe('CHANNEL_DATA_TYPE_BOOL');
    expect((await createChannel({ assetId: a.assetId, name: 'default.type' })).dataType).toBe('CHANNEL_DATA_TYPE_DOUBLE');
  });

  it('CreateChannel errors: name unique per asset, asset must exist, enum checked', async () => {
    const a = await createAsset(uniq('chan-err'));
    const b = await createAsset(uniq('chan-err'));
    await createChannel({ assetId: a.assetId, name: 'dup' });
    expectError(await s.api('POST', '/api/v3/channels', { assetId: a.assetId, name: 'dup' }), 409, 6);
    await createChannel({ assetId: b.assetId, name: 'dup' });
    expectError(await s.api('POST', '/api/v3/channels', { assetId: randomUUID(), name: 'x' }), 400, 3, 'asset_id');
    expectError(await s.api('POST', '/api/v3/channels', { name: 'x' }), 400, 3, 'asset_id');
    expectError(await s.api('POST', '/api/v3/channels', { assetId: a.assetId }), 400, 3, 'name');
    expectError(
      await s.api('POST', '/api/v3/channels', { assetId: a.assetId, name: 'y', dataType: 'CHANNEL_DATA_TYPE_COMPLEX' }),
      400,
      3,
      'data_type',
    );
  });

  it('GetChannel returns the channel; unknown is NOT_FOUND', async () => {
    const a = await createAsset(uniq('chan-get'));
    const c = await createChannel({ assetId: a.assetId, name: 'x' });
    expect(await ok('GET', `/api/v3/channels/${c.channelId}`)).toEqual({ channel: c });
    expectError(await s.api('GET', `/api/v3/channels/${randomUUID()}`), 404, 5);
  });

  it('ListChannels: created_date asc by default, order_by name/active, page size up to 10 000, filters', async () => {
    const o = await freshOrg('channels');
    const a = await createAsset('a', {}, o.token);
    for (const n of ['temp', 'accel', 'pressure']) await createChannel({ assetId: a.assetId, name: n }, o.token);
    const names = async (q: string) => (await listAll(`/api/v3/channels${q}`, 'channels', 2, o.token)).map((c) => c.name);
    expect(await names('')).toEqual(['temp', 'accel', 'pressure']);
    expect(await names('?order_by=name')).toEqual(['accel', 'pressure', 'temp']);
    expect(await names('?order_by=created_date%20desc')).toEqual(['pressure', 'accel', 'temp']);
    expect(await names('?order_by=active,name%20desc')).toEqual(['temp', 'pressure', 'accel']);
    expect(await names('?order_by=modified_date')).toEqual(['temp', 'accel', 'pressure']);
    // Above the maximum is coerced down, not rejected.
    expect((await ok('GET', '/api/v3/channels?page_size=20000', undefined, o.token)).channels).toHaveLength(3);
    expectError(await s.api('GET', '/api/v3/channels?order_by=asset_id', undefined, o.token), 400, 3, 'order_by');
    expect(await names(`?filter=${encodeURIComponent("name == 'temp'")}`)).toEqual(['temp']);
    expect(await names(`?order_by=name&filter=${encodeURIComponent(`asset_id == '${a.assetId}' && name != 'temp'`)}`)).toEqual([
      'accel',
      'pressure',
    ]);
  });
});

// ---------------------------------------------------------------------------------------------------
describe('Organization isolation', () => {
  let other: { token: string; organizationId: string; userId: string };
  let mine: { asset: any; run: any; channel: any };

  beforeAll(async () => {
    other = await freshOrg('isolated');
    const asset = await createAsset(uniq('mine'), { tags: ['private-tag'] });
    const run = (
      await ok('POST', '/api/v2/runs:adhoc', {
        name: 'mine',
        startTime: '2026-09-01T00:00:00Z',
        stopTime: '2026-09-01T00:00:01Z',
        assetIds: [asset.assetId],
      })
    ).run;
    const channel = await createChannel({ assetId: asset.assetId, name: 'mine' });
    mine = { asset, run, channel };
  });

  it('another organization cannot read, update, archive or reference these records (NOT_FOUND / unknown)', async () => {
    const t = other.token;
    expectError(await s.api('GET', `/api/v1/assets/${mine.asset.assetId}`, undefined, t), 404, 5);
    expectError(
      await s.api('PATCH', '/api/v1/assets', { asset: { assetId: mine.asset.assetId, tags: [] }, updateMask: 'tags' }, t),
      404,
      5,
    );
    expectError(await s.api('POST', `/api/v1/assets/${mine.asset.assetId}/archive?archive_runs=true`, undefined, t), 404, 5);
    expectError(await s.api('DELETE', `/api/v1/assets/${mine.asset.assetId}`, undefined, t), 404, 5);
    expectError(await s.api('GET', `/api/v2/runs/${mine.run.runId}`, undefined, t), 404, 5);
    expectError(await s.api('PATCH', '/api/v2/runs', { run: { runId: mine.run.runId, name: 'x' }, updateMask: 'name' }, t), 404, 5);
    expectError(await s.api('PATCH', '/api/v2/runs:stop', { runId: mine.run.runId }, t), 404, 5);
    expectError(await s.api('DELETE', `/api/v2/runs/${mine.run.runId}`, undefined, t), 404, 5);
    expectError(await s.api('GET', `/api/v3/channels/${mine.channel.channelId}`, undefined, t), 404, 5);
    expectError(await s.api('POST', '/api/v3/channels', { assetId: mine.asset.assetId, name: 'intruder' }, t), 400, 3, 'asset_id');
    expectError(
      await s.api(
        'POST',
        '/api/v2/runs:adhoc',
        { name: 'x', startTime: '2026-09-01T00:00:00Z', stopTime: '2026-09-01T00:00:01Z', assetIds: [mine.asset.assetId] },
        t,
      ),
      400,
      3,
      'asset_ids',
    );
    // Same names are free in the other organization.
    await createAsset(mine.asset.name, {}, t);
    await ok('POST', '/api/v2/tags', { name: 'private-tag' }, t);
    // Nothing changed on our side.
    expect((await ok('GET', `/api/v1/assets/${mine.asset.assetId}`)).asset).toEqual(mine.asset);
    expect((await ok('GET', `/api/v2/runs/${mine.run.runId}`)).run).toEqual(mine.run);
  });

  it('lists never include another organization; a foreign organization_id is NOT_FOUND', async () => {
    const t = other.token;
    for (const [path, field, id] of [
      ['/api/v1/assets', 'assets', 'assetId'],
      ['/api/v2/runs', 'runs', 'runId'],
      ['/api/v3/channels', 'channels', 'channelId'],
    ] as const) {
      const ids = (await listAll(path, field, 1000, t)).map((x) => x[id]);
      expect(ids).not.toContain((mine as any)[field.slice(0, -1)][id]);
      expectError(await s.api('GET', `${path}?organization_id=${orgId}`, undefined, t), 404, 5);
    }
    const tags = await listAll('/api/v2/tags', 'tags', 1000, t);
    expect(tags.map((x) => x.name)).toEqual(['private-tag']);
    expectError(await s.api('GET', `/api/v2/users?organization_id=${orgId}`, undefined, t), 404, 5);
    expect((await ok('GET', '/api/v2/users', undefined, t)).users.map((u: any) => u.userId)).toEqual([other.userId]);
  });
});

// ---------------------------------------------------------------------------------------------------
describe('Callers in several organizations', () => {
  let tokenA: string;
  let tokenB: string;
  let orgA: string;
  let orgB: string;

  beforeAll(async () => {
    const user = `${uniq('multi')}@b`;
    const [nameA, nameB] = [uniq('Org A'), uniq('Org B')];
    tokenA = s.newToken(user, nameA);
    tokenB = s.newToken(user, nameB);
    const me = await ok('GET', '/api/v2/me', undefined, tokenA);
    expect(me.organizations.map((o: any) => o.organizationName)).toEqual([nameA, nameB]);
    [orgA, orgB] = me.organizations.map((o: any) => o.organizationId);
    expect((await ok('GET', '/api/v2/me', undefined, tokenB)).userId).toBe(me.userId);
  });

  it('writes need organization_id (INVALID_ARGUMENT naming it), and honour it', async () => {
    expectError(await s.api('POST', '/api/v1/assets', { name: 'x' }, tokenA), 400, 3, 'organization_id');
    expectError(await s.api('POST', '/api/v2/runs', { name: 'x' }, tokenA), 400, 3, 'organization_id');
    expectError(await s.api('POST', '/api/v2/tags', { name: 'x' }, tokenA), 400, 3, 'organization_id');
    expectError(await s.api('POST', '/api/v1/assets', { name: 'x', organizationId: orgId }, tokenA), 404, 5);
    const inA = await createAsset('shared-name', { organizationId: orgA }, tokenA);
    const inB = await createAsset('shared-name', { organization_id: orgB }, tokenB);
    expect([inA.organizationId, inB.organizationId]).toEqual([orgA, orgB]);
    expect((await createRun({ name: 'r', organizationId: orgB }, tokenA)).organizationId).toBe(orgB);
    expect((await ok('POST', '/api/v2/tags', { name: 'multi-tag', organizationId: orgA }, tokenA)).tag.name).toBe('multi-tag');
    // An ad hoc run takes its organization from its assets; assets of two organizations are rejected.
    const times = { startTime: '2026-09-01T00:00:00Z', stopTime: '2026-09-01T00:00:01Z' };
    expect((await ok('POST', '/api/v2/runs:adhoc', { name: 'ah', ...times, assetIds: [inB.assetId] }, tokenA)).run.organizationId).toBe(
      orgB,
    );
    expectError(
      await s.api('POST', '/api/v2/runs:adhoc', { name: 'ah', ...times, assetIds: [inA.assetId, inB.assetId] }, tokenA),
      400,
      3,
      'asset_ids',
    );
    expectError(
      await s.api('POST', '/api/v2/runs:adhoc', { name: 'ah', ...times, assetIds: [inB.assetId], organizationId: orgA }, tokenA),
      400,
      3,
      'asset_ids',
    );
    // Channels follow their asset's organization.
    expect((await createChannel({ assetId: inB.assetId, name: 'c' }, tokenA)).assetId).toBe(inB.assetId);
  });

  it('lists without organization_id cover every organization of the caller; with it, one', async () => {
    const all = await listAll('/api/v1/assets', 'assets', 1000, tokenA);
    expect(new Set(all.map((a) => a.organizationId))).toEqual(new Set([orgA, orgB]));
    const onlyB = await listAll(`/api/v1/assets?organization_id=${orgB}`, 'assets', 1000, tokenA);
    expect(onlyB.length).toBeGreaterThan(0);
    expect(onlyB.every((a) => a.organizationId === orgB)).toBe(true);
    const runsA = await listAll(`/api/v2/runs?organizationId=${orgA}`, 'runs', 1000, tokenA);
    expect(runsA).toEqual([]);
    expect((await listAll('/api/v2/tags', 'tags', 1000, tokenA)).map((t) => t.name)).toContain('multi-tag');
    expect(await listAll(`/api/v2/tags?organization_id=${orgB}`, 'tags', 1000, tokenA)).toEqual([]);
    // A page token is bound to the organization it was issued for.
    const first = await ok('GET', '/api/v1/assets?page_size=1', undefined, tokenA);
    expectError(
      await s.api(
        'GET',
        `/api/v1/assets?page_size=1&organization_id=${orgA}&page_token=${encodeURIComponent(first.nextPageToken)}`,
        undefined,
        tokenA,
      ),
      400,
      3,
      'page_token',
    );
  });

  it('ListActiveUsers requires organization_id (spec rule 1); GetUser shows the shared organizations', async () => {
    expectError(await s.api('GET', '/api/v2/users', undefined, tokenA), 400, 3, 'organization_id');
    const soloB = s.newToken(`${uniq('solo')}@b`, (await ok('GET', '/api/v2/me', undefined, tokenA)).organizations[1].organizationName);
    const soloMe = await ok('GET', '/api/v2/me', undefined, soloB);
    const usersB = (await ok('GET', `/api/v2/users?organization_id=${orgB}`, undefined, tokenA)).users;
    expect(usersB.map((u: any) => u.userId)).toContain(soloMe.userId);
    const usersA = (await ok('GET', `/api/v2/users?organizationId=${orgA}`, undefined, tokenA)).users;
    expect(usersA.map((u: any) => u.userId)).not.toContain(soloMe.userId);
    const multi = usersB.find((u: any) => u.userId !== soloMe.userId);
    expect(multi.organizations.map((o: any) => o.organizationId)).toEqual([orgA, orgB]);
    // The single-organization user sees the multi-organization user with only their shared organization.
    expect((await ok('GET', `/api/v2/users/${multi.userId}`, undefined, soloB)).user.organizations).toEqual([soloMe.organizations[0]]);
  });
});

// ---------------------------------------------------------------------------------------------------
describe('Name resolution end to end', () => {
  it('an annotation references an asset by name, a run and channels created through these endpoints', async () => {
    const o = await freshOrg('resolve');
    const asset = await createAsset('Engine 7', {}, o.token);
    const run = (
      await ok(
        'POST',
        '/api/v2/runs:adhoc',
        { name: 'HF-7', startTime: '2026-09-01T10:00:00Z', stopTime: '2026-09-01T11:00:00Z', assetIds: [asset.assetId] },
        o.token,
      )
    ).run;
    const channel = await createChannel({ assetId: asset.assetId, name: 'chamber.pressure' }, o.token);
    const tag = uniq('review');
    const res = await s.api(
      'POST',
      '/api/v1/annotations',
      {
        name: 'Pressure spike',
        startTime: '2026-09-01T10:10:00Z',
        endTime: '2026-09-01T10:10:05Z',
        assets: ['Engine 7'],
        runId: run.runId,
        linkedChannels: [{ channel: { channelId: channel.channelId } }],
        tags: [tag],
      },
      o.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.annotation).toMatchObject({
      assetIds: [asset.assetId],
      runId: run.runId,
      linkedChannels: [{ channel: { channelId: channel.channelId } }],
      organizationId: o.organizationId,
      tags: [tag],
    });
    // The annotation's new tag is a tag of the organization.
    expect((await listAll('/api/v2/tags', 'tags', 100, o.token)).map((t) => t.name)).toContain(tag);

    // Names and ids of another organization do not resolve.
    const base = { name: 'x', startTime: '2026-09-01T10:10:00Z', endTime: '2026-09-01T10:10:05Z' };
    expectError(await s.api('POST', '/api/v1/annotations', { ...base, assets: ['Engine 7'] }), 400, 3, 'assets');
    expectError(await s.api('POST', '/api/v1/annotations', { ...base, runId: run.runId }), 400, 3, 'run_id');
    expectError(
      await s.api('POST', '/api/v1/annotations', { ...base, linkedChannels: [{ channel: { channelId: channel.channelId } }] }),
      400,
      3,
      'linked_channels',
    );
  });
});

// ---------------------------------------------------------------------------------------------------
describe('Migration 0006 (keyset sequence for tags and users)', () => {
  it('numbers existing tags and users in creation order and every later insert', () => {
    const dir = mkdtempSync(join(tmpdir(), 'outpost-mig-'));
    try {
      const file = join(dir, 'db.sqlite');
      const old = openDatabase(file, { migrateTo: 5 });
      old.run("INSERT INTO organizations(id, name, created_date) VALUES ('o', 'O', 1)");
      old.run("INSERT INTO users(id, user_name, created_date, modified_date) VALUES ('u2', 'b', 20, 20), ('u1', 'a', 10, 10)");
      old.run(
        "INSERT INTO tags(id, organization_id, name, created_by_user_id, created_date) VALUES ('t2', 'o', 'two', 'u1', 5), ('t1', 'o', 'one', 'u1', 5), ('t3', 'o', 'three', 'u1', 1)",
      );
      old.close();
      const db = openDatabase(file, { migrationData: { defaultPolicy: defaultPolicyRecord } });
      expect(db.all('SELECT id, seq FROM tags ORDER BY seq')).toEqual([
        { id: 't3', seq: 1 },
        { id: 't1', seq: 2 },
        { id: 't2', seq: 3 },
      ]);
      expect(db.all('SELECT id, seq FROM users ORDER BY seq')).toEqual([
        { id: 'u1', seq: 1 },
        { id: 'u2', seq: 2 },
      ]);
      db.run("INSERT INTO tags(id, organization_id, name, created_by_user_id, created_date) VALUES ('t4', 'o', 'four', 'u1', 0)");
      db.run("INSERT OR IGNORE INTO tags(id, organization_id, name, created_by_user_id, created_date) VALUES ('t5', 'o', 'four', 'u1', 0)");
      db.run("INSERT INTO users(id, user_name, created_date, modified_date) VALUES ('u3', 'c', 0, 0)");
      expect(db.get("SELECT seq FROM tags WHERE id = 't4'")).toEqual({ seq: 4 });
      expect(db.get("SELECT count(*) AS n FROM tags WHERE id = 't5'")).toEqual({ n: 0 });
      expect(db.get("SELECT seq FROM users WHERE id = 'u3'")).toEqual({ seq: 3 });
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
