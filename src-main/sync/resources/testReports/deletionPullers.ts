// Test steps and measurements deleted on the remote on their own
// (DeleteTestStep, DeleteTestMeasurement: the report stays) leave no trace the
// incremental pulls could see, so they are reconciled by a periodic full
// listing (deletions.ts); deleted reports are the full report pull's work.
//
// Still on their way, so kept although the remote does not list them:
// - records made here whose create has not reached the remote (their id is an
//   unmapped local id: CreateTestStep, CreateTestMeasurement(s), and every
//   step and measurement of an offline import, mapped only when the
//   ImportTestReport entry is done; a failed create stays for a retry too);
// - records with open entries (edits; for a step, also measurement creates
//   under it, which target it), whose outcome reports a 404 as a conflict;
// - everything of a report that is local-only or has an open entry (an import
//   in flight, a step created under it, ...): its children are settled once
//   that entry is done;
// - records kept here after an edit found them deleted on the remote (an open
//   remote_missing conflict, until the user dismisses it), and everything of
//   a report kept so;
// - a step with a measurement or a child step that stays (deleting the step
//   would take its measurements along: FK cascade).
// The lists are ordered by id: immutable, so no record moves between pages
// while the listing runs (the default orders, step_path and timestamp, are
// editable) and every record the remote keeps is seen. A remote refusing that
// order gets no check (deletions.ts).
import type { TestMeasurement, TestStep } from '../../../../src-shared/api/testReports';
import type { Db } from '../../../db/database';
import { testMeasurementRows, testStepRows } from '../../../services/testReports/testReportStore';
import { remoteDeletionStays } from '../../conflicts';
import { TEST_MEASUREMENT, TEST_REPORT, TEST_STEP } from './shapes';
import { deletionReconciler, type LocalRecord } from '../../deletions';

/** Whether a record stays although the remote no longer lists it, as for itself (its report is asked separately). */
type Stays = (resource: string, id: string) => boolean;

function measurementStays(db: Db, stays: Stays, pk: number): boolean {
  const m = db.get<{ id: string; test_report_id: string }>('SELECT id, test_report_id FROM test_measurements WHERE pk = ?', [pk]);
  return !!m && (stays(TEST_MEASUREMENT, m.id) || stays(TEST_REPORT, m.test_report_id));
}

function stepStays(db: Db, stays: Stays, pk: number): boolean {
  const s = db.get<{ id: string; test_report_id: string; report_pk: number }>(
    'SELECT id, test_report_id, report_pk FROM test_steps WHERE pk = ?',
    [pk],
  );
  if (!s) return false;
  if (stays(TEST_STEP, s.id) || stays(TEST_REPORT, s.test_report_id)) return true;
  const measurements = db.all<{ pk: number }>('SELECT pk FROM test_measurements WHERE step_pk = ?', [pk]);
  if (measurements.some((m) => measurementStays(db, stays, m.pk))) return true;
  const children = db.all<{ pk: number }>('SELECT pk FROM test_steps WHERE report_pk = ? AND parent_step_id = ?', [s.report_pk, s.id]);
  return children.some((c) => stepStays(db, stays, c.pk));
}

/** Before the measurements: a step removed takes its measurements along (the remote deleted them with it). */
export const testStepDeletionsPuller = deletionReconciler<TestStep>({
  resource: 'test_steps:deletions',
  operation: 'ListTestSteps',
  listField: 'testSteps',
  orderBy: 'test_step_id',
  idOf: (s) => s.testStepId,
  rows: testStepRows,
  createdResource: TEST_STEP,
  stays: (db) => {
    const stays = remoteDeletionStays(db);
    return (r: LocalRecord) => stepStays(db, stays, r.pk);
  },
});

export const testMeasurementDeletionsPuller = deletionReconciler<TestMeasurement>({
  resource: 'test_measurements:deletions',
  operation: 'ListTestMeasurements',
  listField: 'testMeasurements',
  orderBy: 'measurement_id',
  idOf: (m) => m.measurementId,
  rows: testMeasurementRows,
  createdResource: TEST_MEASUREMENT,
  stays: (db) => {
    const stays = remoteDeletionStays(db);
    return (r: LocalRecord) => measurementStays(db, stays, r.pk);
  },
});

/** In pull order, after the test report pullers. */
export const testReportDeletionPullers = [testStepDeletionsPuller, testMeasurementDeletionsPuller] as const;
