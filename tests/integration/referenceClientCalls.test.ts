// The reference calls the platform's Python clients make at start or commonly, over real HTTP on loopback:
// UnitService ListUnits/CreateUnit, UserService ListUsers, ChannelService UpdateChannel and the batch
// archive/unarchive, RunService CreateAutomaticRunAssociationForAssets. Exact shapes, every error path (the field
// named, nothing changed), organization isolation.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/testServer';
import { expectNotFound, expectViolation, UUID } from '../support/assertions';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => s.close());

async function ok(method: string, path: string, body?: unknown, token?: string) {
  const res = await s.api(method, path, body, token);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}

const uniq = (p: string) => `${p}-${randomUUID().slice(0, 8)}`;

/** A caller alone in a fresh organization, so list contents are exact. */
async function freshOrg(prefix: string) {
  const token = s.newToken(`${uniq(prefix)}@outpost.test`, uniq(`${prefix} org`));
  const me = await ok('GET', '/api/v2/me', undefined, token);
  return { token, organizationId: me.organizations[0].organizationId as string, userId: me.userId as string };
}

describe('units', () => {
  it('creates a unit from the query string (the rule has no body) and lists it, oldest first', async () => {
    const o = await freshOrg('units');
    const volt = await ok('POST', '/api/v2/units?name=V', undefined, o.token);
    expect(volt).toEqual({ unit: { unitId: expect.stringMatching(UUID), abbreviatedName: 'V' } });
    const amp = (await ok('POST', '/api/v2/units?name=A', undefined, o.token)).unit;
    expect(await ok('GET', '/api/v2/units', undefined, o.token)).toEqual({ units: [volt.unit, amp], nextPageToken: '' });
    expect((await ok('GET', '/api/v2/units?order_by=abbreviated_name', undefined, o.token)).units).toEqual([amp, volt.unit]);
    const filtered = await ok('GET', `/api/v2/units?filter=${encodeURIComponent("abbreviated_name == 'V'")}`, undefined, o.token);
    expect(filtered.units).toEqual([volt.unit]);
    const page = await ok('GET', '/api/v2/units?page_size=1', undefined, o.token);
    expect(page.units).toEqual([volt.unit]);
    expect((await ok('GET', `/api/v2/units?page_size=1&page_token=${page.nextPageToken}`, undefined, o.token)).units).toEqual([amp]);
  });

  it('refuses a missing or taken name, a bad filter or order, and keeps organizations apart', async () => {
    const o = await freshOrg('units-bad');
    const other = await freshOrg('units-other');
    expectViolation(await s.api('POST', '/api/v2/units', undefined, o.token), 'name');
    expectViolation(await s.api('POST', '/api/v2/units?name=%20', undefined, o.token), 'name');
    await ok('POST', '/api/v2/units?name=degC', undefined, o.token);
    const taken = await s.api('POST', '/api/v2/units?name=degC', undefined, o.token);
    expect([taken.status, taken.body.code]).toEqual([409, 6]);
    // The same name in another organization is that organization's own unit; neither sees the other's.
    await ok('POST', '/api/v2/units?name=degC', undefined, other.token);
    expect((await ok('GET', '/api/v2/units', undefined, o.token)).units.map((u: any) => u.abbreviatedName)).toEqual(['degC']);
    expect((await ok('GET', '/api/v2/units', undefined, other.token)).units).toHaveLength(1);
    expectViolation(await s.api('GET', `/api/v2/units?filter=${encodeURIComponent('symbol == 1')}`, undefined, o.token), 'filter');
    expectViolation(await s.api('GET', '/api/v2/units?order_by=modified_date', undefined, o.token), 'order_by');
    expect((await ok('GET', '/api/v2/units', undefined, o.token)).units).toHaveLength(1);
  });
});

describe('ListUsers', () => {
  it("lists every member of the caller's organizations, active or not, oldest first; never another organization's", async () => {
    const o = await freshOrg('users');
    const colleague = s.newToken(
      `${uniq('colleague')}@outpost.test`,
      (await ok('GET', '/api/v2/me', undefined, o.token)).organizations[0].organizationName,
    );
    const colleagueId = (await ok('GET', '/api/v2/me', undefined, colleague)).userId;
    const outsider = await freshOrg('outsider');
    const all = await ok('GET', '/api/v2/users:all', undefined, o.token);
    expect(all.users.map((u: any) => u.userId)).toEqual([o.userId, colleagueId]);
    expect(all.users[0]).toEqual({
      userId: o.userId,
      userName: expect.stringContaining('@outpost.test'),
      organizations: [{ organizationId: o.organizationId, organizationName: expect.any(String), isAbacEnabled: true }],
    });
    expect(all.nextPageToken).toBe('');
    // An inactive member: gone from ListActiveUsers, still in ListUsers.
    s.engine.db.run('UPDATE memberships SET active = 0 WHERE user_id = ? AND organization_id = ?', [colleagueId, o.organizationId]);
    expect((await ok('GET', '/api/v2/users', undefined, o.token)).users.map((u: any) => u.userId)).toEqual([o.userId]);
    expect((await ok('GET', '/api/v2/users:all?order_by=created_date desc', undefined, o.token)).users.map((u: any) => u.userId)).toEqual([
      colleagueId,
      o.userId,
    ]);
    const byName = await ok('GET', `/api/v2/users:all?filter=${encodeURIComponent(`user_id == '${colleagueId}'`)}`, undefined, o.token);
    expect(byName.users.map((u: any) => u.userId)).toEqual([colleagueId]);
    expect((await ok('GET', '/api/v2/users:all', undefined, outsider.token)).users.map((u: any) => u.userId)).toEqual([outsider.userId]);
  });

  it('refuses an order the platform does not document for it, and a bad filter, naming the field', async () => {
    expectViolation(await s.api('GET', '/api/v2/users:all?order_by=name'), 'order_by');
    expectViolation(await s.api('GET', `/api/v2/users:all?filter=${encodeURIComponent('email == 1')}`), 'filter');
  });
});

describe('channels: UpdateChannel, BatchArchiveChannels, BatchUnarchiveChannels', () => {
  async function channelOf(token: string) {
    const asset = (await ok('POST', '/api/v1/assets', { name: uniq('rig') }, token)).asset;
    return (await ok('POST', '/api/v3/channels', { assetId: asset.assetId, name: 'engine.temp', description: 'as ingested' }, token))
      .channel;
  }

  it('updates only the masked fields (display_units is display_unit_id), metadata included; GET sees it', async () => {
    const o = await freshOrg('channels');
    const c = await channelOf(o.token);
    const unit = (await ok('POST', '/api/v2/units?name=degC', undefined, o.token)).unit;
    const metadata = [{ key: { name: 'sensor', type: 'METADATA_KEY_TYPE_STRING' }, stringValue: 'K-type' }];
    const { channel } = await ok(
      'PATCH',
      '/api/v3/channels',
      {
        channel: {
          channelId: c.channelId,
          displayDescription: 'Engine temperature',
          displayUnitId: unit.unitId,
          description: 'ignored',
          metadata,
        },
        updateMask: 'displayDescription,display_units,metadata',
      },
      o.token,
    );
    expect(channel).toMatchObject({
      channelId: c.channelId,
      description: 'as ingested',
      displayDescription: 'Engine temperature',
      displayUnitId: unit.unitId,
      active: true,
      metadata: [expect.objectContaining({ key: expect.objectContaining({ name: 'sensor' }), stringValue: 'K-type' })],
    });
    expect(channel.modifiedDate >= c.modifiedDate).toBe(true);
    expect(await ok('GET', `/api/v3/channels/${c.channelId}`, undefined, o.token)).toEqual({ channel });
    // `active` through the mask archives (and its absence in the body means false, the proto3 default).
    expect(
      (await ok('PATCH', '/api/v3/channels', { channel: { channelId: c.channelId }, updateMask: 'active' }, o.token)).channel.active,
    ).toBe(false);
  });

  it('refuses a bad mask, an unknown unit, a missing channel, or another organization’s, changing nothing', async () => {
    const o = await freshOrg('channels-bad');
    const other = await freshOrg('channels-other');
    const c = await channelOf(o.token);
    const patch = (body: unknown, token = o.token) => s.api('PATCH', '/api/v3/channels', body, token);
    expectViolation(await patch({ channel: { channelId: c.channelId, name: 'x' } }), 'update_mask');
    expectViolation(await patch({ channel: { channelId: c.channelId, name: 'x' }, updateMask: 'name' }), 'update_mask');
    expectViolation(await patch({ channel: { channelId: c.channelId }, updateMask: 'colour' }), 'update_mask');
    expectViolation(await patch({ channel: { displayDescription: 'x' }, updateMask: 'display_description' }), 'channel.channel_id');
    expectViolation(
      await patch({
        channel: { channelId: c.channelId, displayDescription: 'x', displayUnitId: randomUUID() },
        updateMask: 'display_description,display_unit_id',
      }),
      'channel.display_unit_id',
    );
    const otherUnit = (await ok('POST', '/api/v2/units?name=V', undefined, other.token)).unit;
    expectViolation(
      await patch({ channel: { channelId: c.channelId, displayUnitId: otherUnit.unitId }, updateMask: 'display_unit_id' }),
      'channel.display_unit_id',
    );
    const twice = [
      { key: { name: 'k', type: 'METADATA_KEY_TYPE_STRING' }, stringValue: 'a' },
      { key: { name: 'k', type: 'METADATA_KEY_TYPE_STRING' }, stringValue: 'b' },
    ];
    expectViolation(await patch({ channel: { channelId: c.channelId, metadata: twice }, updateMask: 'metadata' }), 'channel.metadata');
    expectNotFound(await patch({ channel: { channelId: randomUUID(), displayDescription: 'x' }, updateMask: 'display_description' }));
    expectNotFound(
      await patch({ channel: { channelId: c.channelId, displayDescription: 'x' }, updateMask: 'display_description' }, other.token),
    );
    expect((await ok('GET', `/api/v3/channels/${c.channelId}`, undefined, o.token)).channel).toEqual(c);
  });

  it('archives and unarchives channels all or none: an unknown id (or another organization’s) changes nothing', async () => {
    const o = await freshOrg('channels-batch');
    const other = await freshOrg('channels-batch-other');
    const [a, b] = [await channelOf(o.token), await channelOf(o.token)];
    const foreign = await channelOf(other.token);
    const active = async () =>
      (await ok('GET', '/api/v3/channels?order_by=created_date', undefined, o.token)).channels.map((c: any) => [c.channelId, c.active]);
    expect(await ok('POST', '/api/v3/channels:batchArchive', { channelIds: [a.channelId, b.channelId, a.channelId] }, o.token)).toEqual({});
    expect(await active()).toEqual([
      [a.channelId, false],
      [b.channelId, false],
    ]);
    // Archived channels are listed still; `active` orders them.
    expect(await ok('POST', '/api/v3/channels:batchUnarchive', { channelIds: [b.channelId] }, o.token)).toEqual({});
    expect(await active()).toEqual([
      [a.channelId, false],
      [b.channelId, true],
    ]);
    expectNotFound(await s.api('POST', '/api/v3/channels:batchUnarchive', { channelIds: [a.channelId, randomUUID()] }, o.token));
    expectNotFound(await s.api('POST', '/api/v3/channels:batchUnarchive', { channelIds: [a.channelId, foreign.channelId] }, o.token));
    expect(await active()).toEqual([
      [a.channelId, false],
      [b.channelId, true],
    ]);
    expect((await ok('GET', `/api/v3/channels/${foreign.channelId}`, undefined, other.token)).channel.active).toBe(true);
    expectViolation(await s.api('POST', '/api/v3/channels:batchArchive', { channelIds: [] }, o.token), 'channel_ids');
    expectViolation(await s.api('POST', '/api/v3/channels:batchArchive', {}, o.token), 'channel_ids');
    expectViolation(await s.api('POST', '/api/v3/channels:batchArchive', { channelIds: [''] }, o.token), 'channel_ids[0]');
    expectViolation(
      await s.api('POST', '/api/v3/channels:batchArchive', { channelIds: Array.from({ length: 1001 }, () => a.channelId) }, o.token),
      'channel_ids',
    );
  });
});

describe('CreateAutomaticRunAssociationForAssets', () => {
  const path = (runId: string) => `/api/v2/runs/${runId}:create-automatic-run-association-for-assets`;

  it("adds the named assets to the run's asset_ids (once each), which channel filters by run then see", async () => {
    const o = await freshOrg('assoc');
    const [rig, bench] = [uniq('rig'), uniq('bench')];
    for (const name of [rig, bench]) await ok('POST', '/api/v1/assets', { name }, o.token);
    const run = (await ok('POST', '/api/v2/runs', { name: 'test run', startTime: '2026-01-01T00:00:00Z' }, o.token)).run;
    expect(run.assetIds).toEqual([]);
    expect(await ok('POST', path(run.runId), { assetNames: [rig] }, o.token)).toEqual({});
    expect(await ok('POST', path(run.runId), { asset_names: [rig, bench] }, o.token)).toEqual({});
    const after = (await ok('GET', `/api/v2/runs/${run.runId}`, undefined, o.token)).run;
    const assets = (await ok('GET', '/api/v1/assets', undefined, o.token)).assets;
    const idOf = (name: string) => assets.find((a: any) => a.name === name).assetId;
    expect(after.assetIds).toEqual([idOf(rig), idOf(bench)]);
    const runs = await ok('GET', `/api/v2/runs?filter=${encodeURIComponent(`asset_name == '${bench}'`)}`, undefined, o.token);
    expect(runs.runs.map((r: any) => r.runId)).toEqual([run.runId]);
  });

  it('refuses unknown assets, an overlapping run of the same asset, an unknown run, naming the field; nothing changes', async () => {
    const o = await freshOrg('assoc-bad');
    const rig = uniq('rig');
    await ok('POST', '/api/v1/assets', { name: rig }, o.token);
    const first = (
      await ok('POST', '/api/v2/runs', { name: 'first', startTime: '2026-01-01T00:00:00Z', stopTime: '2026-01-01T02:00:00Z' }, o.token)
    ).run;
    const overlapping = (await ok('POST', '/api/v2/runs', { name: 'overlapping', startTime: '2026-01-01T01:00:00Z' }, o.token)).run;
    const later = (
      await ok('POST', '/api/v2/runs', { name: 'later', startTime: '2026-01-01T02:00:00Z', stopTime: '2026-01-01T03:00:00Z' }, o.token)
    ).run;
    await ok('POST', path(first.runId), { assetNames: [rig] }, o.token);

    const clash = await s.api('POST', path(overlapping.runId), { assetNames: [rig] }, o.token);
    expectViolation(clash, 'asset_names');
    expect(clash.body.message).toContain(first.runId);
    // Back to back is no overlap.
    await ok('POST', path(later.runId), { assetNames: [rig] }, o.token);

    expectViolation(await s.api('POST', path(overlapping.runId), { assetNames: [rig, 'no-such-asset'] }, o.token), 'asset_names');
    expectViolation(await s.api('POST', path(overlapping.runId), { assetNames: [] }, o.token), 'asset_names');
    expectViolation(await s.api('POST', path(overlapping.runId), {}, o.token), 'asset_names');
    expectViolation(await s.api('POST', path(overlapping.runId), { assetNames: [''] }, o.token), 'asset_names[0]');
    expectNotFound(await s.api('POST', path(randomUUID()), { assetNames: [rig] }, o.token));
    const other = await freshOrg('assoc-other');
    expectNotFound(await s.api('POST', path(first.runId), { assetNames: [rig] }, other.token));
    // (A running run's duration grows: compare the rest.)
    const { duration: _d, ...unchanged } = overlapping;
    expect((await ok('GET', `/api/v2/runs/${overlapping.runId}`, undefined, o.token)).run).toMatchObject(unchanged);
  });
});
