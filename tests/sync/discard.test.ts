// Discarding refused creates of every kind (DismissSyncEntry with
// discard_record): what the create made here goes, with what cascades from it
// and the edits that waited on it; its files go once that has committed; an
// edit that made a record of its own which would outlive the discard (a report
// imported from the file, an artifact linked to the annotation) is the user's
// to give up first; afterwards nothing of it is ever sent.
import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { Code } from '../../src-shared/errors';
import { contentFilePath } from '../../src-main/services/remoteFiles/contentStore';
import { contentPath } from '../../src-main/services/artifacts/artifactStorage';
import { artifactView, stageUpload } from './artifactKit';
import type { FaultProxy, RequestInfo } from './faultProxy';
import { annotationRequest, closeProxiedPair, comment, openProxiedPair, viewOf, type RemoteServer, type Replica } from './helpers';
import { count, importSample, reportsOf } from './testReportHelpers';

let remote: RemoteServer;
let proxy: FaultProxy;
let a: Replica;

beforeEach(async () => ({ remote, proxy, a } = await openProxiedPair()));
afterEach(() => closeProxiedPair({ remote, proxy, a }));

const T0 = '2026-09-01T00:00:00Z';
const T1 = '2026-09-01T00:01:00Z';
const refusal = { status: 400, code: Code.INVALID_ARGUMENT, message: 'not taken here' };
const failedEntries = async () =>
  (await a.call('ListSyncOutbox', { state: 'failed' })).entries as {
    seq: string;
    operation: string;
    dismissable: boolean;
    discardable: boolean;
    lastError: string;
  }[];
const discard = (seq: string) => a.call('DismissSyncEntry', { seq, discardRecord: true });
const held = (sql: string, params: unknown[] = []) => a.engine.db.get<{ n: number }>(sql, params as never)!.n;

describe('sync: discarding refused creates', () => {
  test('a refused file upload: the report imported from it is given up first, then the file; its content goes from the data directory, and nothing is sent', async () => {
    const { reportId, remoteFileId } = await importSample(a);
    await a.call('UpdateTestReport', { testReport: { testReportId: reportId, serialNumber: 'SN-field' }, updateMask: 'serialNumber' });
    const stored = a.engine.db.get<{ content_path: string }>('SELECT content_path FROM remote_files WHERE id = ?', [
      remoteFileId,
    ])!.content_path;
    const file = contentFilePath(a.dir, stored);
    expect(existsSync(file)).toBe(true);
    const steps = count(a.engine.db, 'test_steps');
    expect(steps).toBeGreaterThan(0);

    proxy.refuse((r: RequestInfo) => r.method === 'POST' && r.path.startsWith('/api/v0/remote-files'), refusal);
    expect((await a.sync()).failedEntries).toBe(3);
    const [upload, importing, update] = await failedEntries();
    expect([upload, importing, update].map((e) => [e.operation, e.dismissable, e.discardable])).toEqual([
      ['UploadRemoteFile', false, true],
      ['ImportTestReport', false, true],
      ['UpdateTestReport', true, false],
    ]);

    // The report read from the file would stay: the import is given up first, by itself.
    await expect(discard(upload.seq)).rejects.toMatchObject({
      code: Code.FAILED_PRECONDITION,
      message: expect.stringMatching(new RegExp(`entry ${importing.seq} \\(ImportTestReport\\).*made records of its own`)),
    });
    expect(existsSync(file)).toBe(true);
    expect(count(a.engine.db, 'test_steps')).toBe(steps);

    expect((await discard(importing.seq)).entry.state).toBe('dismissed');
    expect(reportsOf(a.engine.db)).toEqual({});
    expect(count(a.engine.db, 'test_steps') + count(a.engine.db, 'test_measurements')).toBe(0);
    expect((await failedEntries()).map((e) => e.operation)).toEqual(['UploadRemoteFile']); // the report's edit went with it
    expect(existsSync(file)).toBe(true);

    expect((await discard(upload.seq)).entry.state).toBe('dismissed');
    expect(held('SELECT count(*) AS n FROM remote_files')).toBe(0);
    expect(existsSync(file)).toBe(false);
    expect(held('SELECT count(*) AS n FROM sync_id_map WHERE remote_id IS NULL')).toBe(0);

    proxy.refuse(undefined);
    const next = await a.sync();
    expect(next.ok).toBe(true);
    expect(next.progress.pushed).toBe(0);
    expect(proxy.forwarded((r) => r.method === 'POST' && r.path.startsWith('/api/v0/remote-files'))).toBe(0);
    expect(reportsOf(remote.engine.db)).toEqual({});
    expect((await a.call('GetSyncStatus', {})).failedCount).toBe(0);
  });

  test('a refused report made by hand takes its steps, sub-steps and measurements, and their edits, with it', async () => {
    proxy.refuse((r) => r.method === 'POST' && r.path === '/api/v1/test-reports', refusal);
    const { testReport } = await a.call('CreateTestReport', {
      status: 'TEST_STATUS_IN_PROGRESS',
      name: 'bench run',
      testSystemName: 'rig-7',
      testCase: 'power',
      startTime: T0,
      endTime: T1,
    });
    const step = (stepPath: string, name: string, parentStepId?: string) => ({
      testStep: {
        testReportId: testReport.testReportId,
        parentStepId,
        name,
        stepType: 'TEST_STEP_TYPE_ACTION',
        stepPath,
        status: 'TEST_STATUS_PASSED',
        startTime: T0,
        endTime: T1,
      },
    });
    const top = (await a.call('CreateTestStep', step('1', 'power up'))).testStep;
    const child = (await a.call('CreateTestStep', step('1.1', 'measure rail', top.testStepId))).testStep;
    const { measurementIds } = await a.call('CreateTestMeasurements', {
      testMeasurements: [1, 2].map((i) => ({
        testStepId: child.testStepId,
        name: `rail ${i}`,
        measurementType: 'TEST_MEASUREMENT_TYPE_DOUBLE',
        numericValue: i,
        passed: true,
        timestamp: T0,
      })),
    });
    await a.call('UpdateTestMeasurement', {
      testMeasurement: { measurementId: measurementIds[0], description: 'rechecked' },
      updateMask: 'description',
    });
    expect((await a.sync()).failedEntries).toBe(5);
    const [create, ...waited] = await failedEntries();
    expect([create, ...waited].map((e) => [e.operation, e.discardable])).toEqual([
      ['CreateTestReport', true],
      ['CreateTestStep', true],
      ['CreateTestStep', true],
      ['CreateTestMeasurements', true],
      ['UpdateTestMeasurement', false],
    ]);

    expect((await discard(create.seq)).entry.state).toBe('dismissed');
    for (const table of ['test_reports', 'test_steps', 'test_measurements']) expect(count(a.engine.db, table)).toBe(0);
    expect(await failedEntries()).toEqual([]);
    expect((await a.call('ListSyncOutbox', {})).entries).toEqual([]);
    proxy.refuse(undefined);
    const next = await a.sync();
    expect(next.progress.pushed).toBe(0);
    expect(reportsOf(remote.engine.db)).toEqual({});
  });

  test('an artifact linked to a refused annotation is given up before it; its content file goes; a refused comment and policy can be given up alone', async () => {
    proxy.refuse(
      (r) =>
        r.method === 'POST' &&
        (r.path === '/api/v1/annotations' || r.path.startsWith('/api/v1/artifacts') || r.path === '/api/v1/policies'),
      refusal,
    );
    const { annotation } = await a.call('CreateAnnotation', annotationRequest('seen in the field'));
    await a.call('CreateAnnotationLog', comment(annotation.annotationId, 'photo attached'));
    const { artifact } = await a.call('UploadArtifact', {
      file: stageUpload(a.dir, 'frame bytes', 'frame.jpg', 'image/jpeg'),
      title: 'frame',
      links: JSON.stringify([
        {
          relation: 'ARTIFACT_LINK_RELATION_ATTACHED_TO',
          entityType: 'ARTIFACT_ENTITY_TYPE_ANNOTATION',
          entityId: annotation.annotationId,
        },
      ]),
    });
    const { policy } = await a.call('CreatePolicy', {
      name: 'field only',
      configuration: { cedarPolicy: 'permit(principal, action, resource);' },
    });
    const [local] = artifactView(a.engine);
    const file = contentPath(a.dir, a.engine.db.get<{ storage_path: string }>('SELECT storage_path FROM artifact_versions')!.storage_path);
    expect(existsSync(file)).toBe(true);
    expect(local.id).toBe(artifact.artifactId);

    expect((await a.sync()).failedEntries).toBe(4);
    const [create, log, upload, policyCreate] = await failedEntries();
    expect([create, log, upload, policyCreate].map((e) => [e.operation, e.discardable])).toEqual([
      ['CreateAnnotation', true],
      ['CreateAnnotationLog', true],
      ['UploadArtifact', true],
      ['CreatePolicy', true],
    ]);
    await expect(discard(create.seq)).rejects.toMatchObject({
      code: Code.FAILED_PRECONDITION,
      message: expect.stringMatching(new RegExp(`entry ${upload.seq} \\(UploadArtifact\\).*made records of its own`)),
    });
    expect(artifactView(a.engine)).toHaveLength(1);

    // The comment alone: the annotation stays, with its other edits.
    expect((await discard(log.seq)).entry.state).toBe('dismissed');
    expect(held('SELECT count(*) AS n FROM annotation_logs WHERE kind = 1')).toBe(0);
    expect((await a.call('GetAnnotation', { annotationId: annotation.annotationId })).annotation.name).toBe('seen in the field');

    expect((await discard(upload.seq)).entry.state).toBe('dismissed');
    expect(artifactView(a.engine)).toEqual([]);
    expect(existsSync(file)).toBe(false);
    expect((await discard(create.seq)).entry.state).toBe('dismissed');
    expect(viewOf(a.engine.db).annotations).toEqual({});
    expect((await discard(policyCreate.seq)).entry.state).toBe('dismissed');
    await expect(a.call('GetPolicy', { policyId: policy.policyId })).rejects.toMatchObject({ code: Code.NOT_FOUND });

    proxy.refuse(undefined);
    const next = await a.sync();
    expect(next.ok).toBe(true);
    expect(next.progress.pushed).toBe(0);
    expect(viewOf(a.engine.db)).toEqual(viewOf(remote.engine.db));
    expect(artifactView(remote.engine)).toEqual([]);
  });

  test('a state change logged on a refused annotation is not given up alone: the annotation changed with it', async () => {
    const { annotation } = await remote.client.CreateAnnotation(annotationRequest('shared'));
    await a.sync();
    await a.call('CreateAnnotationLog', {
      annotationId: annotation.annotationId,
      kind: 'ANNOTATION_LOG_KIND_STATE_UPDATE',
      stateUpdate: { state: 'ANNOTATION_LOG_STATE_RESOLVED' },
    });
    proxy.refuse((r) => r.method === 'POST' && /\/logs$/.test(r.path), refusal);
    expect((await a.sync()).failedEntries).toBe(1);
    const [entry] = await failedEntries();
    expect(entry).toMatchObject({ operation: 'CreateAnnotationLog', dismissable: false, discardable: false });
    await expect(discard(entry.seq)).rejects.toMatchObject({
      code: Code.FAILED_PRECONDITION,
      message: expect.stringMatching(/cannot be discarded \(it changed its annotation here too\)/),
    });
    expect((await failedEntries()).map((e) => e.seq)).toEqual([entry.seq]);
  });
});
