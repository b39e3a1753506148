// Test reports replicate both ways: an offline ATML import (upload then
// import) reaches the remote exactly once, with every step and measurement,
// also through lost responses and a crash between upload and import; edits,
// archives and deletes travel both ways; a field changed on both sides is a
// logged conflict.
import { rmSync, statSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { type FaultProxy, type Matcher } from './faultProxy';
import { contentFilePath } from '../../src-main/services/remoteFiles/contentStore';
import { closeProxiedPair, createReplica, openProxiedPair, type RemoteServer, type Replica } from './helpers';
import { count, importSample, reportsOf, SAMPLE } from './testReportHelpers';

let remote: RemoteServer;
let proxy: FaultProxy;
let a: Replica;

beforeEach(async () => ({ remote, proxy, a } = await openProxiedPair()));
afterEach(() => closeProxiedPair({ remote, proxy, a }));

const isUpload: Matcher = (r) => r.method === 'POST' && r.path.startsWith('/api/v0/remote-files/upload');
const isImport: Matcher = (r) => r.method === 'POST' && r.path.startsWith('/api/v1/test-reports:import');

describe('sync: test reports', () => {
  test('an offline import reaches the remote once, with every step and measurement; a second replica pulls it', async () => {
    const local = await importSample(a);
    const before = reportsOf(a.engine.db)[local.reportId];
    expect(before.steps.length).toBeGreaterThan(5);
    expect(before.measurements.length).toBeGreaterThan(5);

    const s = await a.sync();
    expect(s.error).toBeUndefined();
    expect(s.failedEntries).toBe(0);
    expect(s.pending).toBe(0);
    const remoteReports = reportsOf(remote.engine.db);
    expect(Object.keys(remoteReports)).toHaveLength(1);
    const [remoteId] = Object.keys(remoteReports);
    expect(remoteId).not.toBe(local.reportId);
    expect(remoteReports[remoteId].steps).toHaveLength(before.steps.length);
    expect(remoteReports[remoteId].measurements).toHaveLength(before.measurements.length);
    // The local report, its steps and measurements took the remote ids and values.
    expect(reportsOf(a.engine.db)).toEqual(remoteReports);
    expect(remote.engine.db.all('SELECT entity_id, file_name, file_size FROM remote_files')).toEqual([
      { entity_id: local.entityId, file_name: 'demo_test_report.xml', file_size: statSync(SAMPLE).size },
    ]);
    // An id the UI still holds is translated.
    expect((await a.call('GetTestReport', { testReportId: local.reportId })).testReport.testReportId).toBe(remoteId);

    const again = await a.sync();
    expect(again.progress.pushed).toBe(0);
    expect(reportsOf(remote.engine.db)).toEqual(remoteReports);

    const b = await createReplica('b', remote.url, remote.token);
    try {
      expect((await b.sync()).error).toBeUndefined();
      expect(reportsOf(b.engine.db)).toEqual(remoteReports);
    } finally {
      b.close();
    }
  });

  test('updates, archives and deletes travel both ways', async () => {
    const b = await createReplica('b', remote.url, remote.token);
    try {
      const { reportId } = await importSample(a);
      await a.sync();
      await b.sync();
      const [id] = Object.keys(reportsOf(remote.engine.db));
      expect(id).not.toBe(reportId);
      expect(Object.keys(reportsOf(b.engine.db))).toEqual([id]);

      // Replica a renames and archives (through its stale local id); b sees both.
      await a.call('UpdateTestReport', {
        testReport: { testReportId: reportId, name: 'renamed on a', serialNumber: 'SN-A' },
        updateMask: 'name,serialNumber',
      });
      await a.call('UpdateTestReport', { testReport: { testReportId: id, isArchived: true }, updateMask: 'isArchived' });
      expect((await a.sync()).error).toBeUndefined();
      expect(reportsOf(remote.engine.db)[id]).toMatchObject({ name: 'renamed on a', serial: 'SN-A', archived: 1 });
      await b.sync();
      expect(reportsOf(b.engine.db)).toEqual(reportsOf(remote.engine.db));

      // The remote unarchives and renames; a takes it.
      await remote.client.UpdateTestReport({
        testReport: { testReportId: id, name: 'renamed remotely', isArchived: false },
        updateMask: 'name,isArchived',
      });
      await a.sync();
      expect(reportsOf(a.engine.db)[id]).toMatchObject({ name: 'renamed remotely', serial: 'SN-A', archived: 0 });

      // b deletes: the remote and then a lose the report with its steps and measurements.
      await b.call('DeleteTestReport', { testReportId: id });
      expect((await b.sync()).error).toBeUndefined();
      expect(count(remote.engine.db, 'test_reports')).toBe(0);
      await a.sync();
      expect(count(a.engine.db, 'test_reports')).toBe(0);
      expect(count(a.engine.db, 'test_steps')).toBe(0);
      expect(count(a.engine.db, 'test_measurements')).toBe(0);

      // A report made remotely arrives; deleted remotely, it goes (hard delete upstream).
      const file = await remote.api('POST', '/api/v1/test-reports', {
        status: 'TEST_STATUS_PASSED',
        name: 'remote report',
        testSystemName: 'rig',
        testCase: 'case',
        startTime: '2026-09-01T00:00:00Z',
        endTime: '2026-09-01T00:01:00Z',
      });
      expect(file.status).toBe(200);
      const remoteMade = file.body.testReport.testReportId as string;
      const step = await remote.client.CreateTestStep({
        testStep: {
          testReportId: remoteMade,
          name: 'step',
          stepType: 'TEST_STEP_TYPE_ACTION',
          stepPath: '1',
          status: 'TEST_STATUS_PASSED',
          startTime: '2026-09-01T00:00:00Z',
          endTime: '2026-09-01T00:00:01Z',
        },
      });
      await remote.client.CreateTestMeasurement({
        testMeasurement: {
          testStepId: step.testStep.testStepId,
          testReportId: remoteMade,
          name: 'voltage',
          measurementType: 'TEST_MEASUREMENT_TYPE_DOUBLE',
          numericValue: 4.5,
          passed: true,
          timestamp: '2026-09-01T00:00:00.5Z',
        },
      });
      await a.sync();
      expect(reportsOf(a.engine.db)).toEqual(reportsOf(remote.engine.db));
      expect(reportsOf(a.engine.db)[remoteMade].measurements).toHaveLength(1);
      await remote.client.DeleteTestReport({ testReportId: remoteMade });
      await a.sync();
      expect(count(a.engine.db, 'test_reports')).toBe(0);
      expect(count(a.engine.db, 'test_measurements')).toBe(0);
    } finally {
      b.close();
    }
  });

  test('a field changed on both sides is a logged conflict; a field changed on one side is kept', async () => {
    await importSample(a);
    await a.sync();
    const [id] = Object.keys(reportsOf(remote.engine.db));
    await a.call('UpdateTestReport', {
      testReport: { testReportId: id, name: 'local name', partNumber: 'PN-LOCAL' },
      updateMask: 'name,partNumber',
    });
    await remote.client.UpdateTestReport({ testReport: { testReportId: id, name: 'remote name' }, updateMask: 'name' });
    const s = await a.sync();
    expect(s.error).toBeUndefined();
    const remoteRow = remote.engine.db.get<{ name: string; part_number: string }>(
      'SELECT name, part_number FROM test_reports WHERE id = ?',
      [id],
    )!;
    const localRow = a.engine.db.get<{ name: string; part_number: string }>('SELECT name, part_number FROM test_reports WHERE id = ?', [
      id,
    ])!;
    // The remote change cannot be dated (the wire report has no modified_date): it wins, the local value is logged.
    expect(remoteRow).toEqual({ name: 'remote name', part_number: 'PN-LOCAL' });
    expect(localRow).toEqual(remoteRow);
    const conflicts = a.engine.db.all<{ resource: string; record_id: string; field: string; winner: string }>(
      "SELECT resource, record_id, field, winner FROM sync_conflicts WHERE resource = 'test_report'",
    );
    expect(conflicts).toEqual([{ resource: 'test_report', record_id: id, field: 'name', winner: 'remote' }]);
  });

  test('lost responses of the upload and the import make no duplicate', async () => {
    const { entityId } = await importSample(a);
    const local = reportsOf(a.engine.db);
    proxy.once({ kind: 'lose' }, isUpload);
    proxy.once({ kind: 'lose' }, isImport);
    const s = await a.sync();
    expect(s.error).toBeUndefined();
    expect(s.progress.recovered).toBe(2);
    expect(proxy.forwarded(isUpload)).toBe(1);
    expect(proxy.forwarded(isImport)).toBe(1);
    expect(remote.engine.db.all('SELECT entity_id FROM remote_files')).toEqual([{ entity_id: entityId }]);
    const remoteReports = reportsOf(remote.engine.db);
    expect(Object.keys(remoteReports)).toHaveLength(1);
    expect(Object.values(remoteReports)[0].measurements).toHaveLength(Object.values(local)[0].measurements.length);
    expect(reportsOf(a.engine.db)).toEqual(remoteReports);
  });

  test('a crash after the upload, and one after the import, resume without duplicates', async () => {
    await importSample(a);
    // The upload commits remotely, its response is lost, and the run ends there (the entry stays in flight) ...
    proxy.once({ kind: 'lose' }, isUpload);
    const first = await a.sync({ retry: { baseDelayMs: 5, maxDelayMs: 5, maxAttempts: 1 } });
    expect(first.pending).toBe(2);
    expect(a.engine.db.all("SELECT operation, state FROM sync_outbox WHERE state IN ('pending', 'inflight') ORDER BY seq")).toEqual([
      { operation: 'UploadRemoteFile', state: 'inflight' },
      { operation: 'ImportTestReport', state: 'pending' },
    ]);
    expect(count(remote.engine.db, 'remote_files')).toBe(1);
    a.reopen();
    // ... then the import commits remotely, its response is lost, and the run ends again ...
    proxy.once({ kind: 'lose' }, isImport);
    const second = await a.sync({ retry: { baseDelayMs: 5, maxDelayMs: 5, maxAttempts: 1 } });
    expect(second.pending).toBe(1);
    expect(a.engine.db.all("SELECT operation, state FROM sync_outbox WHERE state IN ('pending', 'inflight')")).toEqual([
      { operation: 'ImportTestReport', state: 'inflight' },
    ]);
    expect(count(remote.engine.db, 'test_reports')).toBe(1);
    // (the pull left the remote report for the import's lookup rather than taking it in as a second local report)
    expect(count(a.engine.db, 'test_reports')).toBe(1);
    a.reopen();
    // ... and the next run finds both instead of sending them again.
    const third = await a.sync();
    expect(third.error).toBeUndefined();
    expect(third.pending).toBe(0);
    expect(proxy.forwarded(isUpload)).toBe(1);
    expect(proxy.forwarded(isImport)).toBe(1);
    expect(count(remote.engine.db, 'remote_files')).toBe(1);
    expect(count(remote.engine.db, 'test_reports')).toBe(1);
    expect(reportsOf(a.engine.db)).toEqual(reportsOf(remote.engine.db));
  });

  test('a remote without a filter engine: lost responses are still resolved by scans, and changes still arrive', async () => {
    const { entityId } = await importSample(a);
    await a.sync(); // the first pull sets the step and measurement watermarks
    await importSample(a);
    proxy.rejectFilters(true);
    proxy.once({ kind: 'lose' }, isUpload);
    proxy.once({ kind: 'lose' }, isImport);
    const s = await a.sync();
    expect(s.error).toBeUndefined();
    expect(s.progress.recovered).toBe(2);
    expect(proxy.forwarded(isImport)).toBe(2);
    expect(count(remote.engine.db, 'remote_files')).toBe(2);
    expect(remote.engine.db.all('SELECT entity_id FROM remote_files WHERE entity_id = ?', [entityId])).toHaveLength(1);
    expect(Object.keys(reportsOf(remote.engine.db))).toHaveLength(2);
    expect(reportsOf(a.engine.db)).toEqual(reportsOf(remote.engine.db));
    // A step renamed remotely arrives although the modified_date filter is refused.
    const stepId = remote.engine.db.get<{ id: string }>('SELECT id FROM test_steps ORDER BY pk LIMIT 1')!.id;
    await remote.client.UpdateTestStep({ testStep: { testStepId: stepId, name: 'renamed remotely' }, updateMask: 'name' });
    expect((await a.sync()).error).toBeUndefined();
    expect(a.engine.db.get('SELECT name FROM test_steps WHERE id = ?', [stepId])).toEqual({ name: 'renamed remotely' });
  });

  test('an upload whose stored file vanished before the push fails visibly, and its import with it', async () => {
    const { remoteFileId } = await importSample(a);
    // DeleteRemoteFile is refused on a replica (no push spec): the file goes from disk, as a damaged data directory would lose it.
    const row = a.engine.db.get<{ content_path: string }>('SELECT content_path FROM remote_files WHERE id = ?', [remoteFileId])!;
    rmSync(contentFilePath(a.dir, row.content_path));
    const s = await a.sync();
    expect(s.failedEntries).toBe(2);
    expect(a.engine.db.all("SELECT operation FROM sync_outbox WHERE state = 'failed' ORDER BY seq")).toEqual([
      { operation: 'UploadRemoteFile' },
      { operation: 'ImportTestReport' },
    ]);
    expect(count(remote.engine.db, 'remote_files')).toBe(0);
    expect(count(remote.engine.db, 'test_reports')).toBe(0);
  });
});
