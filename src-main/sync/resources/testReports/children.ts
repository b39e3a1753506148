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
import { TestMeasurementType, TestStatus, TestStepType, type TestMeasurement, type TestStep } from '../../../../src-shared/api/testReports';
import type { Db, SqlValue } from '../../../db/database';
import { encodeStepPath } from '../../../db/encodings/stepPathKey';
import { BOUNDS_FIELD, loadMeasurements, loadSteps, VALUE_FIELD } from '../../../services/testReports/testReportRows';
import {
  deleteReportSteps,
  MEASUREMENT_VALUE_COLUMNS,
  testMeasurementRows,
  renameTestStep,
  replaceTestMeasurementChannelNames,
  replaceTestMeasurementMetadata,
  replaceTestStepMetadata,
  setTestMeasurementColumns,
  setTestStepColumns,
  upsertRemoteTestMeasurement,
  upsertRemoteTestStep,
} from '../../../services/testReports/testReportStore';
import type { ApplyContext } from '../../apply';
import { collectIds, replaceIds } from '../../idMap';
import { mergeFields } from '../../merge';
import { hasPending } from '../../outbox';
import { wireMicros } from '../../time';
import type { CreatedRef } from '../../types';
import { TEST_REPORT } from './apply';

export const TEST_STEP = 'test_step';
export const TEST_MEASUREMENT = 'test_measurement';

const reportOf = (db: Db, id: string) =>
  db.get<{ pk: number; organization_id: string; created_by_user_id: string }>(
    'SELECT pk, organization_id, created_by_user_id FROM test_reports WHERE id = ?',
    [id],
  );

/** Wire doubles ("NaN", "Infinity" as text) -> numbers; SQLite stores NaN as NULL. */
function num(v: number | string | undefined): number | null {
  if (v === undefined) return null;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isNaN(n) ? null : n;
}

type Columns = Record<string, SqlValue>;

// ---- steps ------------------------------------------------------------------

/** Synced fields of a step (named as its update_mask paths; values in wire form, times as micros). */
export function stepFields(w: TestStep): Record<string, unknown> {
  return {
    name: w.name,
    description: w.description ?? '',
    step_type: w.stepType,
    step_path: w.stepPath,
    status: w.status,
    start_time: wireMicros(w.startTime),
    end_time: wireMicros(w.endTime),
    error_info: w.errorInfo ?? null,
    metadata: w.metadata ?? [],
  };
}

function stepColumns(w: TestStep): Columns {
  return {
    name: w.name,
    description: w.description ?? '',
    step_type: TestStepType.numbers[w.stepType] ?? 0,
    path_key: encodeStepPath(w.stepPath),
    status: TestStatus.numbers[w.status] ?? 0,
    start_time: wireMicros(w.startTime) ?? 0,
    end_time: wireMicros(w.endTime) ?? 0,
    error_code: w.errorInfo ? w.errorInfo.errorCode : null,
    error_message: w.errorInfo ? w.errorInfo.errorMessage : null,
  };
}

const STEP_FIELD_COLUMNS: Record<string, readonly string[]> = {
  name: ['name'],
  description: ['description'],
  step_type: ['step_type'],
  step_path: ['path_key'],
  status: ['status'],
  start_time: ['start_time'],
  end_time: ['end_time'],
  error_info: ['error_code', 'error_message'],
};

const stepRow = (db: Db, id: string) => db.get<{ pk: number }>('SELECT pk FROM test_steps WHERE id = ?', [id]);

export function snapshotTestStep(db: Db, id: string): { version: number; fields: Record<string, unknown> } | undefined {
  const row = db.get<{ pk: number; modified_date: number }>('SELECT pk, modified_date FROM test_steps WHERE id = ?', [id]);
  return row && { version: row.modified_date, fields: stepFields(loadSteps(db, [row.pk])[0]) };
}

function writeStepField(db: Db, pk: number, w: TestStep, field: string): void {
  if (field === 'metadata') {
    replaceTestStepMetadata(db, pk, (w.metadata ?? []) as never);
    return;
  }
  const columns = STEP_FIELD_COLUMNS[field];
  if (!columns) return;
  const values = stepColumns(w);
  setTestStepColumns(db, pk, Object.fromEntries(columns.map((c) => [c, values[c]])));
}

/**
 * Remote steps -> local: new ones inserted (when their report is here and was not deleted here), others
 * overwritten, or merged field by field when they have pending local edits. Returns how many were inserted
 * or changed (a step already here as the remote has it counts 0).
 */
export function upsertSteps(ctx: ApplyContext, steps: readonly TestStep[], now: number, remoteTime = now): number {
  const { db } = ctx;
  let written = 0;
  for (const s of steps) {
    const existing = stepRow(db, s.testStepId);
    if (existing && hasPending(db, TEST_STEP, s.testStepId, ctx.excludeSeq)) {
      let changed = false;
      mergeFields(ctx, {
        resource: TEST_STEP,
        recordId: s.testStepId,
        local: stepFields(loadSteps(db, [existing.pk])[0]),
        remote: stepFields(s),
        remoteTime,
        write: (field) => {
          writeStepField(db, existing.pk, s, field);
          changed = true;
        },
      });
      if (changed) written++;
      continue;
    }
    const report = reportOf(db, s.testReportId);
    if (!report || (!existing && hasPending(db, TEST_STEP, s.testStepId, ctx.excludeSeq))) continue;
    const c = stepColumns(s);
    const row = upsertRemoteTestStep(db, {
      id: s.testStepId,
      report_pk: report.pk,
      test_report_id: s.testReportId,
      organization_id: report.organization_id,
      parent_step_id: s.parentStepId ?? '',
      ...c,
      created_by_user_id: report.created_by_user_id,
      modified_by_user_id: report.created_by_user_id,
      created_date: now,
      modified_date: now,
    });
    const metadata = replaceTestStepMetadata(db, stepRow(db, s.testStepId)!.pk, (s.metadata ?? []) as never);
    db.run('DELETE FROM sync_base WHERE resource = ? AND record_id = ?', [TEST_STEP, s.testStepId]);
    if (row || metadata) written++;
  }
  return written;
}

// ---- measurements -----------------------------------------------------------

/** update_mask path -> synced field (the members of a oneof are one field). */
export const measurementFieldOfPath = (path: string) =>
  path === 'numeric_value' || path === 'string_value' || path === 'boolean_value'
    ? 'value'
    : path === 'numeric_bounds' || path === 'string_bounds'
      ? 'bounds'
      : path;

/** Synced fields of a measurement (wire form, doubles as numbers or their text, timestamp as micros). */
export function measurementFields(w: TestMeasurement): Record<string, unknown> {
  const value =
    w.numericValue !== undefined
      ? { numeric: w.numericValue }
      : w.stringValue !== undefined
        ? { string: w.stringValue }
        : w.booleanValue !== undefined
          ? { boolean: w.booleanValue }
          : null;
  const bounds = w.numericBounds ? { numeric: w.numericBounds } : w.stringBounds ? { string: w.stringBounds.expectedValue } : null;
  return {
    name: w.name,
    measurement_type: w.measurementType,
    value,
    unit: w.unit ?? null,
    bounds,
    passed: w.passed,
    timestamp: wireMicros(w.timestamp),
    description: w.description ?? '',
    channel_names: w.channelNames ?? [],
    metadata: w.metadata ?? [],
  };
}

function measurementColumns(m: TestMeasurement): Columns {
  return {
    name: m.name,
    measurement_type: TestMeasurementType.numbers[m.measurementType] ?? 0,
    value_field:
      m.numericValue !== undefined
        ? VALUE_FIELD.numeric
        : m.stringValue !== undefined
          ? VALUE_FIELD.string
          : m.booleanValue !== undefined
            ? VALUE_FIELD.boolean
            : null,
    numeric_value: num(m.numericValue),
    string_value: m.stringValue ?? null,
    boolean_value: m.booleanValue === undefined ? null : m.booleanValue ? 1 : 0,
    unit_id: m.unit ? m.unit.unitId : null,
    unit_abbreviated_name: m.unit ? m.unit.abbreviatedName : null,
    bounds_field: m.numericBounds ? BOUNDS_FIELD.numeric : m.stringBounds ? BOUNDS_FIELD.string : null,
    bound_min: num(m.numericBounds?.min),
    bound_max: num(m.numericBounds?.max),
    expected_value: m.stringBounds?.expectedValue ?? null,
    passed: m.passed ? 1 : 0,
    timestamp: wireMicros(m.timestamp) ?? 0,
    description: m.description ?? '',
  };
}

const MEASUREMENT_FIELD_COLUMNS: Record<string, readonly string[]> = {
  name: ['name'],
  measurement_type: ['measurement_type'],
  value: ['value_field', 'numeric_value', 'string_value', 'boolean_value'],
  unit: ['unit_id', 'unit_abbreviated_name'],
  bounds: ['bounds_field', 'bound_min', 'bound_max', 'expected_value'],
  passed: ['passed'],
  timestamp: ['timestamp'],
  description: ['description'],
};

const measurementRow = (db: Db, id: string) => db.get<{ pk: number }>('SELECT pk FROM test_measurements WHERE id = ?', [id]);

export function snapshotTestMeasurement(db: Db, id: string): { version: number; fields: Record<string, unknown> } | undefined {
  const row = db.get<{ pk: number; modified_date: number }>('SELECT pk, modified_date FROM test_measurements WHERE id = ?', [id]);
  return row && { version: row.modified_date, fields: measurementFields(loadMeasurements(db, [row.pk])[0]) };
}

function writeMeasurementField(db: Db, pk: number, m: TestMeasurement, field: string): void {
  if (field === 'metadata') replaceTestMeasurementMetadata(db, pk, (m.metadata ?? []) as never);
  else if (field === 'channel_names') replaceTestMeasurementChannelNames(db, pk, m.channelNames ?? []);
  else if (MEASUREMENT_FIELD_COLUMNS[field]) {
    const columns = MEASUREMENT_FIELD_COLUMNS[field];
    const values = measurementColumns(m);
    setTestMeasurementColumns(db, pk, Object.fromEntries(columns.map((c) => [c, values[c]])));
  }
}

/**
 * Remote measurements -> local, like upsertSteps (new ones need their step here). Returns how many were
 * inserted or changed (one already here as the remote has it counts 0).
 */
export function upsertMeasurements(ctx: ApplyContext, list: readonly TestMeasurement[], now: number, remoteTime = now): number {
  const { db } = ctx;
  let written = 0;
  for (const m of list) {
    const existing = measurementRow(db, m.measurementId);
    if (existing && hasPending(db, TEST_MEASUREMENT, m.measurementId, ctx.excludeSeq)) {
      let changed = false;
      mergeFields(ctx, {
        resource: TEST_MEASUREMENT,
        recordId: m.measurementId,
        local: measurementFields(loadMeasurements(db, [existing.pk])[0]),
        remote: measurementFields(m),
        remoteTime,
        write: (field) => {
          writeMeasurementField(db, existing.pk, m, field);
          changed = true;
        },
      });
      if (changed) written++;
      continue;
    }
    const step = db.get<{ pk: number; report_pk: number; organization_id: string; created_by_user_id: string }>(
      'SELECT pk, report_pk, organization_id, created_by_user_id FROM test_steps WHERE id = ?',
      [m.testStepId],
    );
    if (!step || (!existing && hasPending(db, TEST_MEASUREMENT, m.measurementId, ctx.excludeSeq))) continue;
    const c = measurementColumns(m);
    const row = upsertRemoteTestMeasurement(db, {
      id: m.measurementId,
      report_pk: step.report_pk,
      step_pk: step.pk,
      test_report_id: m.testReportId,
      test_step_id: m.testStepId,
      organization_id: step.organization_id,
      ...Object.fromEntries(MEASUREMENT_VALUE_COLUMNS.map((col) => [col, c[col]])),
      created_by_user_id: step.created_by_user_id,
      modified_by_user_id: step.created_by_user_id,
      created_date: now,
      modified_date: now,
    });
    const pk = measurementRow(db, m.measurementId)!.pk;
    const channels = replaceTestMeasurementChannelNames(db, pk, m.channelNames ?? []);
    const metadata = replaceTestMeasurementMetadata(db, pk, (m.metadata ?? []) as never);
    db.run('DELETE FROM sync_base WHERE resource = ? AND record_id = ?', [TEST_MEASUREMENT, m.measurementId]);
    if (row || channels || metadata) written++;
  }
  return written;
}

/** What a record looked like when the import created it (its create-time base), else now. */
function createdValues(db: Db, resource: string, id: string): Record<string, unknown> | undefined {
  const base = db.get<{ fields: string }>('SELECT fields FROM sync_base WHERE resource = ? AND record_id = ?', [resource, id]);
  if (base) return JSON.parse(base.fields) as Record<string, unknown>;
  if (resource === TEST_STEP) return snapshotTestStep(db, id)?.fields;
  return snapshotTestMeasurement(db, id)?.fields;
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
  const agree = (resource: string, id: string, check: (v: Record<string, unknown>) => boolean) => {
    const values = createdValues(db, resource, id);
    return values === undefined || check(values);
  };
  for (let i = 0; i < steps.length; i++) {
    const r = steps[i];
    if (!agree(TEST_STEP, localSteps[i].id, (v) => v.step_path === r.stepPath && v.name === r.name)) return null;
    map.set(localSteps[i].id, r.testStepId);
  }
  for (let i = 0; i < measurements.length; i++) {
    const r = measurements[i];
    if (!agree(TEST_MEASUREMENT, localMeasurements[i].id, (v) => v.name === r.name)) return null;
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
  upsertSteps(ctx, steps, now);
  upsertMeasurements(ctx, measurements, now);
}
