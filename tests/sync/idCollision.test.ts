// Ids never collide silently (issue #30 item 4): a record made here before the
// link and a remote record with the same id (two demo profiles seeded alike,
// a copied data directory) are two records, not one record's update. The pull
// keeps the local one as it is and logs a conflict naming the id; a later pull
// does not log it again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { OperationName } from '../../src-shared/operations';
import { DEFAULT_ORGANIZATION_NAME, DEFAULT_USER_NAME, ensureMember, loadCaller } from '../../src-main/auth/identity';
import type { Caller } from '../../src-main/auth/caller';
import { openEngine } from '../../src-main/engine';
import { invoke } from '../../src-main/services/invoke';
import { localCaller } from '../../src-main/sync/identity';
import { syncReplica } from '../../src-main/sync/assembly/syncReplica';
import type { ReplicaEngine } from '../../src-main/sync/replica';
import { runSync } from '../../src-main/sync/runSync';
import { createMemorySecretStore } from '../../src-main/sync/secretStore';
import { annotationRequest, ASSET, comment, insertAsset, startRemote, type RemoteServer } from './helpers';

let remote: RemoteServer;
let dir: string;
let engine: ReplicaEngine;
let localUser: string;

const owner = (): Caller => ({ ...(localCaller(engine.db) ?? loadCaller(engine.db, localUser)!), owner: true });
const call = (op: OperationName, request: unknown = {}): Promise<any> => invoke({ engine, db: engine.db, caller: owner() }, op, request);
const sync = () =>
  runSync({
    db: engine.db,
    catalog: engine.replica.catalog,
    remote: { baseUrl: remote.url, apiKey: remote.token, timeoutMs: 5_000 },
    retry: { baseDelayMs: 5, maxAttempts: 3 },
  });

beforeEach(async () => {
  remote = await startRemote();
  dir = mkdtempSync(join(tmpdir(), 'outpost-collision-'));
  engine = openEngine(dir, { replica: syncReplica({ secrets: createMemorySecretStore() }) });
  localUser = ensureMember(engine.db, DEFAULT_USER_NAME, DEFAULT_ORGANIZATION_NAME).userId;
});
afterEach(async () => {
  engine.close();
  rmSync(dir, { recursive: true, force: true });
  await remote.close();
});

test('a pulled record with the id of a record made here before the link keeps the local one and logs a conflict', async () => {
  insertAsset(engine.db, 'a0000000-0000-4000-a000-00000000000a', ASSET);
  const { annotation: mine } = await call(
    'CreateAnnotation',
    annotationRequest('GPS glitch (mine)', { state: 'ANNOTATION_STATE_FLAGGED' }),
  );
  await call('ArchiveAnnotation', { annotationId: mine.annotationId });
  // The remote holds another record under the same id (what two deterministic demo seeds made).
  const theirs = await remote.client.CreateAnnotation(annotationRequest('GPS glitch (theirs)'));
  remote.engine.db.run('UPDATE annotations SET id = ? WHERE id = ?', [mine.annotationId, theirs.annotation.annotationId]);

  await sync();

  const kept = engine.db.get<{ name: string; archived_date: number | null; organization_id: string }>(
    'SELECT name, archived_date, organization_id FROM annotations WHERE id = ?',
    [mine.annotationId],
  )!;
  expect(kept.name).toBe('GPS glitch (mine)');
  expect(kept.archived_date).not.toBeNull();
  expect(kept.organization_id).toBe(mine.organizationId);
  const conflicts = engine.db.all<{ kind: string; resource: string; record_id: string; winner: string; message: string }>(
    'SELECT kind, resource, record_id, winner, message FROM sync_conflicts',
  );
  expect(conflicts).toHaveLength(1);
  expect(conflicts[0]).toMatchObject({ kind: 'id_collision', record_id: mine.annotationId, winner: 'local' });
  expect(conflicts[0].message).toMatch(/same id/);
  // The conflict is listed to the user like any other.
  const listed = await call('ListSyncConflicts', {});
  expect(listed.conflicts.map((c: { recordId: string }) => c.recordId)).toContain(mine.annotationId);

  // Pulled again (the overlap re-reads it): still the local record, still one conflict.
  await remote.client.UpdateAnnotation({
    annotation: { annotationId: mine.annotationId, name: 'GPS glitch (theirs, renamed)' },
    updateMask: 'name',
  });
  await sync();
  expect(engine.db.get<{ name: string }>('SELECT name FROM annotations WHERE id = ?', [mine.annotationId])!.name).toBe('GPS glitch (mine)');
  expect(engine.db.get<{ n: number }>('SELECT count(*) AS n FROM sync_conflicts')!.n).toBe(1);
});

test('a pulled rule with the id of a rule made here before the link keeps the local one and logs a conflict', async () => {
  const { ruleId } = await call('CreateRule', { update: { name: 'Overpressure (mine)', description: 'made offline', conditions: [] } });
  const theirs = await remote.client.CreateRule({
    update: { name: 'Overpressure (theirs)', description: 'the remote one', conditions: [] },
  });
  remote.engine.db.run('UPDATE rules SET id = ? WHERE id = ?', [ruleId, theirs.ruleId]);

  await sync();

  const kept = () =>
    engine.db.get<{ name: string; description: string; organization_id: string }>(
      'SELECT name, description, organization_id FROM rules WHERE id = ?',
      [ruleId],
    )!;
  const localOrganization = kept().organization_id;
  expect(kept()).toEqual({ name: 'Overpressure (mine)', description: 'made offline', organization_id: localOrganization });
  expect(localOrganization).not.toBe((await remote.client.GetMe({})).organizations[0].organizationId);
  const conflicts = engine.db.all<{ kind: string; resource: string; record_id: string; winner: string }>(
    'SELECT kind, resource, record_id, winner FROM sync_conflicts',
  );
  expect(conflicts).toEqual([{ kind: 'id_collision', resource: 'rule', record_id: ruleId, winner: 'local' }]);

  // Changed on the remote and pulled again: still the local rule, still one conflict.
  await remote.client.UpdateRule({ ruleId, name: 'Overpressure (theirs, renamed)', description: '', conditions: [] });
  await sync();
  expect(kept().name).toBe('Overpressure (mine)');
  expect(engine.db.get<{ n: number }>('SELECT count(*) AS n FROM sync_conflicts')!.n).toBe(1);
});

test('the comments of a colliding record stay apart: neither a log with the id of one made here nor the remote record’s own logs reach it', async () => {
  insertAsset(engine.db, 'a0000000-0000-4000-a000-00000000000a', ASSET);
  const { annotation: mine } = await call('CreateAnnotation', annotationRequest('Strut crack (mine)'));
  const { annotationLog: myComment } = await call('CreateAnnotationLog', comment(mine.annotationId, 'seen on the left strut'));
  // On the remote: another record under the same id, with a comment of its own ...
  const theirs = await remote.client.CreateAnnotation(annotationRequest('Strut crack (theirs)'));
  remote.engine.db.run('UPDATE annotations SET id = ? WHERE id = ?', [mine.annotationId, theirs.annotation.annotationId]);
  remote.engine.db.run('UPDATE annotation_logs SET annotation_id = ? WHERE annotation_id = ?', [
    mine.annotationId,
    theirs.annotation.annotationId,
  ]);
  await remote.client.CreateAnnotationLog(comment(mine.annotationId, 'their comment'));
  // ... and, on a record of its own, a comment under the id of the one made here.
  const { annotation: other } = await remote.client.CreateAnnotation(annotationRequest('Other'));
  const { annotationLog: clash } = await remote.client.CreateAnnotationLog(comment(other.annotationId, 'a clashing comment'));
  remote.engine.db.run('UPDATE annotation_logs SET id = ? WHERE id = ?', [myComment.annotationLogId, clash.annotationLogId]);

  await sync();

  const logsOf = (annotationId: string) =>
    engine.db
      .all<{ comment_body: string | null }>('SELECT comment_body FROM annotation_logs WHERE annotation_id = ? AND kind = 1 ORDER BY pk', [
        annotationId,
      ])
      .map((l) => JSON.stringify(l.comment_body));
  expect(logsOf(mine.annotationId).join()).toContain('seen on the left strut');
  expect(logsOf(mine.annotationId).join()).not.toContain('their comment');
  expect(
    engine.db.get<{ annotation_id: string }>('SELECT annotation_id FROM annotation_logs WHERE id = ?', [myComment.annotationLogId]),
  ).toEqual({ annotation_id: mine.annotationId });
  const conflicts = engine.db.all<{ kind: string; resource: string; record_id: string }>(
    'SELECT kind, resource, record_id FROM sync_conflicts ORDER BY resource',
  );
  expect(conflicts).toEqual([
    { kind: 'id_collision', resource: 'annotation', record_id: mine.annotationId },
    { kind: 'id_collision', resource: 'annotation_log', record_id: myComment.annotationLogId },
  ]);
});

/** A report made here with one step and one measurement (before the link: in the profile's own organization). */
async function reportWithChildren(on: (op: OperationName, request: unknown) => Promise<any>, name: string) {
  const { testReport } = await on('CreateTestReport', {
    status: 'TEST_STATUS_PASSED',
    name,
    testSystemName: 'bench-2',
    testCase: 'TC-7',
    startTime: '2026-09-01T00:00:00Z',
    endTime: '2026-09-01T00:10:00Z',
  });
  const { testStep } = await on('CreateTestStep', {
    testStep: {
      testReportId: testReport.testReportId,
      name: `${name}: pressure`,
      stepType: 'TEST_STEP_TYPE_ACTION',
      stepPath: '1',
      status: 'TEST_STATUS_PASSED',
      startTime: '2026-09-01T00:01:00Z',
      endTime: '2026-09-01T00:02:00Z',
    },
  });
  const { measurementIds } = await on('CreateTestMeasurements', {
    testMeasurements: [
      {
        testReportId: testReport.testReportId,
        testStepId: testStep.testStepId,
        name: `${name}: psi`,
        measurementType: 'TEST_MEASUREMENT_TYPE_DOUBLE',
        numericValue: 41.5,
        passed: true,
        timestamp: '2026-09-01T00:01:30Z',
      },
    ],
  });
  return {
    reportId: testReport.testReportId as string,
    stepId: testStep.testStepId as string,
    measurementId: measurementIds[0] as string,
  };
}
const onRemote = (op: OperationName, request: unknown) => (remote.client as any)[op](request) as Promise<any>;

/** Gives a remote record another id, and the rows that name it that id too. */
function renameOnRemote(table: string, from: string, to: string, referencing: readonly string[] = []): void {
  remote.engine.db.run(`UPDATE ${table} SET id = ? WHERE id = ?`, [to, from]);
  for (const column of referencing) {
    const [t, c] = column.split('.');
    remote.engine.db.run(`UPDATE ${t} SET ${c} = ? WHERE ${c} = ?`, [to, from]);
  }
}

const conflictsOf = () =>
  engine.db.all<{ kind: string; resource: string; record_id: string; winner: string }>(
    'SELECT kind, resource, record_id, winner FROM sync_conflicts ORDER BY resource, record_id',
  );

test('a pulled test step or measurement with the id of one made here before the link keeps the local one and logs a conflict', async () => {
  const mine = await reportWithChildren(call, 'pump 3 (mine)');
  const theirs = await reportWithChildren(onRemote, 'pump 3 (theirs)');
  renameOnRemote('test_steps', theirs.stepId, mine.stepId, ['test_steps.parent_step_id', 'test_measurements.test_step_id']);
  renameOnRemote('test_measurements', theirs.measurementId, mine.measurementId);

  await sync();

  const step = () =>
    engine.db.get<{ name: string; test_report_id: string }>('SELECT name, test_report_id FROM test_steps WHERE id = ?', [mine.stepId]);
  const measurement = () =>
    engine.db.get<{ name: string; test_report_id: string }>('SELECT name, test_report_id FROM test_measurements WHERE id = ?', [
      mine.measurementId,
    ]);
  expect(step()).toEqual({ name: 'pump 3 (mine): pressure', test_report_id: mine.reportId });
  expect(measurement()).toEqual({ name: 'pump 3 (mine): psi', test_report_id: mine.reportId });
  // Their report arrived, without the children that collide.
  expect(engine.db.get('SELECT name FROM test_reports WHERE id = ?', [theirs.reportId])).toEqual({ name: 'pump 3 (theirs)' });
  expect(engine.db.get<{ n: number }>('SELECT count(*) AS n FROM test_steps WHERE test_report_id = ?', [theirs.reportId])!.n).toBe(0);
  expect(conflictsOf()).toEqual([
    { kind: 'id_collision', resource: 'test_measurement', record_id: mine.measurementId, winner: 'local' },
    { kind: 'id_collision', resource: 'test_step', record_id: mine.stepId, winner: 'local' },
  ]);

  // Changed on the remote and pulled again: still the local ones, still one conflict each.
  await remote.client.UpdateTestStep({ testStep: { testStepId: mine.stepId, name: 'renamed there' }, updateMask: 'name' });
  await remote.client.UpdateTestMeasurement({
    testMeasurement: { measurementId: mine.measurementId, name: 'renamed there' },
    updateMask: 'name',
  });
  await sync();
  expect(step()!.name).toBe('pump 3 (mine): pressure');
  expect(measurement()!.name).toBe('pump 3 (mine): psi');
  expect(conflictsOf()).toHaveLength(2);
});

test('the steps and measurements of a colliding report stay apart: none of the remote report’s reach the report made here', async () => {
  const mine = await reportWithChildren(call, 'pump 4 (mine)');
  const theirs = await reportWithChildren(onRemote, 'pump 4 (theirs)');
  renameOnRemote('test_reports', theirs.reportId, mine.reportId, ['test_steps.test_report_id', 'test_measurements.test_report_id']);

  await sync();

  const children = (table: string) =>
    engine.db.all<{ id: string }>(`SELECT id FROM ${table} WHERE test_report_id = ? ORDER BY id`, [mine.reportId]).map((r) => r.id);
  expect(children('test_steps')).toEqual([mine.stepId]);
  expect(children('test_measurements')).toEqual([mine.measurementId]);
  expect(engine.db.get('SELECT 1 FROM test_steps WHERE id = ?', [theirs.stepId])).toBeUndefined();
  expect(conflictsOf()).toEqual([{ kind: 'id_collision', resource: 'test_report', record_id: mine.reportId, winner: 'local' }]);

  // A step and a measurement added there later (read by the measurements' pull, which fetches the steps it lacks): still apart.
  await sync();
  const { testStep } = await remote.client.CreateTestStep({
    testStep: {
      testReportId: mine.reportId,
      name: 'later',
      stepType: 'TEST_STEP_TYPE_ACTION',
      stepPath: '2',
      status: 'TEST_STATUS_PASSED',
      startTime: '2026-09-01T00:03:00Z',
      endTime: '2026-09-01T00:04:00Z',
    },
  });
  await remote.client.CreateTestMeasurements({
    testMeasurements: [
      {
        testReportId: mine.reportId,
        testStepId: testStep.testStepId,
        name: 'later psi',
        measurementType: 'TEST_MEASUREMENT_TYPE_DOUBLE',
        numericValue: 1,
        passed: true,
        timestamp: '2026-09-01T00:03:30Z',
      },
    ],
  });
  await sync();
  expect(children('test_steps')).toEqual([mine.stepId]);
  expect(children('test_measurements')).toEqual([mine.measurementId]);
  expect(conflictsOf()).toHaveLength(1);
});

test('pulled assets, runs, tags and channels with the ids of ones made here before the link keep the local ones and log a conflict each', async () => {
  const { asset } = await call('CreateAsset', { name: 'Rig (mine)' });
  const { run } = await call('CreateRun', { name: 'Run (mine)' });
  const { tag } = await call('CreateTag', { name: 'mine' });
  const { channel } = await call('CreateChannel', { assetId: asset.assetId, name: 'psi (mine)' });
  const theirs = {
    asset: (await remote.client.CreateAsset({ name: 'Rig (theirs)' })).asset,
    other: (await remote.client.CreateAsset({ name: 'Other rig' })).asset,
    run: (await remote.client.CreateRun({ name: 'Run (theirs)' })).run,
    tag: (await remote.client.CreateTag({ name: 'theirs' })).tag,
  };
  // Their channel under the id of mine (on an asset of theirs), and one of theirs on their asset that has my asset's id.
  const theirChannel = (await remote.client.CreateChannel({ assetId: theirs.other.assetId, name: 'psi (theirs)' })).channel;
  const onColliding = (await remote.client.CreateChannel({ assetId: theirs.asset.assetId, name: 'temp (theirs)' })).channel;
  renameOnRemote('assets', theirs.asset.assetId, asset.assetId, ['channels.asset_id', 'run_assets.asset_id']);
  renameOnRemote('runs', theirs.run.runId, run.runId);
  renameOnRemote('tags', theirs.tag.tagId, tag.tagId);
  renameOnRemote('channels', theirChannel.channelId, channel.channelId);

  await sync();

  const kept = () => ({
    asset: engine.db.get('SELECT name, organization_id FROM assets WHERE id = ?', [asset.assetId]),
    run: engine.db.get('SELECT name, organization_id FROM runs WHERE id = ?', [run.runId]),
    tag: engine.db.get('SELECT name, organization_id FROM tags WHERE id = ?', [tag.tagId]),
    channel: engine.db.get('SELECT name, asset_id FROM channels WHERE id = ?', [channel.channelId]),
  });
  const localOrganization = asset.organizationId;
  expect(kept()).toEqual({
    asset: { name: 'Rig (mine)', organization_id: localOrganization },
    run: { name: 'Run (mine)', organization_id: localOrganization },
    tag: { name: 'mine', organization_id: localOrganization },
    channel: { name: 'psi (mine)', asset_id: asset.assetId },
  });
  // The channel of their colliding asset is not put on mine; their other asset arrived.
  expect(engine.db.all('SELECT name FROM channels WHERE asset_id = ?', [asset.assetId])).toEqual([{ name: 'psi (mine)' }]);
  expect(engine.db.get('SELECT 1 AS held FROM channels WHERE id = ?', [onColliding.channelId])).toBeUndefined();
  expect(engine.db.get('SELECT name FROM assets WHERE id = ?', [theirs.other.assetId])).toEqual({ name: 'Other rig' });
  const expected = [
    { kind: 'id_collision', resource: 'asset', record_id: asset.assetId, winner: 'local' },
    { kind: 'id_collision', resource: 'channel', record_id: channel.channelId, winner: 'local' },
    { kind: 'id_collision', resource: 'run', record_id: run.runId, winner: 'local' },
    { kind: 'id_collision', resource: 'tag', record_id: tag.tagId, winner: 'local' },
  ];
  expect(conflictsOf()).toEqual(expected);

  // Pulled again (the overlap re-reads them): still the local ones, still one conflict each.
  await sync();
  expect(kept().asset).toEqual({ name: 'Rig (mine)', organization_id: localOrganization });
  expect(conflictsOf()).toEqual(expected);
});
