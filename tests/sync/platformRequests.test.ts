// Every request a full sync sends is one the platform's API allows
// (src-main/sync/resources/platformRequests.ts): a remote seeded with every
// resource kind, offline edits of every kind, a sync both ways and a fresh
// replica's first sync through `outpost sync`, all through the strict
// stand-in of the platform (Outpost's server behind a gate that refuses, with
// the platform's INVALID_ARGUMENT body, what the reference does not allow).
// Nothing is refused, the runs end ok (exit 0), and each recorded request is
// checked again here.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openEngine } from '../../src-main/engine';
import { syncCommand } from '../../src-main/cli/syncCommand';
import { platformRequests } from '../../src-main/sync/resources/platformRequests';
import { operationOf, refusalOf } from '../support/platformGate';
import { binary, onRemote, stageUpload } from './artifactKit';
import { startFaultProxy, type FaultProxy } from './faultProxy';
import { annotationRequest, comment, createReplica, startRemote, type RemoteServer, type Replica } from './helpers';
import { importSample } from './testReportHelpers';

let remote: RemoteServer;
let proxy: FaultProxy;
let a: Replica;
const cleanup: string[] = [];

beforeEach(async () => {
  remote = await startRemote(['bo']);
  proxy = await startFaultProxy(remote.url, { strict: true });
  a = await createReplica('a', proxy.url, remote.token);
});
afterEach(async () => {
  a.close();
  await proxy.close();
  await remote.close();
  for (const d of cleanup.splice(0)) rmSync(d, { recursive: true, force: true });
});

const PERMIT = 'permit(principal, action, resource);';
// (Forbids one action the test never calls: a forbid of everything would stop the test's own later writes.)
const FORBID = 'forbid(principal, action == Action::"DeleteAnnotation", resource);';
const T0 = '2026-09-01T00:00:00Z';
const T1 = '2026-09-01T00:01:00Z';
const ATTACHED_TO = 'ARTIFACT_LINK_RELATION_ATTACHED_TO';
const ANNOTATION = 'ARTIFACT_ENTITY_TYPE_ANNOTATION';
const step = (testReportId: string, stepPath: string, name: string) => ({
  testStep: { testReportId, name, stepType: 'TEST_STEP_TYPE_ACTION', stepPath, status: 'TEST_STATUS_PASSED', startTime: T0, endTime: T1 },
});
const measurement = (testStepId: string, name: string, numericValue: number) => ({
  testStepId,
  name,
  measurementType: 'TEST_MEASUREMENT_TYPE_DOUBLE',
  numericValue,
  passed: true,
  timestamp: T0,
  numericBounds: { min: 0, max: 10 },
});

/** Every resource kind on the remote, made there (a colleague's work): returns ids the edits use. */
async function seedRemote() {
  const c = remote.client;
  const { annotation } = await c.CreateAnnotation(annotationRequest('remote finding'));
  await c.CreateAnnotationLog(comment(annotation.annotationId, 'seen on the rig') as never);
  const { savedSearch } = await c.CreateSavedSearch({
    name: 'pumps',
    properties: { overviewMode: 'OVERVIEW_MODE_ANNOTATIONS', searchTerm: 'pump' },
  });
  const { policy } = await c.CreatePolicy({ name: 'members', configuration: { cedarPolicy: PERMIT } });
  await c.CreateRule({
    update: {
      name: 'Overpressure',
      description: '',
      conditions: [{ expression: { singleChannelComparison: { channelName: 'p', comparator: 'GREATER_THAN', double: 3 } }, actions: [] }],
    },
  } as never);
  const { testReport } = await c.CreateTestReport({
    status: 'TEST_STATUS_PASSED',
    name: 'remote run',
    testSystemName: 'rig',
    testCase: 'power',
    startTime: T0,
    endTime: T1,
  } as never);
  const { testStep } = await c.CreateTestStep(step(testReport.testReportId, '1', 'power up') as never);
  await c.CreateTestMeasurement({ testMeasurement: measurement(testStep.testStepId, 'rail', 5) } as never);
  const { artifact: kept } = await onRemote(remote.engine, 'UploadArtifact', {
    file: stageUpload(remote.dataDir, binary(4096), 'capture.bin'),
    title: 'capture',
    links: JSON.stringify([{ relation: ATTACHED_TO, entityType: ANNOTATION, entityId: annotation.annotationId }]),
  });
  const { artifact: archived } = await onRemote(remote.engine, 'CreateStructuredArtifact', { title: 'old settings', content: { gain: 1 } });
  await onRemote(remote.engine, 'ArchiveArtifact', { artifactId: archived.artifactId });
  return { annotation, savedSearch, policy, testReport, testStep, kept, archived };
}

/** Offline edits of every kind on `a`, touching the remote's records too. */
async function editLocally(seeded: Awaited<ReturnType<typeof seedRemote>>) {
  const { annotation } = await a.call('CreateAnnotation', annotationRequest('offline finding'));
  await a.call('UpdateAnnotation', {
    annotation: { annotationId: annotation.annotationId, description: 'rechecked' },
    updateMask: 'description',
  });
  await a.call('UpdateAnnotation', {
    annotation: { annotationId: seeded.annotation.annotationId, name: 'remote finding (confirmed)', tags: ['pump'] },
    updateMask: 'name,tags',
  });
  await a.call('CreateAnnotationLog', comment(annotation.annotationId, 'offline note'));
  await a.call('ArchiveAnnotation', { annotationId: annotation.annotationId });

  const { savedSearch } = await a.call('CreateSavedSearch', { name: 'valves', properties: { overviewMode: 'OVERVIEW_MODE_ANNOTATIONS' } });
  await a.call('UpdateSavedSearch', {
    savedSearch: { savedSearchId: seeded.savedSearch.savedSearchId, properties: { searchTerm: 'pumps' } },
    updateMask: 'properties.searchTerm',
  });
  await a.call('DeleteSavedSearch', { savedSearchId: savedSearch.savedSearchId });

  const { policy } = await a.call('CreatePolicy', { name: 'field', configuration: { cedarPolicy: PERMIT } });
  await a.call('UpdatePolicy', {
    policy: { policyId: policy.policyId, configuration: { cedarPolicy: FORBID } },
    updateMask: 'configuration',
    versionNotes: 'tighter',
  });
  await a.call('ArchivePolicy', { policyId: seeded.policy.policyId });

  await importSample(a);
  const { testReport } = await a.call('CreateTestReport', {
    status: 'TEST_STATUS_IN_PROGRESS',
    name: 'bench',
    testSystemName: 'rig-7',
    testCase: 'power',
    startTime: T0,
    endTime: T1,
  });
  const top = (await a.call('CreateTestStep', step(testReport.testReportId, '1', 'power up'))).testStep;
  await a.call('CreateTestMeasurement', { testMeasurement: measurement(top.testStepId, 'rail 5V', 5.01) });
  const batch = await a.call('CreateTestMeasurements', {
    testMeasurements: [measurement(top.testStepId, 'rail 3V3', 3.3), measurement(top.testStepId, 'rail 1V8', 1.8)],
  });
  await a.call('UpdateTestStep', { testStep: { testStepId: top.testStepId, description: 'all rails' }, updateMask: 'description' });
  await a.call('UpdateTestMeasurement', {
    testMeasurement: { measurementId: batch.measurementIds[0], numericValue: 3.31 },
    updateMask: 'numericValue',
  });
  await a.call('DeleteTestMeasurement', { measurementId: batch.measurementIds[1] });
  await a.call('UpdateTestReport', {
    testReport: { testReportId: testReport.testReportId, status: 'TEST_STATUS_PASSED' },
    updateMask: 'status',
  });
  await a.call('UpdateTestReport', {
    testReport: { testReportId: seeded.testReport.testReportId, isArchived: true },
    updateMask: 'isArchived',
  });
  await a.call('DeleteTestStep', { testStepId: seeded.testStep.testStepId });

  const { artifact } = await a.call('UploadArtifact', { file: stageUpload(a.dir, binary(2048), 'trace.bin'), title: 'trace' });
  const { artifact: structured } = await a.call('CreateStructuredArtifact', { title: 'settings', content: { gain: 3 } });
  await a.call('CreateArtifactVersion', { artifactId: seeded.kept.artifactId, file: stageUpload(a.dir, binary(1024), 'capture-2.bin') });
  await a.call('LinkArtifact', {
    artifactId: artifact.artifactId,
    relation: ATTACHED_TO,
    entityType: ANNOTATION,
    entityId: annotation.annotationId,
  });
  await a.call('UnlinkArtifact', {
    artifactId: seeded.kept.artifactId,
    relation: ATTACHED_TO,
    entityType: ANNOTATION,
    entityId: seeded.annotation.annotationId,
  });
  await a.call('ArchiveArtifact', { artifactId: structured.artifactId });
  await a.call('UnarchiveArtifact', { artifactId: seeded.archived.artifactId });
}

/** Requests the gate refused, or that the check here refuses (the same table), as "METHOD path: why". */
const refusedRequests = (p: FaultProxy) =>
  p.log.flatMap((e) => {
    const why = e.refusal ?? refusalOf(e)?.message;
    return why ? [`${e.method} ${e.path}: ${why}`] : [];
  });

describe('sync: every request is one the platform allows (strict stand-in)', () => {
  test('a full sync of every resource both ways, and a fresh replica`s first `outpost sync`, send nothing the reference does not allow', async () => {
    const seeded = await seedRemote();
    const first = await a.sync({ reconcileEveryMs: 0 });
    expect(refusedRequests(proxy)).toEqual([]);
    expect(first.error).toBeUndefined();
    expect(first.ok).toBe(true);
    // The archived artifact came through the filter's include_archived (no parameter, no modified_date).
    expect(a.engine.db.get('SELECT archived_date FROM artifacts WHERE id = ?', [seeded.archived.artifactId])).toMatchObject({
      archived_date: expect.any(Number),
    });

    await editLocally(seeded);
    // A colleague works on the remote meanwhile.
    const bo = remote.clientFor(remote.tokens.bo);
    await bo.UpdateAnnotation({
      annotation: { annotationId: seeded.annotation.annotationId, description: 'by bo' },
      updateMask: 'description',
    } as never);
    await bo.UpdateSavedSearch({
      savedSearch: { savedSearchId: seeded.savedSearch.savedSearchId, name: 'pumps (bo)' },
      updateMask: 'name',
    } as never);
    await onRemote(remote.engine, 'LinkArtifact', {
      artifactId: seeded.archived.artifactId,
      relation: ATTACHED_TO,
      entityType: ANNOTATION,
      entityId: seeded.annotation.annotationId,
    });

    const both = await a.sync({ reconcileEveryMs: 0 });
    expect(refusedRequests(proxy)).toEqual([]);
    expect(both.error).toBeUndefined();
    expect(both).toMatchObject({ ok: true, pending: 0, failedEntries: 0 });
    // The colleague's link, which moves no listable date, arrived.
    const links = a.engine.db.all('SELECT entity_id FROM artifact_links l JOIN artifacts t ON t.pk = l.artifact_pk WHERE t.id = ?', [
      seeded.archived.artifactId,
    ]);
    expect(links).toEqual([{ entity_id: seeded.annotation.annotationId }]);

    // A new replica's first sync, as a user runs it: exit 0.
    const dir = mkdtempSync(join(tmpdir(), 'outpost-strict-b-'));
    cleanup.push(dir);
    openEngine(dir).close();
    const code = await syncCommand({ data: dir, remote: proxy.url, token: remote.token, quiet: true });
    expect(refusedRequests(proxy)).toEqual([]);
    expect(code).toBe(0);

    // Each recorded request was answered, and names an operation of the table.
    const operations = new Set(proxy.log.map((e) => operationOf(e.method, new URL(e.path, 'http://x').pathname)?.name));
    expect(proxy.log.filter((e) => e.fault !== undefined || (e.status ?? 0) >= 400)).toEqual([]);
    expect([...operations].filter((o) => o === undefined || !(o in platformRequests))).toEqual([]);
    // The sync's calls of every resource went through the gate (the check covered them).
    for (const op of [
      'ListArtifacts',
      'ListAnnotations',
      'ListAllAnnotationLogs',
      'ListSavedSearches',
      'ListPolicies',
      'ListRules',
      'ListTestReports',
      'ListTestSteps',
      'ListTestMeasurements',
      'UpdateSavedSearch',
      'UpdatePolicy',
      'UpdateTestReport',
      'UploadArtifact',
    ]) {
      expect(operations).toContain(op);
    }
  });

  test('the gate refuses what the platform would: the artifact pull of before (order_by modified_date, an include_archived parameter)', async () => {
    const check = (path: string) => refusalOf({ method: 'GET', path, body: '' });
    expect(check('/api/v1/artifacts?order_by=modified_date&page_size=1000')).toMatchObject({ field: 'order_by' });
    expect(check('/api/v1/artifacts?include_archived=true')).toMatchObject({ field: 'include_archived' });
    expect(check(`/api/v1/artifacts?filter=${encodeURIComponent("modified_date >= timestamp('2026-01-01T00:00:00Z')")}`)).toMatchObject({
      field: 'filter',
    });
    expect(
      check(`/api/v1/artifacts?order_by=version_created_date&filter=${encodeURIComponent('include_archived == true')}`),
    ).toBeUndefined();
    expect(
      refusalOf({
        method: 'PATCH',
        path: '/api/v1/saved_searches',
        body: JSON.stringify({ savedSearch: {}, updateMask: 'properties.searchTerm' }),
      }),
    ).toMatchObject({ field: 'update_mask' });
    expect(
      refusalOf({ method: 'PATCH', path: '/api/v1/annotations', body: JSON.stringify({ annotation: {}, updateMask: 'start_time' }) }),
    ).toMatchObject({ field: 'update_mask' });
    expect(refusalOf({ method: 'GET', path: '/api/v1/annotation-logs?order_by=created_date', body: '' })).toMatchObject({
      field: 'order_by',
    });
    // Through the stand-in: the platform's error body, nothing forwarded.
    const res = await fetch(`${proxy.url}/api/v1/artifacts?include_archived=true`, {
      headers: { Authorization: `Bearer ${remote.token}` },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 3,
      details: [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'include_archived' }] }],
    });
    expect(proxy.forwarded()).toBe(0);
  });
});
