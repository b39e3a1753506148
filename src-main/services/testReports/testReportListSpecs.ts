// List/Count specs of test reports, steps and measurements: order_by fields and
// default orders (reference §1.6). Filter fields are declared by the filter
// engine later; the documented ones (reference §8 "Filter fields") are listed.
import type { ListSpec } from '../../filter/resource';

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
  // Documented: test_report_id (t.id), status (enum TestStatus), name, test_system_name, test_case, start_time,
  // end_time, serial_number, created_by_user_id, modified_by_user_id, part_number, system_operator, run_id,
  // archived_date, metadata (test_report_metadata, `metadata.<key>`); the Python client also uses
  // created_date and is_archived (t.archived_date IS NOT NULL).
  filterFields: {},
};

export const testStepListSpec: ListSpec = {
  resource: 'test steps',
  from: 'test_steps t',
  tieBreak: 't.pk',
  orderFields: {
    test_step_id: { sql: 't.id', type: 'text' },
    name: { sql: 't.name', type: 'text' },
    step_type: { sql: 't.step_type', type: 'number' },
    // Natural order: the sortable key, not the raw path ("1.9" < "1.10").
    step_path: { sql: 't.step_path_key', type: 'text' },
    status: { sql: 't.status', type: 'number' },
    start_time: { sql: 't.start_time', type: 'number' },
    end_time: { sql: 't.end_time', type: 'number' },
    created_date: { sql: 't.created_date', type: 'number' },
    modified_date: { sql: 't.modified_date', type: 'number' },
  },
  defaultOrder: [{ field: 'step_path', desc: false }],
  defaultPageSize: 50,
  maxPageSize: 1000,
  // Documented (List and Count): test_step_id (t.id), test_report_id, parent_step_id, name, description,
  // step_type (enum TestStepType), step_path, status (enum TestStatus), start_time, end_time, error_code,
  // error_message, created_date, modified_date, metadata (test_step_metadata).
  filterFields: {},
};

export const testMeasurementListSpec: ListSpec = {
  resource: 'test measurements',
  from: 'test_measurements t',
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
  // Documented (List and Count): measurement_id (t.id), measurement_type (enum TestMeasurementType), name,
  // test_step_id, test_report_id, numeric_value, string_value, boolean_value (only for the set oneof member:
  // value_field = 6/7/8), passed, timestamp, created_date, modified_date, metadata (test_measurement_metadata).
  filterFields: {},
};
