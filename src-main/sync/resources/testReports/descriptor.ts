// Test reports, their steps and measurements as a replicated resource (see
// NOTES.md here).
import { formatTimestamp } from '../../../../src-shared/api/time';
import { snakeToCamel } from '../../../../src-shared/api/wire';
import type { ReplicatedResource, UndoWrite } from '../../resource';
import {
  renameTestReportSourceFile,
  testMeasurementRows,
  testReportRows,
  testStepRows,
} from '../../../services/testReports/testReportStore';
import { REMOTE_FILE } from '../remoteFiles/ids';
import { snapshotOf } from '../../recordShape';
import { TEST_MEASUREMENT, TEST_MEASUREMENT_SHAPE, TEST_REPORT, TEST_REPORT_SHAPE, TEST_STEP, TEST_STEP_SHAPE } from './shapes';
import { testReportDeletionPullers } from './deletionPullers';
import { testMeasurementSpecs } from './measurementSpecs';
import { testReportPullers } from './pullers';
import { testReportSpecs } from './specs';
import { testStepSpecs } from './stepSpecs';
import { preLinkTestReports } from './preLink';

const TIMES = new Set(['start_time', 'end_time']);

/** A report's losing field written again through UpdateTestReport. */
function undoReportField(testReportId: string, field: string, value: unknown): UndoWrite | undefined {
  if (!(field in TEST_REPORT_SHAPE.fields)) return undefined;
  const wire = TIMES.has(field) ? formatTimestamp(value as number) : value;
  return { operation: 'UpdateTestReport', request: { testReport: { testReportId, [snakeToCamel(field)]: wire }, updateMask: field } };
}

/** Steps and measurements have no automatic undo. */
const noUndo = () => undefined;

export const testReports: ReplicatedResource = {
  name: 'test_reports',
  records: [
    {
      resource: TEST_REPORT,
      rows: testReportRows,
      merge: { snapshot: snapshotOf(TEST_REPORT_SHAPE), undo: undoReportField },
      references: [{ to: REMOTE_FILE, column: 'test_reports.source_remote_file_id', rewrite: renameTestReportSourceFile }],
    },
    { resource: TEST_STEP, rows: testStepRows, merge: { snapshot: snapshotOf(TEST_STEP_SHAPE), undo: noUndo } },
    {
      resource: TEST_MEASUREMENT,
      rows: testMeasurementRows,
      merge: { snapshot: snapshotOf(TEST_MEASUREMENT_SHAPE), undo: noUndo },
    },
  ],
  specs: [...testReportSpecs, ...testStepSpecs, ...testMeasurementSpecs],
  pullers: [...testReportPullers, ...testReportDeletionPullers],
  preLink: [preLinkTestReports],
};
