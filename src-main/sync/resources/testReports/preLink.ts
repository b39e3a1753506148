// Test reports made before the first link go to the remote organization as
// ordinary offline creates (sync/operations/preLink.ts): CreateTestReport, its
// steps (parents first, as they were made) and its measurements
// (CreateTestMeasurements), then its archive; the local original goes with
// them. A report's run is matched by name in that organization; one without a
// single namesake stays here, with the reason.
import type { TestReport } from '../../../../src-shared/api/testReports';
import { measurementsToWire, stepsToWire, type TestMeasurementRow, type TestStepRow } from '../../../services/testReports/testReportRows';
import { getTestReport } from '../../../services/testReports/testReportsService';
import { adoptedPreLink } from '../../preLinkCount';
import type { Adoption } from '../../resource';
import { TEST_REPORT } from './shapes';

const BATCH = 1000;

function runFor(a: Adoption, localRunId: string): { value: string } | { reason: string } {
  const name = a.ctx.db.get<{ name: string }>('SELECT name FROM runs WHERE id = ?', [localRunId])?.name;
  if (name === undefined) return { reason: `its run ${localRunId} is not held here` };
  const found = a.ctx.db.all<{ id: string }>('SELECT id FROM runs WHERE organization_id = ? AND name = ?', [a.organizationId, name]);
  if (found.length !== 1)
    return { reason: `its run '${name}' has ${found.length ? 'several namesakes' : 'no namesake'} in the remote organization` };
  return { value: found[0].id };
}

function adoptOne(a: Adoption, id: string): boolean {
  const db = a.ctx.db;
  const { testReport: r } = getTestReport(a.localCtx, id);
  const run = r.runId ? runFor(a, r.runId) : undefined;
  if (run && 'reason' in run) {
    a.leave({ resource: TEST_REPORT, recordId: id, name: r.name, reason: run.reason });
    return false;
  }
  return a.attempt({ resource: TEST_REPORT, recordId: id, name: r.name }, () => {
    const { testReport: copy } = a.write('CreateTestReport', {
      status: r.status,
      name: r.name,
      testSystemName: r.testSystemName,
      testCase: r.testCase,
      startTime: r.startTime,
      endTime: r.endTime,
      metadata: r.metadata,
      serialNumber: r.serialNumber || undefined,
      partNumber: r.partNumber || undefined,
      systemOperator: r.systemOperator || undefined,
      runId: run?.value,
      organizationId: a.organizationId,
    }) as { testReport: TestReport };
    const stepIds = new Map<string, string>();
    for (const s of stepsToWire(db, db.all<TestStepRow>('SELECT * FROM test_steps WHERE test_report_id = ? ORDER BY pk', [id]))) {
      const { testStepId, testReportId: _r, parentStepId, ...rest } = s;
      const made = a.write('CreateTestStep', {
        testStep: { ...rest, testReportId: copy.testReportId, parentStepId: parentStepId ? stepIds.get(parentStepId) : undefined },
      }) as {
        testStep: { testStepId: string };
      };
      stepIds.set(testStepId, made.testStep.testStepId);
    }
    const measurements = measurementsToWire(
      db,
      db.all<TestMeasurementRow>('SELECT * FROM test_measurements WHERE test_report_id = ? ORDER BY pk', [id]),
    ).map(({ measurementId: _m, testReportId: _r, testStepId, ...rest }) => ({
      ...rest,
      testReportId: copy.testReportId,
      testStepId: stepIds.get(testStepId),
    }));
    for (let i = 0; i < measurements.length; i += BATCH)
      a.write('CreateTestMeasurements', { testMeasurements: measurements.slice(i, i + BATCH) });
    if (r.isArchived)
      a.write('UpdateTestReport', { testReport: { testReportId: copy.testReportId, isArchived: true }, updateMask: 'is_archived' });
    a.deleteHeld([{ resource: TEST_REPORT, id }]);
  });
}

export const preLinkTestReports = adoptedPreLink(TEST_REPORT, 'test reports', 'test_reports', adoptOne);
