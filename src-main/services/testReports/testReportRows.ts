// Stored test report / step / measurement rows -> wire objects (batch-loading
// metadata and channel names), and lookups by id within the caller's
// organizations (another organization's record is NOT_FOUND).
import {
  TestMeasurementType,
  TestStatus,
  TestStepType,
  doubleToWire,
  type TestMeasurement,
  type TestMeasurementTypeName,
  type TestReport,
  type TestStatusName,
  type TestStep,
  type TestStepTypeName,
} from '../../../src-shared/api/testReports';
import { formatOptionalTimestamp, formatTimestamp } from '../../../src-shared/api/time';
import { ApiError } from '../../../src-shared/errors';
import { visibleTo } from '../../auth/caller';
import { loadByPks, loadLists, loadMetadata } from '../../db/childRows';
import { decodeStepPath } from '../../db/encodings/stepPathKey';
import type { Db } from '../../db/database';
import type { RequestContext } from '../../engine';

export interface TestReportRow {
  pk: number;
  id: string;
  organization_id: string;
  status: number;
  name: string;
  test_system_name: string;
  test_case: string;
  start_time: number;
  end_time: number;
  serial_number: string;
  part_number: string;
  system_operator: string;
  run_id: string;
  archived_date: number | null;
  source_remote_file_id: string | null;
  created_by_user_id: string;
  modified_by_user_id: string;
  created_date: number;
  modified_date: number;
  /** The latest modification of the report, its steps and measurements: set by each write here, or the remote's (pulled); null: computed. */
  overall_modified_date: number | null;
}

export interface TestStepRow {
  pk: number;
  id: string;
  report_pk: number;
  test_report_id: string;
  organization_id: string;
  parent_step_id: string;
  name: string;
  description: string;
  step_type: number;
  /** The step path's key (db/encodings/stepPathKey.ts); step_path is decoded from it. */
  path_key: Buffer;
  status: number;
  start_time: number;
  end_time: number;
  error_code: number | null;
  error_message: string | null;
  created_by_user_id: string;
  modified_by_user_id: string;
  created_date: number;
  modified_date: number;
}

export interface TestMeasurementRow {
  pk: number;
  id: string;
  report_pk: number;
  step_pk: number;
  test_report_id: string;
  test_step_id: string;
  organization_id: string;
  measurement_type: number;
  name: string;
  value_field: number | null;
  numeric_value: number | null;
  string_value: string | null;
  boolean_value: number | null;
  unit_id: string | null;
  unit_abbreviated_name: string | null;
  bounds_field: number | null;
  bound_min: number | null;
  bound_max: number | null;
  expected_value: string | null;
  passed: number;
  timestamp: number;
  description: string;
  created_by_user_id: string;
  modified_by_user_id: string;
  created_date: number;
  modified_date: number;
}

/** Field numbers of the members of TestMeasurement's `value` and `bounds` oneofs. */
export const VALUE_FIELD = { numeric: 6, string: 7, boolean: 8 } as const;
export const BOUNDS_FIELD = { numeric: 10, string: 11 } as const;

const byNumber = <N extends string>(e: { names: readonly N[]; numbers: Readonly<Record<N, number>> }) =>
  new Map<number, N>(e.names.map((n) => [e.numbers[n], n]));
const statusByNumber = byNumber(TestStatus);
const stepTypeByNumber = byNumber(TestStepType);
const measurementTypeByNumber = byNumber(TestMeasurementType);

export const statusName = (n: number): TestStatusName => statusByNumber.get(n) ?? 'TEST_STATUS_UNSPECIFIED';
export const stepTypeName = (n: number): TestStepTypeName => stepTypeByNumber.get(n) ?? 'TEST_STEP_TYPE_UNSPECIFIED';
export const measurementTypeName = (n: number): TestMeasurementTypeName =>
  measurementTypeByNumber.get(n) ?? 'TEST_MEASUREMENT_TYPE_UNSPECIFIED';

/** Reports stored without an overall modified date (before migration 0014): the latest modified date of the report, its steps and measurements. */
function computedOverall(db: Db, rows: readonly TestReportRow[]): Map<number, number> {
  const pks = JSON.stringify(rows.filter((r) => r.overall_modified_date === null).map((r) => r.pk));
  const out = new Map<number, number>();
  if (pks === '[]') return out;
  for (const table of ['test_steps', 'test_measurements']) {
    for (const r of db.all<{ pk: number; latest: number }>(
      `SELECT report_pk AS pk, MAX(modified_date) AS latest FROM ${table} WHERE report_pk IN (SELECT value FROM json_each(?)) GROUP BY report_pk`,
      [pks],
    ))
      out.set(r.pk, Math.max(out.get(r.pk) ?? 0, r.latest));
  }
  return out;
}

export function reportsToWire(db: Db, rows: readonly TestReportRow[]): TestReport[] {
  const metadata = loadMetadata(
    db,
    'test_report_metadata',
    'report_pk',
    rows.map((r) => r.pk),
  );
  const computed = computedOverall(db, rows);
  return rows.map((r) => ({
    testReportId: r.id,
    status: statusName(r.status),
    name: r.name,
    testSystemName: r.test_system_name,
    testCase: r.test_case,
    startTime: formatTimestamp(r.start_time),
    endTime: formatTimestamp(r.end_time),
    metadata: metadata.get(r.pk) ?? [],
    serialNumber: r.serial_number,
    partNumber: r.part_number,
    systemOperator: r.system_operator,
    archivedDate: formatOptionalTimestamp(r.archived_date),
    isArchived: r.archived_date !== null,
    runId: r.run_id,
    overallModifiedDate: formatTimestamp(r.overall_modified_date ?? Math.max(r.modified_date, computed.get(r.pk) ?? 0)),
  }));
}

export function stepsToWire(db: Db, rows: readonly TestStepRow[]): TestStep[] {
  const metadata = loadMetadata(
    db,
    'test_step_metadata',
    'step_pk',
    rows.map((r) => r.pk),
  );
  return rows.map((r) => ({
    testStepId: r.id,
    testReportId: r.test_report_id,
    parentStepId: r.parent_step_id,
    name: r.name,
    description: r.description,
    stepType: stepTypeName(r.step_type),
    stepPath: decodeStepPath(r.path_key),
    status: statusName(r.status),
    startTime: formatTimestamp(r.start_time),
    endTime: formatTimestamp(r.end_time),
    errorInfo:
      r.error_code === null && r.error_message === null ? null : { errorCode: r.error_code ?? 0, errorMessage: r.error_message ?? '' },
    metadata: metadata.get(r.pk) ?? [],
  }));
}

export function measurementsToWire(db: Db, rows: readonly TestMeasurementRow[]): TestMeasurement[] {
  const pks = rows.map((r) => r.pk);
  const metadata = loadMetadata(db, 'test_measurement_metadata', 'measurement_pk', pks);
  const channels = loadLists(db, 'test_measurement_channel_names', 'measurement_pk', 'channel_name', pks);
  return rows.map((r) => {
    const m: TestMeasurement = {
      measurementId: r.id,
      measurementType: measurementTypeName(r.measurement_type),
      name: r.name,
      testStepId: r.test_step_id,
      testReportId: r.test_report_id,
      unit:
        r.unit_abbreviated_name === null && r.unit_id === null
          ? null
          : { unitId: r.unit_id ?? '', abbreviatedName: r.unit_abbreviated_name ?? '' },
      passed: r.passed === 1,
      timestamp: formatTimestamp(r.timestamp),
      description: r.description,
      channelNames: channels.get(r.pk) ?? [],
      metadata: metadata.get(r.pk) ?? [],
    };
    // Oneof members appear only when set; SQLite keeps NaN as NULL (see migration 0004).
    if (r.value_field === VALUE_FIELD.numeric) m.numericValue = doubleToWire(r.numeric_value ?? NaN);
    else if (r.value_field === VALUE_FIELD.string) m.stringValue = r.string_value ?? '';
    else if (r.value_field === VALUE_FIELD.boolean) m.booleanValue = r.boolean_value === 1;
    if (r.bounds_field === BOUNDS_FIELD.numeric) {
      const b: NonNullable<TestMeasurement['numericBounds']> = {};
      if (r.bound_min !== null) b.min = doubleToWire(r.bound_min);
      if (r.bound_max !== null) b.max = doubleToWire(r.bound_max);
      m.numericBounds = b;
    } else if (r.bounds_field === BOUNDS_FIELD.string) {
      m.stringBounds = { expectedValue: r.expected_value ?? '' };
    }
    return m;
  });
}

export const loadReports = (db: Db, pks: readonly number[]) => reportsToWire(db, loadByPks<TestReportRow>(db, 'test_reports', pks));
export const loadSteps = (db: Db, pks: readonly number[]) => stepsToWire(db, loadByPks<TestStepRow>(db, 'test_steps', pks));
export const loadMeasurements = (db: Db, pks: readonly number[]) =>
  measurementsToWire(db, loadByPks<TestMeasurementRow>(db, 'test_measurements', pks));

function findVisible<T>(ctx: RequestContext, table: string, what: string, id: string): T {
  const scope = visibleTo(ctx.caller, 'organization_id');
  const row = ctx.db.get<T>(`SELECT * FROM ${table} WHERE id = ? AND ${scope.sql}`, [id, ...scope.params]);
  if (!row) throw ApiError.notFound(what, id);
  return row;
}

export const findVisibleReport = (ctx: RequestContext, id: string) => findVisible<TestReportRow>(ctx, 'test_reports', 'test report', id);
export const findVisibleStep = (ctx: RequestContext, id: string) => findVisible<TestStepRow>(ctx, 'test_steps', 'test step', id);
export const findVisibleMeasurement = (ctx: RequestContext, id: string) =>
  findVisible<TestMeasurementRow>(ctx, 'test_measurements', 'test measurement', id);
