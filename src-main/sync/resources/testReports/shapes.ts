// The synced fields of test reports, steps and measurements (../../recordShape.ts):
// a report's are the paths UpdateTestReport changes; a step's and a
// measurement's their update_mask paths, a measurement's oneofs (`value`,
// `bounds`) one field each. Report metadata is creation-only (apply.ts takes
// it from the remote), a step's and a measurement's are synced.
import {
  TestMeasurementType,
  TestStatus,
  TestStepType,
  type TestMeasurement,
  type TestReport,
  type TestStep,
} from '../../../../src-shared/api/testReports';
import type { MetadataValueInput } from '../../../../src-shared/api/metadata';
import { formatTimestamp } from '../../../../src-shared/api/time';
import { encodeStepPath } from '../../../db/encodings/stepPathKey';
import { BOUNDS_FIELD, loadMeasurements, loadReports, loadSteps, VALUE_FIELD } from '../../../services/testReports/testReportRows';
import type { TEST_REPORT_UPDATABLE_PATHS } from '../../../services/testReports/testReportsService';
import {
  replaceTestMeasurementChannelNames,
  replaceTestMeasurementMetadata,
  replaceTestStepMetadata,
  setTestMeasurementColumns,
  setTestReportColumns,
  setTestStepColumns,
} from '../../../services/testReports/testReportStore';
import type { RecordShape, SyncedField } from '../../recordShape';
import { wireMicros } from '../../time';

export const TEST_REPORT = 'test_report';
export const TEST_STEP = 'test_step';
export const TEST_MEASUREMENT = 'test_measurement';

/** A field stored as it is in the column of its name. */
const same = <W>(column: string, of: (record: W) => string): SyncedField<W> => ({ of, columns: (r) => ({ [column]: of(r) }) });
/** A time: micros in the synced form (null when unset), 0 in its column, a timestamp in an update. */
const time = <W>(column: string, of: (record: W) => string | undefined): SyncedField<W> => ({
  of: (r) => wireMicros(of(r)),
  columns: (r) => ({ [column]: wireMicros(of(r)) ?? 0 }),
  wire: (v) => formatTimestamp(v as number),
});
/** Wire doubles ("NaN", "Infinity" as text) -> numbers; SQLite stores NaN as NULL. */
function num(v: number | string | undefined): number | null {
  if (v === undefined) return null;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isNaN(n) ? null : n;
}
// (Wire metadata as the store takes it: metadataInputToRow reads both forms.)
const metadataOf = (r: { metadata?: unknown[] }) => (r.metadata ?? []) as MetadataValueInput[];

export const TEST_REPORT_SHAPE: RecordShape<TestReport, (typeof TEST_REPORT_UPDATABLE_PATHS)[number]> = {
  kind: TEST_REPORT,
  table: 'test_reports',
  load: loadReports,
  setColumns: setTestReportColumns,
  update: { operation: 'UpdateTestReport', record: 'testReport', id: 'testReportId' },
  fields: {
    status: { of: (r) => r.status, columns: (r) => ({ status: TestStatus.numbers[r.status] ?? 0 }) },
    name: same('name', (r) => r.name),
    test_system_name: same('test_system_name', (r) => r.testSystemName),
    test_case: same('test_case', (r) => r.testCase),
    start_time: time('start_time', (r) => r.startTime),
    end_time: time('end_time', (r) => r.endTime),
    serial_number: same('serial_number', (r) => r.serialNumber ?? ''),
    part_number: same('part_number', (r) => r.partNumber ?? ''),
    system_operator: same('system_operator', (r) => r.systemOperator ?? ''),
    run_id: same('run_id', (r) => r.runId ?? ''),
    is_archived: {
      of: (r) => r.isArchived ?? false,
      columns: (r) => ({ archived_date: r.isArchived ? (wireMicros(r.archivedDate) ?? Date.now() * 1000) : null }),
    },
  },
};

export const TEST_STEP_SHAPE: RecordShape<TestStep> = {
  kind: TEST_STEP,
  table: 'test_steps',
  load: loadSteps,
  setColumns: setTestStepColumns,
  fields: {
    name: same('name', (s) => s.name),
    description: same('description', (s) => s.description ?? ''),
    step_type: { of: (s) => s.stepType, columns: (s) => ({ step_type: TestStepType.numbers[s.stepType] ?? 0 }) },
    step_path: { of: (s) => s.stepPath, columns: (s) => ({ path_key: encodeStepPath(s.stepPath) }) },
    status: { of: (s) => s.status, columns: (s) => ({ status: TestStatus.numbers[s.status] ?? 0 }) },
    start_time: time('start_time', (s) => s.startTime),
    end_time: time('end_time', (s) => s.endTime),
    error_info: {
      of: (s) => s.errorInfo ?? null,
      columns: (s) => ({
        error_code: s.errorInfo ? s.errorInfo.errorCode : null,
        error_message: s.errorInfo ? s.errorInfo.errorMessage : null,
      }),
    },
    metadata: { of: metadataOf, rows: (db, pk, s) => replaceTestStepMetadata(db, pk, metadataOf(s)) },
  },
};

/** Which member of the `value` oneof is set (its field number), with its value. */
const valueOf = (m: TestMeasurement) =>
  m.numericValue !== undefined
    ? { field: VALUE_FIELD.numeric, value: { numeric: m.numericValue } }
    : m.stringValue !== undefined
      ? { field: VALUE_FIELD.string, value: { string: m.stringValue } }
      : m.booleanValue !== undefined
        ? { field: VALUE_FIELD.boolean, value: { boolean: m.booleanValue } }
        : null;

export const TEST_MEASUREMENT_SHAPE: RecordShape<TestMeasurement> = {
  kind: TEST_MEASUREMENT,
  table: 'test_measurements',
  load: loadMeasurements,
  setColumns: setTestMeasurementColumns,
  fields: {
    name: same('name', (m) => m.name),
    measurement_type: {
      of: (m) => m.measurementType,
      columns: (m) => ({ measurement_type: TestMeasurementType.numbers[m.measurementType] ?? 0 }),
    },
    value: {
      of: (m) => valueOf(m)?.value ?? null,
      columns: (m) => ({
        value_field: valueOf(m)?.field ?? null,
        numeric_value: num(m.numericValue),
        string_value: m.stringValue ?? null,
        boolean_value: m.booleanValue === undefined ? null : m.booleanValue ? 1 : 0,
      }),
      paths: ['numeric_value', 'string_value', 'boolean_value'],
    },
    unit: {
      of: (m) => m.unit ?? null,
      columns: (m) => ({ unit_id: m.unit ? m.unit.unitId : null, unit_abbreviated_name: m.unit ? m.unit.abbreviatedName : null }),
    },
    bounds: {
      of: (m) => (m.numericBounds ? { numeric: m.numericBounds } : m.stringBounds ? { string: m.stringBounds.expectedValue } : null),
      columns: (m) => ({
        bounds_field: m.numericBounds ? BOUNDS_FIELD.numeric : m.stringBounds ? BOUNDS_FIELD.string : null,
        bound_min: num(m.numericBounds?.min),
        bound_max: num(m.numericBounds?.max),
        expected_value: m.stringBounds?.expectedValue ?? null,
      }),
      paths: ['numeric_bounds', 'string_bounds'],
    },
    passed: { of: (m) => m.passed, columns: (m) => ({ passed: m.passed ? 1 : 0 }) },
    timestamp: time('timestamp', (m) => m.timestamp),
    description: same('description', (m) => m.description ?? ''),
    channel_names: {
      of: (m) => m.channelNames ?? [],
      rows: (db, pk, m) => replaceTestMeasurementChannelNames(db, pk, m.channelNames ?? []),
    },
    metadata: { of: metadataOf, rows: (db, pk, m) => replaceTestMeasurementMetadata(db, pk, metadataOf(m)) },
  },
};
