// List/Count specs of test reports, steps and measurements: order_by fields,
// default orders (reference §1.6) and CEL filter fields (reference §8 "Filter
// fields"; Count* takes the same filters as List*).
import { TestMeasurementType, TestStatus, TestStepType } from '../../../src-shared/api/testReports';
import { STEP_PATH_SQL_FUNCTION } from '../../db/encodings/stepPathKey';
import type { ScalarField } from '../../filter/fields';
import type { ListSpec } from '../../filter/resource';
import { boolColumn, isArchivedFrom, metadataMap } from '../common/commonFilterFields';
import { VALUE_FIELD } from './testReportRows';

const str = (sql: string): ScalarField => ({ kind: 'scalar', type: 'string', sql });
const time = (sql: string): ScalarField => ({ kind: 'scalar', type: 'timestamp', sql });

export const testReportListSpec: ListSpec = {
  resource: 'test reports',
  from: 'test_reports t',
  tieBreak: 't.pk',
  orderFields: {
    test_report_id: { sql: 't.id', type: 'text' },
    name: { sql: 't.name', type: 'text' },
    test_system_name: { sql: 't.test_system_name', type: 'text' },
    test_case: { sql: 't.test_case', type: 'text' },
    start_time: { sql: 't.start_time', type: 'number' },
    end_time: { sql: 't.end_time', type: 'number' },
    created_date: { sql: 't.created_date', type: 'number' },
    modified_date: { sql: 't.modified_date', type: 'number' },
  },
  defaultOrder: [{ field: 'start_time', desc: true }],
  defaultPageSize: 50,
  maxPageSize: 1000,
  filterFields: {
    test_report_id: str('t.id'),
    status: { kind: 'enum', sql: 't.status', values: TestStatus.numbers },
    name: str('t.name'),
    test_system_name: str('t.test_system_name'),
    test_case: str('t.test_case'),
    start_time: time('t.start_time'),
    end_time: time('t.end_time'),
    serial_number: str('t.serial_number'),
    created_by_user_id: str('t.created_by_user_id'),
    modified_by_user_id: str('t.modified_by_user_id'),
    part_number: str('t.part_number'),
    system_operator: str('t.system_operator'),
    // '' when the report has no run (stored NOT NULL DEFAULT '', as on the wire).
    run_id: str('t.run_id'),
    archived_date: { kind: 'scalar', type: 'timestamp', sql: 't.archived_date', nullable: true },
    metadata: metadataMap('test_report_metadata', 'report_pk'),
    // Not in the documented list, but the Python client filters on them.
    created_date: time('t.created_date'),
    is_archived: isArchivedFrom('t.archived_date'),
  },
};

export const testStepListSpec: ListSpec = {
  resource: 'test steps',
  from: 'test_steps t',
  authorizedThrough: { table: 'test_reports', parentColumn: 'report_pk' },
  tieBreak: 't.pk',
  orderFields: {
    test_step_id: { sql: 't.id', type: 'text' },
    name: { sql: 't.name', type: 'text' },
    step_type: { sql: 't.step_type', type: 'number' },
    // Natural order: the stored key, not the raw path ("1.9" < "1.10").
    step_path: { sql: 't.path_key', type: 'blob' },
    status: { sql: 't.status', type: 'number' },
    start_time: { sql: 't.start_time', type: 'number' },
    end_time: { sql: 't.end_time', type: 'number' },
    created_date: { sql: 't.created_date', type: 'number' },
    modified_date: { sql: 't.modified_date', type: 'number' },
  },
  defaultOrder: [{ field: 'step_path', desc: false }],
  defaultPageSize: 50,
  maxPageSize: 1000,
  filterFields: {
    test_step_id: str('t.id'),
    test_report_id: str('t.test_report_id'),
    // '' for top-level steps.
    parent_step_id: str('t.parent_step_id'),
    name: str('t.name'),
    description: str('t.description'),
    step_type: { kind: 'enum', sql: 't.step_type', values: TestStepType.numbers },
    // The dotted path as written ("1.2.3"), decoded from the stored key; comparisons are textual.
    step_path: str(`${STEP_PATH_SQL_FUNCTION}(t.path_key)`),
    status: { kind: 'enum', sql: 't.status', values: TestStatus.numbers },
    start_time: time('t.start_time'),
    end_time: time('t.end_time'),
    // NULL when the step has no error_info: absent (CEL null).
    error_code: { kind: 'scalar', type: 'int', sql: 't.error_code', nullable: true },
    error_message: { kind: 'scalar', type: 'string', sql: 't.error_message', nullable: true },
    created_date: time('t.created_date'),
    modified_date: time('t.modified_date'),
    metadata: metadataMap('test_step_metadata', 'step_pk'),
  },
};

export const testMeasurementListSpec: ListSpec = {
  resource: 'test measurements',
  from: 'test_measurements t',
  authorizedThrough: { table: 'test_reports', parentColumn: 'report_pk' },
  tieBreak: 't.pk',
  orderFields: {
    measurement_id: { sql: 't.id', type: 'text' },
    name: { sql: 't.name', type: 'text' },
    measurement_type: { sql: 't.measurement_type', type: 'number' },
    test_step_id: { sql: 't.test_step_id', type: 'text' },
    test_report_id: { sql: 't.test_report_id', type: 'text' },
    passed: { sql: 't.passed', type: 'number' },
    timestamp: { sql: 't.timestamp', type: 'number' },
    created_date: { sql: 't.created_date', type: 'number' },
    modified_date: { sql: 't.modified_date', type: 'number' },
  },
  defaultOrder: [{ field: 'timestamp', desc: false }],
  defaultPageSize: 50,
  maxPageSize: 1000,
  filterFields: {
    measurement_id: str('t.id'),
    measurement_type: { kind: 'enum', sql: 't.measurement_type', values: TestMeasurementType.numbers },
    name: str('t.name'),
    test_step_id: str('t.test_step_id'),
    test_report_id: str('t.test_report_id'),
    // The `value` oneof: each member reads only where it is the set member
    // (value_field), and is absent (CEL null) elsewhere, so
    // `numeric_value > 8.5` never matches a boolean or string measurement.
    // A NaN numeric value is stored as NULL (SQLite has no NaN) and reads as null too.
    numeric_value: {
      kind: 'scalar',
      type: 'double',
      sql: `(CASE WHEN t.value_field = ${VALUE_FIELD.numeric} THEN t.numeric_value END)`,
      nullable: true,
    },
    string_value: {
      kind: 'scalar',
      type: 'string',
      sql: `(CASE WHEN t.value_field = ${VALUE_FIELD.string} THEN t.string_value END)`,
      nullable: true,
    },
    boolean_value: {
      kind: 'scalar',
      type: 'bool',
      sql: `(CASE WHEN t.value_field = ${VALUE_FIELD.boolean} THEN t.boolean_value END)`,
      nullable: true,
      whenTrue: `(t.value_field = ${VALUE_FIELD.boolean} AND t.boolean_value = 1)`,
      whenFalse: `(t.value_field = ${VALUE_FIELD.boolean} AND t.boolean_value = 0)`,
    },
    passed: boolColumn('t.passed'),
    timestamp: time('t.timestamp'),
    created_date: time('t.created_date'),
    modified_date: time('t.modified_date'),
    metadata: metadataMap('test_measurement_metadata', 'measurement_pk'),
  },
};
