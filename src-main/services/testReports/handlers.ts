// TestReportService operations -> the report, step, measurement and import services.
import type { testReportOperations } from '../../../src-shared/api/testReports';
import type { HandlerMap } from '../common/handler';
import { importTestReport } from './importTestReport';
import {
  countTestMeasurements,
  createTestMeasurement,
  createTestMeasurements,
  deleteTestMeasurement,
  listTestMeasurements,
  updateTestMeasurement,
} from './testMeasurementsService';
import {
  createTestReport,
  deleteTestReport,
  getTestReport,
  getTestReportSources,
  listTestReports,
  updateTestReport,
} from './testReportsService';
import { countTestSteps, createTestStep, deleteTestStep, listTestSteps, updateTestStep } from './testStepsService';

export const testReportHandlers: HandlerMap<typeof testReportOperations> = {
  ImportTestReport: (ctx, req) => importTestReport(ctx, req.remoteFileId),
  CreateTestReport: (ctx, req) => createTestReport(ctx, req),
  GetTestReport: (ctx, req) => getTestReport(ctx, req.testReportId),
  ListTestReports: (ctx, req) => listTestReports(ctx, req),
  GetTestReportSources: (ctx, req) => getTestReportSources(ctx, req.testReportIds),
  UpdateTestReport: (ctx, req) => updateTestReport(ctx, req.testReport, req.updateMask),
  DeleteTestReport: (ctx, req) => (deleteTestReport(ctx, req.testReportId), {}),
  CreateTestStep: (ctx, req) => createTestStep(ctx, req.testStep),
  ListTestSteps: (ctx, req) => listTestSteps(ctx, req),
  CountTestSteps: (ctx, req) => countTestSteps(ctx, req.filter),
  UpdateTestStep: (ctx, req) => updateTestStep(ctx, req.testStep, req.updateMask),
  DeleteTestStep: (ctx, req) => (deleteTestStep(ctx, req.testStepId), {}),
  CreateTestMeasurement: (ctx, req) => createTestMeasurement(ctx, req.testMeasurement),
  CreateTestMeasurements: (ctx, req) => createTestMeasurements(ctx, req.testMeasurements),
  ListTestMeasurements: (ctx, req) => listTestMeasurements(ctx, req),
  CountTestMeasurements: (ctx, req) => countTestMeasurements(ctx, req.filter),
  UpdateTestMeasurement: (ctx, req) => updateTestMeasurement(ctx, req.testMeasurement, req.updateMask),
  DeleteTestMeasurement: (ctx, req) => (deleteTestMeasurement(ctx, req.measurementId), {}),
};
