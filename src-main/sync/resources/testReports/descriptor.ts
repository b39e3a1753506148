// Test reports, their steps and measurements as a replicated resource (see
// NOTES.md here).
import type { ReplicatedResource } from '../../resource';
import {
  renameTestReportSourceFile,
  testMeasurementRows,
  testReportRows,
  testStepRows,
} from '../../../services/testReports/testReportStore';
import { REMOTE_FILE } from '../remoteFiles/ids';
import { snapshotOf, undoOf } from '../../recordShape';
import { TEST_MEASUREMENT, TEST_MEASUREMENT_SHAPE, TEST_REPORT, TEST_REPORT_SHAPE, TEST_STEP, TEST_STEP_SHAPE } from './shapes';
import { testReportDeletionPullers } from './deletionPullers';
import { testMeasurementSpecs } from './measurementSpecs';
import { testReportPullers } from './pullers';
import { testReportSpecs } from './specs';
import { testStepSpecs } from './stepSpecs';
import { preLinkTestReports } from './preLink';

export const testReports: ReplicatedResource = {
  name: 'test_reports',
  records: [
    {
      resource: TEST_REPORT,
      rows: testReportRows,
      merge: { snapshot: snapshotOf(TEST_REPORT_SHAPE), undo: undoOf(TEST_REPORT_SHAPE) },
      references: [{ to: REMOTE_FILE, column: 'test_reports.source_remote_file_id', rewrite: renameTestReportSourceFile }],
    },
    {
      resource: TEST_STEP,
      rows: testStepRows,
      merge: { snapshot: snapshotOf(TEST_STEP_SHAPE), undo: undoOf(TEST_STEP_SHAPE) },
    },
    {
      resource: TEST_MEASUREMENT,
      rows: testMeasurementRows,
      merge: { snapshot: snapshotOf(TEST_MEASUREMENT_SHAPE), undo: undoOf(TEST_MEASUREMENT_SHAPE) },
    },
  ],
  specs: [...testReportSpecs, ...testStepSpecs, ...testMeasurementSpecs],
  pullers: [...testReportPullers, ...testReportDeletionPullers],
  preLink: [preLinkTestReports],
};
