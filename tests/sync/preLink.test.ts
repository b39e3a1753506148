// Records made before the first link (issue #15 item 12): a field engineer
// works offline in the profile's own organization, then links it. Those
// records are counted (never hidden), and adoption sends them to the remote
// organization as ordinary offline creates, through the strict platform
// stand-in, with their references resolved there; twice is once; a kill -9
// right after the adoption loses nothing.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { Code } from '../../src-shared/errors';
import type { OperationName } from '../../src-shared/operations';
import { DEFAULT_ORGANIZATION_NAME, DEFAULT_USER_NAME, ensureMember, loadCaller } from '../../src-main/auth/identity';
import type { Caller } from '../../src-main/auth/caller';
import { openEngine } from '../../src-main/engine';
import { invoke } from '../../src-main/services/invoke';
import { localCaller } from '../../src-main/sync/identity';
import { countOpen } from '../../src-main/sync/outbox';
import { syncReplica } from '../../src-main/sync/assembly/syncReplica';
import type { ReplicaEngine } from '../../src-main/sync/replica';
import { runSync } from '../../src-main/sync/runSync';
import { createMemorySecretStore } from '../../src-main/sync/secretStore';
import { startFaultProxy, type FaultProxy } from './faultProxy';
import { annotationRequest, ASSET, comment, insertAsset, startRemote, type RemoteServer } from './helpers';

const LOCAL_RIG = 'Bench-Only-Rig';
let remote: RemoteServer;
let proxy: FaultProxy;
let dir: string;
let engine: ReplicaEngine;
let localUser: string;

const open = () => {
  engine = openEngine(dir, { replica: syncReplica({ secrets: createMemorySecretStore() }) });
};
/** The data directory's owner: the local user before the link, the remote user after the first sync (as invoke() does). */
const owner = (): Caller => ({ ...(localCaller(engine.db) ?? loadCaller(engine.db, localUser)!), owner: true });
const call = (op: OperationName, request: unknown = {}): Promise<any> => invoke({ engine, db: engine.db, caller: owner() }, op, request);
const sync = () =>
  runSync({
    db: engine.db,
    catalog: engine.replica.catalog,
    remote: { baseUrl: proxy.url, apiKey: remote.token, timeoutMs: 5_000 },
    retry: { baseDelayMs: 5, maxAttempts: 3 },
    createQuietMs: 300,
  });

beforeEach(async () => {
  remote = await startRemote();
  proxy = await startFaultProxy(remote.url, { strict: true });
  dir = mkdtempSync(join(tmpdir(), 'outpost-prelink-'));
  open();
  // What the desktop does at its first start: the profile's own user and organization.
  localUser = ensureMember(engine.db, DEFAULT_USER_NAME, DEFAULT_ORGANIZATION_NAME).userId;
});
afterEach(async () => {
  engine.close();
  rmSync(dir, { recursive: true, force: true });
  await proxy.close();
  await remote.close();
});

/** Days of offline work before any link: the remote's asset by name, one only this bench has, a comment, a saved search. */
async function workOffline() {
  insertAsset(engine.db, 'a0000000-0000-4000-a000-00000000000a', ASSET);
  insertAsset(engine.db, 'a0000000-0000-4000-a000-00000000000b', LOCAL_RIG);
  const { annotation: pump } = await call(
    'CreateAnnotation',
    annotationRequest('pump 3 overheat', { tags: ['pump'], state: 'ANNOTATION_STATE_FLAGGED', assignToUserId: localUser }),
  );
  await call('CreateAnnotationLog', comment(pump.annotationId, 'seen twice on the bench'));
  const { annotation: bench } = await call('CreateAnnotation', annotationRequest('bench only', { assets: [LOCAL_RIG] }));
  await call('CreateSavedSearch', {
    name: 'my pumps',
    properties: {
      overviewMode: 'OVERVIEW_MODE_LIST',
      assetItems: [{ id: 'a0000000-0000-4000-a000-00000000000a', name: ASSET }],
      annotationItems: [{ id: pump.annotationId, name: pump.name }],
    },
  });
  await call('CreatePolicy', { name: 'bench rule', configuration: { cedarPolicy: 'permit(principal, action, resource);' } });
  const { testReport } = await call('CreateTestReport', {
    status: 'TEST_STATUS_PASSED',
    name: 'pump 3 acceptance',
    testSystemName: 'bench-2',
    testCase: 'TC-7',
    startTime: '2026-09-01T00:00:00Z',
    endTime: '2026-09-01T00:10:00Z',
  });
  const { testStep } = await call('CreateTestStep', {
    testStep: {
      testReportId: testReport.testReportId,
      name: 'pressure',
      stepType: 'TEST_STEP_TYPE_ACTION',
      stepPath: '1',
      status: 'TEST_STATUS_PASSED',
      startTime: '2026-09-01T00:01:00Z',
      endTime: '2026-09-01T00:02:00Z',
    },
  });
  await call('CreateTestMeasurements', {
    testMeasurements: [
      {
        testReportId: testReport.testReportId,
        testStepId: testStep.testStepId,
        name: 'psi',
        measurementType: 'TEST_MEASUREMENT_TYPE_DOUBLE',
        numericValue: 41.5,
        numericBounds: { min: 30, max: 50 },
        passed: true,
        timestamp: '2026-09-01T00:01:30Z',
      },
    ],
  });
  return { pump, bench };
}

async function link() {
  await engine.replica.remoteProfile.save(proxy.url, remote.token);
  const first = await sync();
  expect(first.ok).toBe(true);
}

describe('records made before the first link', () => {
  test('are counted, never hidden, and stay untouched by syncs until adopted', async () => {
    await workOffline();
    expect((await call('GetPreLinkRecords')).total).toBe(0); // not linked: simply local
    await link();
    const counted = await call('GetPreLinkRecords');
    expect(counted).toMatchObject({ identityKnown: true, total: 5, adoptable: 4 });
    expect(counted.localOrganizations.map((o: { name: string }) => o.name)).toEqual([expect.stringContaining(DEFAULT_ORGANIZATION_NAME)]);
    expect(counted.kinds).toEqual([
      { resource: 'annotation', label: 'annotations', count: 2, adoptable: true, reason: '' },
      { resource: 'saved_search', label: 'saved searches', count: 1, adoptable: true, reason: '' },
      {
        resource: 'policy',
        label: 'policies',
        count: 1,
        adoptable: false,
        reason: expect.stringContaining('access policies of the local organization'),
      },
      { resource: 'test_report', label: 'test reports', count: 1, adoptable: true, reason: '' },
    ]);
    // Since the link the owner acts as the remote user: the records are not listed...
    expect((await call('ListAnnotations', {})).annotations).toEqual([]);
    // ...nor sent, nor lost: another sync changes nothing.
    expect((await sync()).ok).toBe(true);
    expect((await remote.client.ListAnnotations({})).annotations).toEqual([]);
    expect((await call('GetPreLinkRecords')).total).toBe(5);
  });

  test('adoption sends them to the remote organization with their references; twice is once', async () => {
    const { pump, bench } = await workOffline();
    await link();
    const me = await remote.client.GetMe({});
    const remoteOrg = me.organizations[0].organizationId;

    const adopted = await call('AdoptPreLinkRecords', {});
    expect(adopted.adopted).toEqual([
      { resource: 'annotation', label: 'annotations', count: 1 },
      { resource: 'saved_search', label: 'saved searches', count: 1 },
      { resource: 'test_report', label: 'test reports', count: 1 },
    ]);
    expect(adopted.leftBehind).toEqual([
      {
        resource: 'annotation',
        recordId: bench.annotationId,
        name: 'bench only',
        reason: `its asset '${LOCAL_RIG}' has no namesake in the remote organization`,
      },
    ]);
    expect(adopted.remaining).toMatchObject({ total: 2, adoptable: 1 });
    const queued = countOpen(engine.db);
    expect(queued).toBe(6); // the annotation, its comment, the saved search, the report, its step, its measurements

    // Twice is once: nothing new is queued or made.
    const again = await call('AdoptPreLinkRecords', {});
    expect(again.adopted).toEqual([]);
    expect(again.leftBehind.map((l: { recordId: string }) => l.recordId)).toEqual([bench.annotationId]);
    expect(countOpen(engine.db)).toBe(queued);

    // Visible at once as the remote user's, in the remote organization.
    const local = (await call('ListAnnotations', {})).annotations;
    expect(local.map((a: { name: string; organizationId: string }) => [a.name, a.organizationId])).toEqual([
      ['pump 3 overheat', remoteOrg],
    ]);

    const pushed = await sync();
    expect(pushed).toMatchObject({ ok: true, pending: 0, failedEntries: 0 });
    expect(proxy.log.filter((e) => e.fault === 'not-allowed')).toEqual([]);

    const onRemote = (await remote.client.ListAnnotations({})).annotations;
    expect(onRemote).toHaveLength(1);
    const a = onRemote[0];
    expect(a).toMatchObject({
      name: 'pump 3 overheat',
      organizationId: remoteOrg,
      createdByUserId: me.userId,
      assignedToUserId: me.userId,
      tags: ['pump'],
      state: 'ANNOTATION_STATE_FLAGGED',
      startTime: pump.startTime,
      endTime: pump.endTime,
    });
    const remoteAsset = remote.engine.db.get<{ id: string }>('SELECT id FROM assets WHERE name = ?', [ASSET])!.id;
    expect(a.assetIds).toEqual([remoteAsset]);
    const logs = (await remote.client.ListAnnotationLogs({ annotationId: a.annotationId })).annotationLogs;
    expect(logs.filter((l) => l.kind === 'ANNOTATION_LOG_KIND_COMMENT').map((l) => l.comment?.body[0].text)).toEqual([
      'seen twice on the bench',
    ]);
    const searches = (await remote.client.ListSavedSearches({})).savedSearches;
    expect(searches.map((s) => [s.name, s.properties.assetItems, s.properties.annotationItems])).toEqual([
      ['my pumps', [{ id: remoteAsset, name: ASSET }], [{ id: a.annotationId, name: 'pump 3 overheat' }]],
    ]);

    const [report] = (await remote.client.ListTestReports({})).testReports;
    expect(report).toMatchObject({ name: 'pump 3 acceptance', status: 'TEST_STATUS_PASSED', testSystemName: 'bench-2', testCase: 'TC-7' });
    const steps = (await remote.client.ListTestSteps({ filter: `test_report_id == '${report.testReportId}'` })).testSteps;
    expect(steps.map((x) => [x.name, x.stepPath, x.status])).toEqual([['pressure', '1', 'TEST_STATUS_PASSED']]);
    const measured = (await remote.client.ListTestMeasurements({ filter: `test_step_id == '${steps[0].testStepId}'` })).testMeasurements;
    expect(measured.map((m) => [m.name, m.numericValue, m.numericBounds, m.passed])).toEqual([['psi', 41.5, { min: 30, max: 50 }, true]]);

    // Nothing was lost here either: what stayed is still counted, the original of what went is gone.
    expect(engine.db.get('SELECT 1 FROM annotations WHERE id = ?', [pump.annotationId])).toBeUndefined();
    expect(engine.db.get('SELECT name FROM annotations WHERE id = ?', [bench.annotationId])).toEqual({ name: 'bench only' });
    expect((await call('GetPreLinkRecords')).total).toBe(2); // the bench annotation and the policy
    // Once the platform has the asset, adopting again sends the one left.
    insertAsset(remote.engine.db, 'a0000000-0000-4000-a000-0000000000bb', LOCAL_RIG);
    expect((await sync()).ok).toBe(true);
    expect((await call('AdoptPreLinkRecords', {})).adopted).toEqual([{ resource: 'annotation', label: 'annotations', count: 1 }]);
    expect((await sync()).ok).toBe(true);
    expect((await remote.client.ListAnnotations({})).annotations.map((x) => x.name).sort()).toEqual(['bench only', 'pump 3 overheat']);
    expect(await call('GetPreLinkRecords')).toMatchObject({ total: 1, adoptable: 0 });
  });

  test("the remote organization's policies decide an adopted create: a forbidden one stays here, with the refusal as its reason", async () => {
    await workOffline();
    await remote.client.CreatePolicy({
      name: 'no saved searches',
      configuration: { cedarPolicy: 'forbid(principal, action == Action::"CreateSavedSearch", resource);' },
    });
    await link();
    const adopted = await call('AdoptPreLinkRecords', {});
    expect(adopted.adopted.map((a: { resource: string }) => a.resource)).toEqual(['annotation', 'test_report']);
    const refused = adopted.leftBehind.find((l: { resource: string }) => l.resource === 'saved_search');
    expect(refused?.reason).toMatch(/CreateSavedSearch/);
    expect((await call('GetPreLinkRecords')).kinds.find((k: { resource: string }) => k.resource === 'saved_search')?.count).toBe(1);
  });

  test('a storage failure during the adoption stops it whole, answered as what it is (not a record left behind); nothing is adopted', async () => {
    await workOffline();
    await link();
    const before = await call('GetPreLinkRecords');
    const queued = countOpen(engine.db);
    // Every write fails as on a read-only disk (SQLITE_READONLY): the adopted creates run through invoke's pipeline, which says so.
    engine.db.raw.pragma('query_only = ON');
    try {
      await expect(call('AdoptPreLinkRecords', {})).rejects.toMatchObject({
        code: Code.UNAVAILABLE,
        message: expect.stringMatching(/read-only/),
      });
    } finally {
      engine.db.raw.pragma('query_only = OFF');
    }
    expect(countOpen(engine.db)).toBe(queued);
    expect(await call('GetPreLinkRecords')).toEqual(before);
  });

  test('a kill -9 right after the adoption loses nothing: the next sync sends every adopted record once', async () => {
    await workOffline();
    await link();
    engine.close();
    const script = fileURLToPath(new URL('./preLinkAdoptThenDie.ts', import.meta.url));
    const child = await promisify(execFile)(process.execPath, ['--import', 'tsx', script, dir], {
      cwd: fileURLToPath(new URL('../../', import.meta.url)),
    }).catch((e: unknown) => e as { signal?: string; stdout?: string });
    expect(child).toMatchObject({ signal: 'SIGKILL' });
    expect((child as { stdout: string }).stdout).toContain('adopted 3');
    open();
    expect(countOpen(engine.db)).toBe(6);
    expect((await sync()).ok).toBe(true);
    expect((await remote.client.ListAnnotations({})).annotations.map((a) => a.name)).toEqual(['pump 3 overheat']);
    expect((await remote.client.ListSavedSearches({})).savedSearches.map((s) => s.name)).toEqual(['my pumps']);
    expect((await sync()).ok).toBe(true);
    expect((await remote.client.ListAnnotations({})).annotations).toHaveLength(1);
  });

  test("bad requests: before the first sync, from another key, to an organization not the remote user's; nothing changes", async () => {
    await workOffline();
    await engine.replica.remoteProfile.save(proxy.url, remote.token);
    await expect(call('AdoptPreLinkRecords', {})).rejects.toMatchObject({
      code: Code.FAILED_PRECONDITION,
      message: expect.stringContaining('sync once after linking'),
    });
    // Linked but not synced: the remote user is unknown, every record counts as pre-link.
    expect(await call('GetPreLinkRecords')).toMatchObject({ identityKnown: false, total: 5 });
    expect((await sync()).ok).toBe(true);
    const notOwner = { ...localCaller(engine.db)!, owner: false };
    await expect(invoke({ engine, db: engine.db, caller: notOwner }, 'AdoptPreLinkRecords', {})).rejects.toMatchObject({
      code: Code.PERMISSION_DENIED,
    });
    const bad = await call('AdoptPreLinkRecords', { organizationId: 'not-an-org' }).catch((e: unknown) => e);
    expect(bad).toMatchObject({ code: Code.INVALID_ARGUMENT });
    expect((bad as { details: { fieldViolations: { field: string }[] }[] }).details[0].fieldViolations[0].field).toBe('organization_id');
    expect(countOpen(engine.db)).toBe(0);
    expect((await call('GetPreLinkRecords')).total).toBe(5);
  });
});
