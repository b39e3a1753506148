// Test measurements: create (one or a batch, atomically), list (timestamp
// order by default), count, update (by mask, with oneof semantics for value
// and bounds), delete.
import { randomUUID } from 'node:crypto';
import {
  TestMeasurementType,
  type TestMeasurement,
  type TestMeasurementInput,
  type TestMeasurementTypeName,
} from '../../../src-shared/api/testReports';
import { nowMicros } from '../../../src-shared/api/time';
import { ApiError } from '../../../src-shared/errors';
import type { RequestContext } from '../../engine';
import { listPage, type ListParams } from '../../filter/listQuery';
import { callerScope, countRows } from './scope';
import { testMeasurementListSpec } from './testReportListSpecs';
import {
  BOUNDS_FIELD,
  VALUE_FIELD,
  findVisibleMeasurement,
  findVisibleStep,
  loadMeasurements,
  measurementTypeName,
  type TestMeasurementRow,
} from './testReportRows';
import { checkMask } from './testReportsService';
import {
  deleteTestMeasurementRow,
  insertTestMeasurementRow,
  replaceTestMeasurementChannelNames,
  replaceTestMeasurementMetadata,
  reportModified,
  setTestMeasurementColumns,
} from './testReportStore';

/** The stored value/unit/bounds columns of a measurement. */
type Stored = Pick<
  TestMeasurementRow,
  | 'value_field'
  | 'numeric_value'
  | 'string_value'
  | 'boolean_value'
  | 'unit_id'
  | 'unit_abbreviated_name'
  | 'bounds_field'
  | 'bound_min'
  | 'bound_max'
  | 'expected_value'
>;

const TYPE_FOR_VALUE: Record<number, TestMeasurementTypeName> = {
  [VALUE_FIELD.numeric]: 'TEST_MEASUREMENT_TYPE_DOUBLE',
  [VALUE_FIELD.string]: 'TEST_MEASUREMENT_TYPE_STRING',
  [VALUE_FIELD.boolean]: 'TEST_MEASUREMENT_TYPE_BOOLEAN',
};

/** DOUBLE/STRING/BOOLEAN measurements may only carry a value of their kind; LIMIT and UNSPECIFIED any. */
function checkTypeMatchesValue(type: TestMeasurementTypeName, valueField: number | null, field: string): void {
  if (valueField === null || type === 'TEST_MEASUREMENT_TYPE_LIMIT' || type === 'TEST_MEASUREMENT_TYPE_UNSPECIFIED') return;
  if (TYPE_FOR_VALUE[valueField] !== type) {
    const member =
      valueField === VALUE_FIELD.numeric ? 'numeric_value' : valueField === VALUE_FIELD.string ? 'string_value' : 'boolean_value';
    throw ApiError.invalid(field, `${type} does not match the value set (${member})`);
  }
}

function setValue(s: Stored, m: TestMeasurementInput): void {
  s.value_field = null;
  s.numeric_value = s.string_value = s.boolean_value = null;
  if (m.numericValue !== undefined) {
    s.value_field = VALUE_FIELD.numeric;
    s.numeric_value = m.numericValue;
  } else if (m.stringValue !== undefined) {
    s.value_field = VALUE_FIELD.string;
    s.string_value = m.stringValue;
  } else if (m.booleanValue !== undefined) {
    s.value_field = VALUE_FIELD.boolean;
    s.boolean_value = m.booleanValue ? 1 : 0;
  }
}

function setBounds(s: Stored, m: TestMeasurementInput): void {
  s.bounds_field = null;
  s.bound_min = s.bound_max = s.expected_value = null;
  if (m.numericBounds) {
    s.bounds_field = BOUNDS_FIELD.numeric;
    s.bound_min = m.numericBounds.min ?? null;
    s.bound_max = m.numericBounds.max ?? null;
  } else if (m.stringBounds) {
    s.bounds_field = BOUNDS_FIELD.string;
    s.expected_value = m.stringBounds.expectedValue ?? '';
  }
}

function setUnit(s: Stored, m: TestMeasurementInput): void {
  const u = m.unit;
  // A unit with neither id nor abbreviation is the same as no unit.
  const set = u && (u.unitId || u.abbreviatedName);
  s.unit_id = set ? (u.unitId ?? '') : null;
  s.unit_abbreviated_name = set ? (u.abbreviatedName ?? '') : null;
}

function emptyStored(): Stored {
  return {
    value_field: null,
    numeric_value: null,
    string_value: null,
    boolean_value: null,
    unit_id: null,
    unit_abbreviated_name: null,
    bounds_field: null,
    bound_min: null,
    bound_max: null,
    expected_value: null,
  };
}

/** Validates and inserts one measurement (inside the caller's transaction); returns its pk. */
function insertMeasurement(ctx: RequestContext, m: TestMeasurementInput, prefix: string, now: number): { pk: number; id: string } {
  const { db, caller } = ctx;
  if (!m.testStepId) throw ApiError.invalid(`${prefix}.test_step_id`, 'is required');
  if (!m.name) throw ApiError.invalid(`${prefix}.name`, 'is required');
  if (m.timestamp === undefined) throw ApiError.invalid(`${prefix}.timestamp`, 'is required');
  const step = findVisibleStep(ctx, m.testStepId);
  if (m.testReportId && m.testReportId !== step.test_report_id) {
    throw ApiError.invalid(`${prefix}.test_report_id`, `does not match the report of test step ${step.id} (${step.test_report_id})`);
  }
  const s = emptyStored();
  setValue(s, m);
  setBounds(s, m);
  setUnit(s, m);
  let type = m.measurementType ?? 'TEST_MEASUREMENT_TYPE_UNSPECIFIED';
  if (type === 'TEST_MEASUREMENT_TYPE_UNSPECIFIED' && s.value_field !== null) type = TYPE_FOR_VALUE[s.value_field];
  checkTypeMatchesValue(type, s.value_field, `${prefix}.measurement_type`);
  const id = randomUUID();
  const pk = insertTestMeasurementRow(db, {
    id,
    report_pk: step.report_pk,
    step_pk: step.pk,
    test_report_id: step.test_report_id,
    test_step_id: step.id,
    organization_id: step.organization_id,
    measurement_type: TestMeasurementType.numbers[type],
    name: m.name,
    value_field: s.value_field,
    numeric_value: s.numeric_value,
    string_value: s.string_value,
    boolean_value: s.boolean_value,
    unit_id: s.unit_id,
    unit_abbreviated_name: s.unit_abbreviated_name,
    bounds_field: s.bounds_field,
    bound_min: s.bound_min,
    bound_max: s.bound_max,
    expected_value: s.expected_value,
    passed: m.passed ? 1 : 0,
    timestamp: m.timestamp,
    description: m.description ?? '',
    created_by_user_id: caller.userId,
    modified_by_user_id: caller.userId,
    created_date: now,
    modified_date: now,
  });
  reportModified(db, step.report_pk, now);
  replaceTestMeasurementChannelNames(db, pk, m.channelNames ?? []);
  replaceTestMeasurementMetadata(db, pk, m.metadata ?? [], `${prefix}.metadata`);
  return { pk, id };
}

export function createTestMeasurement(ctx: RequestContext, m: TestMeasurementInput): { testMeasurement: TestMeasurement } {
  return ctx.db.tx(() => {
    const { pk } = insertMeasurement(ctx, m, 'test_measurement', nowMicros());
    return { testMeasurement: loadMeasurements(ctx.db, [pk])[0] };
  });
}

/** All or nothing: the first invalid measurement fails the batch, naming its index. */
export function createTestMeasurements(ctx: RequestContext, list: readonly TestMeasurementInput[]) {
  return ctx.db.tx(() => {
    const now = nowMicros();
    const ids = list.map((m, i) => insertMeasurement(ctx, m, `test_measurements[${i}]`, now).id);
    return { measurementsCreatedCount: ids.length, measurementIds: ids };
  });
}

export function listTestMeasurements(ctx: RequestContext, req: ListParams) {
  const page = listPage(ctx.db, testMeasurementListSpec, req, callerScope(ctx, 't.report_pk'), ctx.engine.pageTokenSecret);
  return { testMeasurements: loadMeasurements(ctx.db, page.keys), nextPageToken: page.nextPageToken };
}

export function countTestMeasurements(ctx: RequestContext, filter: string | undefined) {
  return { count: countRows(ctx, testMeasurementListSpec, filter, 't.report_pk') };
}

/** update_mask paths UpdateTestMeasurement may change (reference §8); sync pushes these and the platform's request gate checks them. */
export const TEST_MEASUREMENT_UPDATABLE_PATHS = [
  'name',
  'measurement_type',
  'numeric_value',
  'string_value',
  'boolean_value',
  'unit',
  'numeric_bounds',
  'string_bounds',
  'passed',
  'timestamp',
  'description',
  'channel_names',
  'metadata',
] as const;
type Updatable = (typeof TEST_MEASUREMENT_UPDATABLE_PATHS)[number];
const IMMUTABLE = new Set(['measurement_id', 'test_step_id', 'test_report_id']);

/**
 * Oneof members in the mask: a member that is set becomes the value (bounds);
 * a named member that is not set clears the value (bounds) if it was that member.
 */
export function updateTestMeasurement(
  ctx: RequestContext,
  patch: TestMeasurementInput,
  mask: readonly string[] | undefined,
): { testMeasurement: TestMeasurement } {
  const { db, caller } = ctx;
  const paths = checkMask<Updatable>(mask, TEST_MEASUREMENT_UPDATABLE_PATHS, IMMUTABLE);
  const has = (p: Updatable) => paths.includes(p);
  if (!patch.measurementId) throw ApiError.invalid('test_measurement.measurement_id', 'is required');
  return db.tx(() => {
    const row = findVisibleMeasurement(ctx, patch.measurementId!);
    const next: TestMeasurementRow = { ...row };
    if (has('name')) {
      if (!patch.name) throw ApiError.invalid('test_measurement.name', 'must not be empty');
      next.name = patch.name;
    }
    if (has('measurement_type'))
      next.measurement_type = TestMeasurementType.numbers[patch.measurementType ?? 'TEST_MEASUREMENT_TYPE_UNSPECIFIED'];
    const valueMembers = [
      ['numeric_value', VALUE_FIELD.numeric, patch.numericValue],
      ['string_value', VALUE_FIELD.string, patch.stringValue],
      ['boolean_value', VALUE_FIELD.boolean, patch.booleanValue],
    ] as const;
    for (const [path, field, value] of valueMembers) {
      if (!has(path)) continue;
      if (value !== undefined) setValue(next, patch);
      else if (next.value_field === field) setValue(next, {});
    }
    const boundsMembers = [
      ['numeric_bounds', BOUNDS_FIELD.numeric, patch.numericBounds],
      ['string_bounds', BOUNDS_FIELD.string, patch.stringBounds],
    ] as const;
    for (const [path, field, value] of boundsMembers) {
      if (!has(path)) continue;
      if (value !== undefined) setBounds(next, patch);
      else if (next.bounds_field === field) setBounds(next, {});
    }
    checkTypeMatchesValue(measurementTypeName(next.measurement_type), next.value_field, 'test_measurement.measurement_type');
    if (has('unit')) setUnit(next, patch);
    if (has('passed')) next.passed = patch.passed ? 1 : 0;
    if (has('timestamp')) {
      if (patch.timestamp === undefined) throw ApiError.invalid('test_measurement.timestamp', 'is required when named in update_mask');
      next.timestamp = patch.timestamp;
    }
    if (has('description')) next.description = patch.description ?? '';
    const now = nowMicros();
    setTestMeasurementColumns(db, row.pk, {
      name: next.name,
      measurement_type: next.measurement_type,
      value_field: next.value_field,
      numeric_value: next.numeric_value,
      string_value: next.string_value,
      boolean_value: next.boolean_value,
      unit_id: next.unit_id,
      unit_abbreviated_name: next.unit_abbreviated_name,
      bounds_field: next.bounds_field,
      bound_min: next.bound_min,
      bound_max: next.bound_max,
      expected_value: next.expected_value,
      passed: next.passed,
      timestamp: next.timestamp,
      description: next.description,
      modified_date: now,
      modified_by_user_id: caller.userId,
    });
    reportModified(db, row.report_pk, now);
    if (has('channel_names')) replaceTestMeasurementChannelNames(db, row.pk, patch.channelNames ?? []);
    if (has('metadata')) replaceTestMeasurementMetadata(db, row.pk, patch.metadata ?? [], 'test_measurement.metadata');
    return { testMeasurement: loadMeasurements(db, [row.pk])[0] };
  });
}

export function deleteTestMeasurement(ctx: RequestContext, measurementId: string): void {
  ctx.db.tx(() => {
    const row = findVisibleMeasurement(ctx, measurementId);
    deleteTestMeasurementRow(ctx.db, row.pk);
    reportModified(ctx.db, row.report_pk, nowMicros());
  });
}
