// Steps and measurements of test reports: remote versions applied by id
// (inserted, overwritten, or merged per field against the base when the
// record has pending local edits, like reports), the adoption of what a pushed
// import created remotely, and id rewriting for offline-created ones.
//
// Adoption: the remote parses the same file, so its steps and measurements are
// those of the local import with new ids. They are matched by position in
// document order (the import's created ids locally, the remote's creation
// order there), checked by step_path and name (steps) and name (measurements)
// as imported. Matched local ids are rewritten to the remote ids (rows, parent
// references, outbox targets and requests of edits made before the push, id
// map so a UI holding an old id is translated); then the remote values are
// applied over them (merged where edits are pending). If the structures differ
// (another parser version), the local children are replaced by the remote
// ones instead, and edits of the replaced ones fail visibly.
import type { TestMeasurement, TestStep } from '../../../../src-shared/api/testReports';
import type { Db } from '../../../db/database';
import {
  deleteReportSteps,
  testMeasurementRows,
  renameTestStep,
  upsertRemoteTestMeasurement,
  upsertRemoteTestStep,
} from '../../../services/testReports/testReportStore';
import type { ApplyContext } from '../../apply';
import { collectIds, replaceIds } from '../../idMap';
import { baseFields, forgetBase } from '../../merge';
import { hasPending } from '../../outbox';
import { mergeRecord, rowOf, snapshotOf, writeChildRows, type RecordShape } from '../../recordShape';
import type { CreatedRef } from '../../types';
import { TEST_MEASUREMENT, TEST_MEASUREMENT_SHAPE, TEST_REPORT, TEST_STEP, TEST_STEP_SHAPE } from './shapes';
import { observedNow } from './apply';

const reportOf = (db: Db, id: string) =>
  db.get<{ pk: number; organization_id: string; created_by_user_id: string }>(
    'SELECT pk, organization_id, created_by_user_id FROM test_reports WHERE id = ?',
    [id],
  );

/**
 * Remote steps or measurements -> local: new ones inserted by `insert` (when their parent is here and the record was
 * not deleted here; it returns undefined when the parent is not, else whether the row changed), others overwritten,
 * or merged field by field when they have pending local edits. Returns how many were inserted or changed (one
 * already here as the remote has it counts 0).
 */
function upsertChildren<W>(
  ctx: ApplyContext,
  shape: RecordShape<W>,
  list: readonly W[],
  idOf: (record: W) => string,
  insert: (db: Db, record: W, now: number) => boolean | undefined,
): number {
  const { db } = ctx;
  const now = observedNow(ctx.clockOffset);
  let written = 0;
  for (const w of list) {
    const id = idOf(w);
    const existing = db.get<{ pk: number }>(`SELECT pk FROM ${shape.table} WHERE id = ?`, [id]);
    const pending = hasPending(db, shape.kind, id, ctx.excludeSeq);
    if (existing && pending) {
      if (mergeRecord(ctx, shape, { pk: existing.pk, id }, w, now)) written++;
      continue;
    }
    if (pending) continue;
    const row = insert(db, w, now);
    if (row === undefined) continue;
    const { pk } = db.get<{ pk: number }>(`SELECT pk FROM ${shape.table} WHERE id = ?`, [id])!;
    if (writeChildRows(shape, db, pk, w) || row) written++;
    forgetBase(db, shape.kind, id);
  }
  return written;
}

function insertStep(db: Db, s: TestStep, now: number): boolean | undefined {
  const report = reportOf(db, s.testReportId);
  if (!report) return undefined;
  return upsertRemoteTestStep(db, {
    id: s.testStepId,
    report_pk: report.pk,
    test_report_id: s.testReportId,
    organization_id: report.organization_id,
    parent_step_id: s.parentStepId ?? '',
    ...rowOf(TEST_STEP_SHAPE, s),
    created_by_user_id: report.created_by_user_id,
    modified_by_user_id: report.created_by_user_id,
    created_date: now,
    modified_date: now,
  });
}

function insertMeasurement(db: Db, m: TestMeasurement, now: number): boolean | undefined {
  const step = db.get<{ pk: number; report_pk: number; organization_id: string; created_by_user_id: string }>(
    'SELECT pk, report_pk, organization_id, created_by_user_id FROM test_steps WHERE id = ?',
    [m.testStepId],
  );
  if (!step) return undefined;
  return upsertRemoteTestMeasurement(db, {
    id: m.measurementId,
    report_pk: step.report_pk,
    step_pk: step.pk,
    test_report_id: m.testReportId,
    test_step_id: m.testStepId,
    organization_id: step.organization_id,
    ...rowOf(TEST_MEASUREMENT_SHAPE, m),
    created_by_user_id: step.created_by_user_id,
    modified_by_user_id: step.created_by_user_id,
    created_date: now,
    modified_date: now,
  });
}

/** Remote steps -> local (upsertChildren; a new one needs its report here). */
export const upsertSteps = (ctx: ApplyContext, steps: readonly TestStep[]) =>
  upsertChildren(ctx, TEST_STEP_SHAPE, steps, (s) => s.testStepId, insertStep);

/** Remote measurements -> local (upsertChildren; a new one needs its step here). */
export const upsertMeasurements = (ctx: ApplyContext, list: readonly TestMeasurement[]) =>
  upsertChildren(ctx, TEST_MEASUREMENT_SHAPE, list, (m) => m.measurementId, insertMeasurement);

/** What a record looked like when the import created it (its create-time base), else now. */
function createdValues<W>(db: Db, shape: RecordShape<W>, id: string): Record<string, unknown> | undefined {
  return baseFields(db, shape.kind, id) ?? snapshotOf(shape)(db, id)?.fields;
}

/**
 * local id -> remote id for the steps and measurements an import created, or null when the structures
 * differ. `created` holds the local ids in document order (as the import wrote them), the remote lists are
 * in creation order (= document order on a remote that imported the same file). Records deleted here since
 * are matched too (their pending deletes then reach the remote ones); the others must agree in step_path
 * and name as they were imported (later local edits do not count).
 */
function matchChildren(
  db: Db,
  created: readonly CreatedRef[],
  steps: readonly TestStep[],
  measurements: readonly TestMeasurement[],
): Map<string, string> | null {
  const localSteps = created.filter((c) => c.resource === TEST_STEP);
  const localMeasurements = created.filter((c) => c.resource === TEST_MEASUREMENT);
  if (localSteps.length !== steps.length || localMeasurements.length !== measurements.length) return null;
  const map = new Map<string, string>();
  const agree = <W>(shape: RecordShape<W>, id: string, check: (v: Record<string, unknown>) => boolean) => {
    const values = createdValues(db, shape, id);
    return values === undefined || check(values);
  };
  for (let i = 0; i < steps.length; i++) {
    const r = steps[i];
    if (!agree(TEST_STEP_SHAPE, localSteps[i].id, (v) => v.step_path === r.stepPath && v.name === r.name)) return null;
    map.set(localSteps[i].id, r.testStepId);
  }
  for (let i = 0; i < measurements.length; i++) {
    const r = measurements[i];
    if (!agree(TEST_MEASUREMENT_SHAPE, localMeasurements[i].id, (v) => v.name === r.name)) return null;
    map.set(localMeasurements[i].id, r.measurementId);
  }
  return map;
}

/**
 * After a pushed import: the local report (already mapped to `remoteReportId`) takes the remote's steps and
 * measurements, keeping local ids reachable through the id map. `seq` is the import's outbox entry.
 */
export function adoptImportedChildren(
  ctx: ApplyContext,
  seq: number,
  created: readonly CreatedRef[],
  remoteReportId: string,
  steps: readonly TestStep[],
  measurements: readonly TestMeasurement[],
  now: number,
): void {
  const { db } = ctx;
  const report = reportOf(db, remoteReportId);
  if (!report) return;
  const map = matchChildren(db, created, steps, measurements);
  if (map) {
    const stepIds = new Set(created.filter((c) => c.resource === TEST_STEP).map((c) => c.id));
    for (const [localId, remoteId] of map) {
      if (localId === remoteId) continue;
      const isStep = stepIds.has(localId);
      if (isStep) renameTestStep(db, localId, remoteId, report.pk);
      else testMeasurementRows.rename(db, localId, remoteId);
      db.run(
        `INSERT INTO sync_id_map(local_id, resource, remote_id, created_by_seq, mapped_date) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(local_id) DO UPDATE SET remote_id = excluded.remote_id, mapped_date = excluded.mapped_date`,
        [localId, isStep ? TEST_STEP : TEST_MEASUREMENT, remoteId, seq, now],
      );
      db.run('UPDATE sync_outbox_targets SET record_id = ? WHERE resource = ? AND record_id = ?', [
        remoteId,
        isStep ? TEST_STEP : TEST_MEASUREMENT,
        localId,
      ]);
      db.run('UPDATE sync_base SET record_id = ? WHERE resource = ? AND record_id = ?', [
        remoteId,
        isStep ? TEST_STEP : TEST_MEASUREMENT,
        localId,
      ]);
    }
    // Later edits of the imported steps and measurements, not sent yet, now name the remote ids. Every write that
    // can name one targets it, or (creates under the report) the report or one of its steps.
    const referring = db.all<{ seq: number; request: string }>(
      `SELECT DISTINCT o.seq, o.request FROM sync_outbox_targets t CROSS JOIN sync_outbox o ON o.seq = t.seq
       WHERE ((t.resource = ? AND t.record_id = ?) OR (t.resource IN (?, ?) AND t.record_id IN (SELECT value FROM json_each(?))))
         AND o.state IN ('pending', 'inflight', 'failed') AND o.seq != ?`,
      [TEST_REPORT, remoteReportId, TEST_STEP, TEST_MEASUREMENT, JSON.stringify([...map.values()]), seq],
    );
    for (const e of referring) {
      const request = JSON.parse(e.request) as unknown;
      if ([...collectIds(request)].some((id) => map.has(id)))
        db.run('UPDATE sync_outbox SET request = ? WHERE seq = ?', [JSON.stringify(replaceIds(request, map)), e.seq]);
    }
  } else {
    deleteReportSteps(db, report.pk); // measurements cascade
    // Their ids will never be mapped: edits of them made before the push are then sent as they are and fail visibly (not found).
    for (const r of db.all<{ local_id: string }>(
      `SELECT local_id FROM sync_id_map WHERE created_by_seq = ? AND resource IN ('${TEST_STEP}', '${TEST_MEASUREMENT}') AND remote_id IS NULL`,
      [seq],
    )) {
      db.run('DELETE FROM sync_id_map WHERE local_id = ?', [r.local_id]);
      db.run(`DELETE FROM sync_base WHERE resource IN ('${TEST_STEP}', '${TEST_MEASUREMENT}') AND record_id = ?`, [r.local_id]);
    }
  }
  upsertSteps(ctx, steps);
  upsertMeasurements(ctx, measurements);
}
