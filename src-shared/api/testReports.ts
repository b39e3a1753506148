// sift.test_reports.v1 (reference §8): test reports, their steps and
// measurements, and the import of an uploaded TestStand ATML file.
import { z } from 'zod';
import { defineOperation } from './operation';
import { EmptyOut, listRequest, organizationIdExtensionIn } from './common';
import { MetadataValueIn, MetadataValueOut } from './metadata';
import {
  boolIn,
  doubleIn,
  fieldMaskIn,
  int32In,
  int64Out,
  message,
  nullableTimestampOut,
  outpostExtension,
  protoEnum,
  response,
  SEED_SPEC_FIELD,
  stringListIn,
  timestampIn,
  timestampOut,
} from './wire';

export const TestStatus = protoEnum('TestStatus', {
  TEST_STATUS_UNSPECIFIED: 0,
  TEST_STATUS_DRAFT: 1,
  TEST_STATUS_PASSED: 2,
  TEST_STATUS_FAILED: 3,
  TEST_STATUS_ABORTED: 4,
  TEST_STATUS_ERROR: 5,
  TEST_STATUS_IN_PROGRESS: 6,
  TEST_STATUS_SKIPPED: 7,
});
export type TestStatusName = (typeof TestStatus.names)[number];

export const TestStepType = protoEnum('TestStepType', {
  TEST_STEP_TYPE_UNSPECIFIED: 0,
  TEST_STEP_TYPE_SEQUENCE: 1,
  TEST_STEP_TYPE_GROUP: 2,
  TEST_STEP_TYPE_ACTION: 3,
  TEST_STEP_TYPE_FLOW_CONTROL: 4,
});
export type TestStepTypeName = (typeof TestStepType.names)[number];

// There is no value 2 (reference §8).
export const TestMeasurementType = protoEnum('TestMeasurementType', {
  TEST_MEASUREMENT_TYPE_UNSPECIFIED: 0,
  TEST_MEASUREMENT_TYPE_DOUBLE: 1,
  TEST_MEASUREMENT_TYPE_STRING: 3,
  TEST_MEASUREMENT_TYPE_BOOLEAN: 4,
  TEST_MEASUREMENT_TYPE_LIMIT: 5,
});
export type TestMeasurementTypeName = (typeof TestMeasurementType.names)[number];

/** A double on output: a JSON number, or "NaN" / "Infinity" / "-Infinity" (protobuf JSON). */
export const doubleOut = z.union([z.number(), z.enum(['NaN', 'Infinity', '-Infinity'])]);
export type DoubleOut = z.infer<typeof doubleOut>;
export function doubleToWire(n: number): DoubleOut {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return 'Infinity';
  if (n === -Infinity) return '-Infinity';
  return n;
}

// --- resources -------------------------------------------------------------------------------------

export const TestReportOut = response({
  testReportId: z.string(),
  status: TestStatus.out,
  name: z.string(),
  testSystemName: z.string(),
  testCase: z.string(),
  startTime: timestampOut,
  endTime: timestampOut,
  metadata: z.array(MetadataValueOut),
  serialNumber: z.string(),
  partNumber: z.string(),
  systemOperator: z.string(),
  archivedDate: nullableTimestampOut,
  isArchived: z.boolean(),
  runId: z.string(),
  /** The latest modification of the report, its steps and measurements (seed spec). */
  overallModifiedDate: outpostExtension(timestampOut, SEED_SPEC_FIELD),
});
export type TestReport = z.infer<typeof TestReportOut>;

export const ErrorInfoOut = response({ errorCode: z.number().int(), errorMessage: z.string() });

export const TestStepOut = response({
  testStepId: z.string(),
  testReportId: z.string(),
  parentStepId: z.string(),
  name: z.string(),
  description: z.string(),
  stepType: TestStepType.out,
  stepPath: z.string(),
  status: TestStatus.out,
  startTime: timestampOut,
  endTime: timestampOut,
  errorInfo: ErrorInfoOut.nullable(),
  metadata: z.array(MetadataValueOut),
});
export type TestStep = z.infer<typeof TestStepOut>;

export const UnitOut = response({ unitId: z.string(), abbreviatedName: z.string() });

export const TestMeasurementOut = response({
  measurementId: z.string(),
  measurementType: TestMeasurementType.out,
  name: z.string(),
  testStepId: z.string(),
  testReportId: z.string(),
  // oneof value: only the member that is set appears
  numericValue: doubleOut.optional(),
  stringValue: z.string().optional(),
  booleanValue: z.boolean().optional(),
  unit: UnitOut.nullable(),
  // oneof bounds
  numericBounds: response({ min: doubleOut.optional(), max: doubleOut.optional() }).optional(),
  stringBounds: response({ expectedValue: z.string() }).optional(),
  passed: z.boolean(),
  timestamp: timestampOut,
  description: z.string(),
  channelNames: z.array(z.string()),
  metadata: z.array(MetadataValueOut),
});
export type TestMeasurement = z.infer<typeof TestMeasurementOut>;

// --- requests --------------------------------------------------------------------------------------

export const CreateTestReportRequest = message({
  status: TestStatus.in,
  name: z.string().min(1, 'is required'),
  testSystemName: z.string().min(1, 'is required'),
  testCase: z.string().min(1, 'is required'),
  startTime: timestampIn,
  endTime: timestampIn,
  metadata: z.array(MetadataValueIn).optional(),
  serialNumber: z.string().optional(),
  partNumber: z.string().optional(),
  systemOperator: z.string().optional(),
  runId: z.string().optional(),
  /** Outpost: only needed when the caller belongs to several organizations (the platform request has no such field). */
  organizationId: organizationIdExtensionIn,
});
export type CreateTestReportInput = z.output<typeof CreateTestReportRequest>;

/** The report inside an UpdateTestReportRequest: only mask-named fields are read. */
export const TestReportPatchIn = message({
  testReportId: z.string().min(1, 'is required'),
  status: TestStatus.in.optional(),
  name: z.string().optional(),
  testSystemName: z.string().optional(),
  testCase: z.string().optional(),
  startTime: timestampIn.optional(),
  endTime: timestampIn.optional(),
  serialNumber: z.string().optional(),
  partNumber: z.string().optional(),
  systemOperator: z.string().optional(),
  runId: z.string().optional(),
  isArchived: boolIn.optional(),
});
export type TestReportPatch = z.output<typeof TestReportPatchIn>;

const ErrorInfoIn = message({ errorCode: int32In.optional(), errorMessage: z.string().optional() });

/** A TestStep in Create (parents chosen by the client) and Update (only mask-named fields are read). */
export const TestStepIn = message({
  testStepId: z.string().optional(),
  testReportId: z.string().optional(),
  parentStepId: z.string().optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  stepType: TestStepType.in.optional(),
  stepPath: z.string().optional(),
  status: TestStatus.in.optional(),
  startTime: timestampIn.optional(),
  endTime: timestampIn.optional(),
  errorInfo: ErrorInfoIn.optional(),
  metadata: z.array(MetadataValueIn).optional(),
});
export type TestStepInput = z.output<typeof TestStepIn>;

const oneOf = (keys: readonly string[], oneofName: string) => (v: Record<string, unknown>, ctx: z.RefinementCtx) => {
  const set = keys.filter((k) => v[k] !== undefined);
  if (set.length > 1) ctx.addIssue({ code: 'custom', message: `only one of ${set.join(', ')} may be set (oneof ${oneofName})` });
};

/** A TestMeasurement in Create, batch Create and Update (only mask-named fields are read). */
export const TestMeasurementIn = message({
  measurementId: z.string().optional(),
  measurementType: TestMeasurementType.in.optional(),
  name: z.string().optional(),
  testStepId: z.string().optional(),
  testReportId: z.string().optional(),
  numericValue: doubleIn.optional(),
  stringValue: z.string().optional(),
  booleanValue: boolIn.optional(),
  unit: message({ unitId: z.string().optional(), abbreviatedName: z.string().optional() }).optional(),
  numericBounds: message({ min: doubleIn.optional(), max: doubleIn.optional() }).optional(),
  stringBounds: message({ expectedValue: z.string().optional() }).optional(),
  passed: boolIn.optional(),
  timestamp: timestampIn.optional(),
  description: z.string().optional(),
  channelNames: stringListIn.optional(),
  metadata: z.array(MetadataValueIn).optional(),
})
  .superRefine(oneOf(['numericValue', 'stringValue', 'booleanValue'], 'value'))
  .superRefine(oneOf(['numericBounds', 'stringBounds'], 'bounds'));
export type TestMeasurementInput = z.output<typeof TestMeasurementIn>;

/** Where a report came from (an Outpost extension: the platform's TestReport does not say). */
export const TestReportSourceOut = response({
  testReportId: z.string(),
  /** The uploaded ATML file it was imported from; '' when it was created through the API or pulled from a remote. */
  remoteFileId: z.string(),
  /** When this Outpost stored it: the time of the import for an imported report. */
  createdDate: timestampOut,
});
export type TestReportSource = z.infer<typeof TestReportSourceOut>;

/** The most reports one GetTestReportSources names (a page of the report list is 50). */
export const TEST_REPORT_SOURCES_LIMIT = 200;

const reportBody = { testReport: TestReportOut };
const stepBody = { testStep: TestStepOut };
const measurementBody = { testMeasurement: TestMeasurementOut };
const countRequest = message({ filter: z.string().optional() });

export const testReportOperations = {
  ImportTestReport: defineOperation({
    name: 'ImportTestReport',
    method: 'POST',
    path: '/api/v1/test-reports:import',
    input: 'body',
    tag: 'Test reports',
    summary: 'Import a TestStand ATML report from an uploaded remote file (atomic)',
    request: message({ remoteFileId: z.string().min(1, 'is required') }),
    response: response(reportBody),
  }),
  CreateTestReport: defineOperation({
    name: 'CreateTestReport',
    method: 'POST',
    path: '/api/v1/test-reports',
    input: 'body',
    tag: 'Test reports',
    summary: 'Create a test report',
    request: CreateTestReportRequest,
    response: response(reportBody),
  }),
  GetTestReport: defineOperation({
    name: 'GetTestReport',
    method: 'GET',
    path: '/api/v1/test-reports/{test_report_id}',
    input: 'path',
    tag: 'Test reports',
    summary: 'Get a test report',
    request: message({ testReportId: z.string().min(1, 'is required') }),
    response: response(reportBody),
  }),
  ListTestReports: defineOperation({
    name: 'ListTestReports',
    method: 'GET',
    path: '/api/v1/test-reports',
    input: 'query',
    tag: 'Test reports',
    summary: 'List test reports (default order start_time desc)',
    request: listRequest(),
    response: response({ testReports: z.array(TestReportOut), nextPageToken: z.string() }),
  }),
  GetTestReportSources: defineOperation({
    name: 'GetTestReportSources',
    method: 'GET',
    path: '/api/v1/test-reports:sources',
    input: 'query',
    tag: 'Test reports',
    extension: true,
    summary: `Where each of up to ${TEST_REPORT_SOURCES_LIMIT} test reports came from: the uploaded file it was imported from (its id) and when it was stored here`,
    request: message({
      testReportIds: stringListIn.pipe(
        z
          .array(z.string().min(1, 'must not be empty'))
          .min(1, 'name at least one test report')
          .max(TEST_REPORT_SOURCES_LIMIT, `at most ${TEST_REPORT_SOURCES_LIMIT} test reports`),
      ),
    }),
    response: response({ sources: z.array(TestReportSourceOut) }),
  }),
  UpdateTestReport: defineOperation({
    name: 'UpdateTestReport',
    method: 'PATCH',
    path: '/api/v1/test-reports',
    input: 'body',
    tag: 'Test reports',
    summary: 'Update the fields of a test report named by update_mask (archive = mask isArchived)',
    request: message({ testReport: TestReportPatchIn, updateMask: fieldMaskIn.optional() }),
    response: response(reportBody),
  }),
  DeleteTestReport: defineOperation({
    name: 'DeleteTestReport',
    method: 'DELETE',
    path: '/api/v1/test-reports/{test_report_id}',
    input: 'path',
    tag: 'Test reports',
    summary: 'Delete a test report with its steps and measurements',
    request: message({ testReportId: z.string().min(1, 'is required') }),
    response: EmptyOut,
  }),
  CreateTestStep: defineOperation({
    name: 'CreateTestStep',
    method: 'POST',
    path: '/api/v1/test-steps',
    input: 'body',
    tag: 'Test reports',
    summary: 'Create a test step',
    request: message({ testStep: TestStepIn }),
    response: response(stepBody),
  }),
  ListTestSteps: defineOperation({
    name: 'ListTestSteps',
    method: 'GET',
    path: '/api/v1/test-steps',
    input: 'query',
    tag: 'Test reports',
    summary: 'List test steps (default order step_path asc, natural: 1.9 before 1.10)',
    request: listRequest(),
    response: response({ testSteps: z.array(TestStepOut), nextPageToken: z.string() }),
  }),
  CountTestSteps: defineOperation({
    name: 'CountTestSteps',
    method: 'GET',
    path: '/api/v1/test-steps/count',
    input: 'query',
    tag: 'Test reports',
    summary: 'Count test steps',
    request: countRequest,
    response: response({ count: int64Out }),
  }),
  UpdateTestStep: defineOperation({
    name: 'UpdateTestStep',
    method: 'PATCH',
    path: '/api/v1/test-steps',
    input: 'body',
    tag: 'Test reports',
    summary: 'Update the fields of a test step named by update_mask',
    request: message({ testStep: TestStepIn, updateMask: fieldMaskIn.optional() }),
    response: response(stepBody),
  }),
  DeleteTestStep: defineOperation({
    name: 'DeleteTestStep',
    method: 'DELETE',
    path: '/api/v1/test-steps/{test_step_id}',
    input: 'path',
    tag: 'Test reports',
    summary: 'Delete a test step with its descendant steps and their measurements',
    request: message({ testStepId: z.string().min(1, 'is required') }),
    response: EmptyOut,
  }),
  CreateTestMeasurement: defineOperation({
    name: 'CreateTestMeasurement',
    method: 'POST',
    path: '/api/v1/test-measurements',
    input: 'body',
    tag: 'Test reports',
    summary: 'Create a test measurement',
    request: message({ testMeasurement: TestMeasurementIn }),
    response: response(measurementBody),
  }),
  CreateTestMeasurements: defineOperation({
    name: 'CreateTestMeasurements',
    method: 'POST',
    path: '/api/v1/test-measurements:batch',
    input: 'body',
    tag: 'Test reports',
    summary: 'Create test measurements atomically',
    request: message({
      testMeasurements: z
        .array(TestMeasurementIn)
        .min(1, 'must contain at least one measurement')
        .max(10000, 'at most 10000 measurements per batch'),
    }),
    response: response({ measurementsCreatedCount: z.number().int(), measurementIds: z.array(z.string()) }),
  }),
  ListTestMeasurements: defineOperation({
    name: 'ListTestMeasurements',
    method: 'GET',
    path: '/api/v1/test-measurements',
    input: 'query',
    tag: 'Test reports',
    summary: 'List test measurements (default order timestamp asc)',
    request: listRequest(),
    response: response({ testMeasurements: z.array(TestMeasurementOut), nextPageToken: z.string() }),
  }),
  CountTestMeasurements: defineOperation({
    name: 'CountTestMeasurements',
    method: 'GET',
    path: '/api/v1/test-measurements/count',
    input: 'query',
    tag: 'Test reports',
    summary: 'Count test measurements',
    request: countRequest,
    response: response({ count: int64Out }),
  }),
  UpdateTestMeasurement: defineOperation({
    name: 'UpdateTestMeasurement',
    method: 'PATCH',
    path: '/api/v1/test-measurements',
    input: 'body',
    tag: 'Test reports',
    summary: 'Update the fields of a test measurement named by update_mask',
    request: message({ testMeasurement: TestMeasurementIn, updateMask: fieldMaskIn.optional() }),
    response: response(measurementBody),
  }),
  DeleteTestMeasurement: defineOperation({
    name: 'DeleteTestMeasurement',
    method: 'DELETE',
    path: '/api/v1/test-measurements/{measurement_id}',
    input: 'path',
    tag: 'Test reports',
    summary: 'Delete a test measurement',
    request: message({ measurementId: z.string().min(1, 'is required') }),
    response: EmptyOut,
  }),
} as const;
