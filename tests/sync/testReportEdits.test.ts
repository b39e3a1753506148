// Manual test-report edits replicate: a report, steps and measurements made
// offline reach the remote once (also through lost responses) with every
// later edit; remote edits and deletes of steps and measurements arrive; a
// measurement field changed on both sides is a logged conflict.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { type FaultProxy, type Matcher } from './faultProxy';
import { closeProxiedPair, ONE_TRY, openProxiedPair, type RemoteServer, type Replica } from './helpers';
import { count, importSample, reportsOf } from './testReportHelpers';

let remote: RemoteServer;
let proxy: FaultProxy;
let a: Replica;

beforeEach(async () => ({ remote, proxy, a } = await openProxiedPair()));
afterEach(() => closeProxiedPair({ remote, proxy, a }));

const isPost =
  (path: string): Matcher =>
  (r) =>
    r.method === 'POST' && r.path === path;
const T0 = '2026-09-01T00:00:00Z';
const T1 = '2026-09-01T00:01:00Z';
const step = (testReportId: string, stepPath: string, name: string, parentStepId?: string) => ({
  testStep: {
    testReportId,
    parentStepId,
    name,
    stepType: 'TEST_STEP_TYPE_ACTION',
    stepPath,
    status: 'TEST_STATUS_PASSED',
    startTime: T0,
    endTime: T1,
  },
});
const measurement = (testStepId: string, name: string, numericValue: number, timestamp = T0) => ({
  testStepId,
  name,
  measurementType: 'TEST_MEASUREMENT_TYPE_DOUBLE',
  numericValue,
  passed: true,
  timestamp,
  numericBounds: { min: 0, max: 10 },
  unit: { abbreviatedName: 'V' },
});

describe('sync: manual test-report edits', () => {
  test('a report, steps and measurements made offline reach the remote once, with their edits, through lost responses', async () => {
    const { testReport } = await a.call('CreateTestReport', {
      status: 'TEST_STATUS_IN_PROGRESS',
      name: 'bench run',
      testSystemName: 'rig-7',
      testCase: 'power',
      startTime: T0,
      endTime: T1,
      serialNumber: 'SN-1',
      metadata: [{ key: { name: 'operator', type: 'METADATA_KEY_TYPE_STRING' }, stringValue: 'ian' }],
    });
    const top = (await a.call('CreateTestStep', step(testReport.testReportId, '1', 'power up'))).testStep;
    const child = (await a.call('CreateTestStep', step(testReport.testReportId, '1.1', 'measure rail', top.testStepId))).testStep;
    const one = (await a.call('CreateTestMeasurement', { testMeasurement: measurement(child.testStepId, 'rail 5V', 5.01) }))
      .testMeasurement;
    const batch = await a.call('CreateTestMeasurements', {
      testMeasurements: [
        measurement(child.testStepId, 'rail 3V3', 3.31, '2026-09-01T00:00:01Z'),
        measurement(child.testStepId, 'rail 1V8', 1.79, '2026-09-01T00:00:02Z'),
      ],
    });
    await a.call('UpdateTestStep', { testStep: { testStepId: child.testStepId, description: 'all rails' }, updateMask: 'description' });
    await a.call('UpdateTestMeasurement', {
      testMeasurement: { measurementId: batch.measurementIds[1], numericValue: 1.8, description: 'rechecked' },
      updateMask: 'numericValue,description',
    });
    await a.call('UpdateTestReport', {
      testReport: { testReportId: testReport.testReportId, status: 'TEST_STATUS_PASSED' },
      updateMask: 'status',
    });

    proxy.once({ kind: 'lose' }, isPost('/api/v1/test-reports'));
    proxy.once({ kind: 'lose' }, isPost('/api/v1/test-steps'));
    proxy.once({ kind: 'lose' }, isPost('/api/v1/test-measurements'));
    proxy.once({ kind: 'lose' }, isPost('/api/v1/test-measurements:batch'));
    const s = await a.sync();
    expect(s.error).toBeUndefined();
    expect(s.failedEntries).toBe(0);
    expect(s.progress.recovered).toBe(4);
    expect(proxy.forwarded(isPost('/api/v1/test-reports'))).toBe(1);
    expect(proxy.forwarded(isPost('/api/v1/test-steps'))).toBe(2);
    expect(proxy.forwarded(isPost('/api/v1/test-measurements'))).toBe(1);
    expect(proxy.forwarded(isPost('/api/v1/test-measurements:batch'))).toBe(1);

    const remoteReports = reportsOf(remote.engine.db);
    expect(Object.keys(remoteReports)).toHaveLength(1);
    const [r] = Object.values(remoteReports);
    expect(r.steps).toHaveLength(2);
    expect(r.measurements).toHaveLength(3);
    expect(r.steps[1]).toMatch(/ 1\.1 measure rail [0-9a-f-]{36} all rails$/);
    expect(r.measurements.some((m) => m.endsWith(' rail 1V8 1 1.8 rechecked'))).toBe(true);
    expect(remote.engine.db.get('SELECT status, serial_number FROM test_reports')).toEqual({ status: 2, serial_number: 'SN-1' });
    expect(remote.engine.db.all('SELECT key, string_value FROM test_report_metadata')).toEqual([{ key: 'operator', string_value: 'ian' }]);
    expect(reportsOf(a.engine.db)).toEqual(remoteReports);
    // Ids the UI still holds are translated.
    expect(
      (await a.call('ListTestMeasurements', { filter: `measurement_id == '${r.measurements[0].split(' ')[0]}'` })).testMeasurements,
    ).toHaveLength(1);
    expect((await a.call('GetTestReport', { testReportId: testReport.testReportId })).testReport.testReportId).toBe(
      Object.keys(remoteReports)[0],
    );
    expect(one.measurementId).not.toBe(r.measurements[0].split(' ')[0]);

    expect((await a.sync()).progress.pushed).toBe(0);
    expect(reportsOf(remote.engine.db)).toEqual(remoteReports);
  });

  test('edits of imported steps and measurements made before the import is pushed follow it to the remote records', async () => {
    await importSample(a);
    const db = a.engine.db;
    const [m1, m2] = db.all<{ id: string; test_step_id: string; name: string }>(
      'SELECT id, test_step_id, name FROM test_measurements ORDER BY pk LIMIT 2',
    );
    const stepPath = db.get<{ step_path: string }>('SELECT step_path_text(path_key) AS step_path FROM test_steps WHERE id = ?', [
      m1.test_step_id,
    ])!.step_path;
    await a.call('UpdateTestStep', {
      testStep: { testStepId: m1.test_step_id, description: 'edited before the push' },
      updateMask: 'description',
    });
    await a.call('UpdateTestMeasurement', {
      testMeasurement: { measurementId: m1.id, description: 'noted before the push' },
      updateMask: 'description',
    });
    await a.call('DeleteTestMeasurement', { measurementId: m2.id });
    proxy.once({ kind: 'lose' }, isPost('/api/v1/test-reports:import'));
    const s = await a.sync();
    expect(s.error).toBeUndefined();
    expect(s.failedEntries).toBe(0);
    expect(proxy.forwarded(isPost('/api/v1/test-reports:import'))).toBe(1);
    const remoteDb = remote.engine.db;
    expect(remoteDb.get('SELECT description FROM test_steps WHERE step_path_text(path_key) = ?', [stepPath])).toEqual({
      description: 'edited before the push',
    });
    expect(remoteDb.all("SELECT name FROM test_measurements WHERE description = 'noted before the push'")).toEqual([{ name: m1.name }]);
    expect(count(remoteDb, 'test_measurements')).toBe(count(db, 'test_measurements'));
    expect(reportsOf(db)).toEqual(reportsOf(remoteDb));
    // Ids the UI still holds are translated.
    expect((await a.call('ListTestMeasurements', { filter: `measurement_id == '${m1.id}'` })).testMeasurements).toHaveLength(0);
    expect(db.get('SELECT remote_id FROM sync_id_map WHERE local_id = ?', [m1.id])).toEqual({
      remote_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
  });

  test('step and measurement edits and deletes travel both ways', async () => {
    await importSample(a);
    await a.sync();
    const db = remote.engine.db;
    const [id] = Object.keys(reportsOf(db));
    const steps = db.all<{ id: string; step_path: string }>(
      'SELECT id, step_path_text(path_key) AS step_path FROM test_steps WHERE test_report_id = ? ORDER BY path_key',
      [id],
    );
    const measured = db.all<{ id: string; test_step_id: string }>(
      'SELECT id, test_step_id FROM test_measurements WHERE test_report_id = ? ORDER BY pk',
      [id],
    );
    const leaf = steps.find(
      (x) => !steps.some((y) => y.step_path.startsWith(`${x.step_path}.`)) && !measured.some((m) => m.test_step_id === x.id),
    )!;

    // Remote: a step renamed, a measurement changed, a step added with a measurement.
    await remote.client.UpdateTestStep({ testStep: { testStepId: steps[0].id, name: 'renamed remotely' }, updateMask: 'name' });
    await remote.client.UpdateTestMeasurement({
      testMeasurement: { measurementId: measured[0].id, description: 'noted remotely', passed: false },
      updateMask: 'description,passed',
    });
    const added = (await remote.client.CreateTestStep(step(id, '99', 'added remotely'))).testStep;
    await remote.client.CreateTestMeasurement({ testMeasurement: measurement(added.testStepId, 'extra', 7) });
    // Local: a leaf step and another measurement deleted.
    await a.call('DeleteTestStep', { testStepId: leaf.id });
    await a.call('DeleteTestMeasurement', { measurementId: measured[1].id });
    expect((await a.sync()).error).toBeUndefined();

    expect(db.get('SELECT 1 FROM test_steps WHERE id = ?', [leaf.id])).toBeUndefined();
    expect(db.get('SELECT 1 FROM test_measurements WHERE id = ?', [measured[1].id])).toBeUndefined();
    expect(a.engine.db.get('SELECT name FROM test_steps WHERE id = ?', [steps[0].id])).toEqual({ name: 'renamed remotely' });
    expect(a.engine.db.get('SELECT description, passed FROM test_measurements WHERE id = ?', [measured[0].id])).toEqual({
      description: 'noted remotely',
      passed: 0,
    });
    expect(reportsOf(a.engine.db)).toEqual(reportsOf(db));
    expect(count(a.engine.db, 'test_measurements')).toBe(count(db, 'test_measurements'));
  });

  test('a measurement field changed on both sides is a logged conflict; fields changed on one side are kept', async () => {
    await importSample(a);
    await a.sync();
    const m = remote.engine.db.get<{ id: string }>('SELECT id FROM test_measurements WHERE value_field = 6 ORDER BY pk LIMIT 1')!;
    await a.call('UpdateTestMeasurement', {
      testMeasurement: { measurementId: m.id, numericValue: 1.25, description: 'local note' },
      updateMask: 'numericValue,description',
    });
    await remote.client.UpdateTestMeasurement({
      testMeasurement: { measurementId: m.id, numericValue: 2.5, passed: false },
      updateMask: 'numericValue,passed',
    });
    expect((await a.sync()).error).toBeUndefined();
    const row = (db: typeof a.engine.db) => db.get('SELECT numeric_value, description, passed FROM test_measurements WHERE id = ?', [m.id]);
    expect(row(remote.engine.db)).toEqual({ numeric_value: 2.5, description: 'local note', passed: 0 });
    expect(row(a.engine.db)).toEqual(row(remote.engine.db));
    expect(a.engine.db.all("SELECT resource, record_id, field, winner FROM sync_conflicts WHERE resource = 'test_measurement'")).toEqual([
      { resource: 'test_measurement', record_id: m.id, field: 'value', winner: 'remote' },
    ]);
  });

  test('edits of a report and of a step deleted on the remote meanwhile: the copies here stay, with conflicts the user sees, until the user dismisses them', async () => {
    await importSample(a);
    await a.sync();
    const db = remote.engine.db;
    const [reportId] = Object.keys(reportsOf(db));
    const [kept] = db.all<{ id: string }>('SELECT id FROM test_steps WHERE test_report_id = ? ORDER BY path_key LIMIT 1', [reportId]);
    // A second report whose step is edited here and deleted there.
    const other = (
      await remote.client.CreateTestReport({
        status: 'TEST_STATUS_PASSED',
        name: 'other run',
        testSystemName: 'rig-2',
        testCase: 'power',
        startTime: T0,
        endTime: T1,
      })
    ).testReport;
    const doomed = (await remote.client.CreateTestStep(step(other.testReportId, '1', 'to be deleted'))).testStep;
    const everySync = { reconcileEveryMs: 0 }; // the step deletion check runs at every sync
    await a.sync(everySync);
    await a.call('UpdateTestReport', { testReport: { testReportId: reportId, name: 'my run' }, updateMask: 'name' });
    await a.call('UpdateTestStep', {
      testStep: { testStepId: doomed.testStepId, description: 'checked twice' },
      updateMask: 'description',
    });
    await remote.client.DeleteTestReport({ testReportId: reportId });
    await remote.client.DeleteTestStep({ testStepId: doomed.testStepId });

    const s = await a.sync(everySync);
    expect(s.ok).toBe(true);
    expect(s.progress.failed).toBe(2);
    const conflicts = (await a.call('ListSyncConflicts', {})).conflicts.sort((x: any, y: any) => x.resource.localeCompare(y.resource));
    expect(conflicts.map((c: any) => [c.kind, c.resource, c.recordId])).toEqual([
      ['remote_missing', 'test_report', reportId],
      ['remote_missing', 'test_step', doomed.testStepId],
    ]);
    expect(conflicts[0].localValue).toMatchObject({ name: 'my run' });
    expect(conflicts[1].localValue).toMatchObject({ description: 'checked twice' });
    // Kept through later syncs, steps included, while the conflicts are open ...
    await a.sync(everySync);
    expect(a.engine.db.get('SELECT name FROM test_reports WHERE id = ?', [reportId])).toEqual({ name: 'my run' });
    expect(a.engine.db.get('SELECT 1 AS x FROM test_steps WHERE id = ?', [kept.id])).toEqual({ x: 1 });
    expect(a.engine.db.get('SELECT description FROM test_steps WHERE id = ?', [doomed.testStepId])).toEqual({
      description: 'checked twice',
    });
    // ... and gone, like on the remote, once dismissed.
    for (const c of conflicts) await a.call('DismissSyncConflict', { conflictId: c.conflictId });
    await a.sync(everySync);
    expect(reportsOf(a.engine.db)).toEqual(reportsOf(db));
    expect(count(a.engine.db, 'test_steps')).toBe(count(db, 'test_steps'));
  });

  test('a report made here whose create response was lost, left in flight when its retries ran out, is not taken in by the pull that follows: its lookup adopts it, never sent twice', async () => {
    const isCreate = isPost('/api/v1/test-reports');
    await a.call('CreateTestReport', {
      status: 'TEST_STATUS_PASSED',
      name: 'bench run',
      testSystemName: 'rig-7',
      testCase: 'power',
      startTime: T0,
      endTime: T1,
    });
    proxy.once({ kind: 'lose' }, isCreate);
    await a.sync(ONE_TRY);
    expect(Object.keys(reportsOf(a.engine.db))).toHaveLength(1); // the copy is not taken in as a second report
    const next = await a.sync();
    expect(next.ok).toBe(true);
    expect(next.pending).toBe(0);
    expect(proxy.forwarded(isCreate)).toBe(1);
    expect(Object.keys(reportsOf(remote.engine.db))).toHaveLength(1);
    expect(reportsOf(a.engine.db)).toEqual(reportsOf(remote.engine.db));
  });

  test('the same for a step made here under a report the remote has, and a measurement under a step it has', async () => {
    const report = (
      await remote.client.CreateTestReport({
        status: 'TEST_STATUS_PASSED',
        name: 'bench run',
        testSystemName: 'rig-7',
        testCase: 'power',
        startTime: T0,
        endTime: T1,
      })
    ).testReport;
    const known = (await remote.client.CreateTestStep(step(report.testReportId, '1', 'power up'))).testStep;
    await a.sync();
    const isStep = isPost('/api/v1/test-steps');
    const isMeasurement = isPost('/api/v1/test-measurements');
    await a.call('CreateTestStep', step(report.testReportId, '2', 'power down'));
    await a.call('CreateTestMeasurement', { testMeasurement: measurement(known.testStepId, 'rail 5V', 5.01) });
    proxy.random({ rate: 1, kinds: ['lose'], random: () => 0, allow: (_kind, r) => isStep(r) || isMeasurement(r) });
    await a.sync(ONE_TRY);
    proxy.random(undefined);
    expect(a.engine.db.all("SELECT operation, state FROM sync_outbox WHERE state != 'done' ORDER BY seq")).toEqual([
      { operation: 'CreateTestStep', state: 'inflight' },
      { operation: 'CreateTestMeasurement', state: 'inflight' },
    ]);
    const next = await a.sync();
    expect(next.ok).toBe(true);
    expect(next.pending).toBe(0);
    expect([proxy.forwarded(isStep), proxy.forwarded(isMeasurement)]).toEqual([1, 1]);
    expect([count(remote.engine.db, 'test_steps'), count(remote.engine.db, 'test_measurements')]).toEqual([2, 1]);
    expect(reportsOf(a.engine.db)).toEqual(reportsOf(remote.engine.db));
  });
});
