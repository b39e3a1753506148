// Test reports, their steps and measurements as a replicated resource (see
// NOTES.md here).
import { formatTimestamp } from '../../../../src-shared/api/time';
import type { ReplicatedResource, UndoWrite } from '../../resource';
import {
  renameTestReportSourceFile,
  testMeasurementRows,
  testReportRows,
  testStepRows,
} from '../../../services/testReports/testReportStore';
import { REMOTE_FILE } from '../remoteFiles/ids';
import { snapshotTestReport, TEST_REPORT, TEST_REPORT_FIELDS } from './apply';
import { snapshotTestMeasurement, snapshotTestStep, TEST_MEASUREMENT, TEST_STEP } from './children';
import { testReportDeletionPullers } from './deletionPullers';
import { testMeasurementSpecs } from './measurementSpecs';
import { testReportPullers } from './pullers';
import { testReportSpecs } from './specs';
import { testStepSpecs } from './stepSpecs';
import { preLinkTestReports } from './preLink';

const camel = (snake: string) => snake.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
const TIMES = new Set(['start_time', 'end_time']);
const TEXT: ReadonlySet<string> = new Set(TEST_REPORT_FIELDS.filter((f) => !TIMES.has(f)));

/** A report's losing field written again through UpdateTestReport. */
function undoReportField(testReportId: string, field: string, value: unknown): UndoWrite | undefined {
  if (TIMES.has(field))
    return {
      operation: 'UpdateTestReport',
      request: { testReport: { testReportId, [camel(field)]: formatTimestamp(value as number) }, updateMask: field },
    };
  if (TEXT.has(field))
    return { operation: 'UpdateTestReport', request: { testReport: { testReportId, [camel(field)]: value }, updateMask: field } };
  return undefined;
}

/** Steps and measurements have no automatic undo. */
const noUndo = () => undefined;

export const testReports: ReplicatedResource = {
  name: 'test_reports',
  records: [
    {
      resource: TEST_REPORT,
      rows: testReportRows,
      nameColumn: 'name',
      merge: { snapshot: snapshotTestReport, undo: undoReportField },
      references: [{ to: REMOTE_FILE, column: 'test_reports.source_remote_file_id', rewrite: renameTestReportSourceFile }],
    },
    { resource: TEST_STEP, rows: testStepRows, nameColumn: 'name', merge: { snapshot: snapshotTestStep, undo: noUndo } },
    {
      resource: TEST_MEASUREMENT,
      rows: testMeasurementRows,
      nameColumn: 'name',
      merge: { snapshot: snapshotTestMeasurement, undo: noUndo },
    },
  ],
  specs: [...testReportSpecs, ...testStepSpecs, ...testMeasurementSpecs],
  pullers: [...testReportPullers, ...testReportDeletionPullers],
  preLink: [preLinkTestReports],
};
