// Test steps: create (parents chosen by the client: test_report_id and an
// optional parent_step_id of the same report), list (natural step_path order
// by default), count, update (by mask), delete (with descendant steps and all
// their measurements).
import { randomUUID } from 'node:crypto';
import { TestStatus, TestStepType, type TestStep, type TestStepInput } from '../../../src-shared/api/testReports';
import { nowMicros } from '../../../src-shared/api/time';
import { ApiError } from '../../../src-shared/errors';
import { encodeStepPath, isValidStepPath } from '../../db/encodings/stepPathKey';
import type { RequestContext } from '../../engine';
import { listPage, type ListParams } from '../../filter/listQuery';
import { callerScope, countRows } from './scope';
import { testStepListSpec } from './testReportListSpecs';
import { findVisibleReport, findVisibleStep, loadSteps, type TestStepRow } from './testReportRows';
import { checkMask } from './testReportsService';
import { deleteTestStepSubtree, insertTestStepRow, replaceTestStepMetadata, reportModified, setTestStepColumns } from './testReportStore';

function requireStepPath(path: string | undefined, field: string): string {
  if (path === undefined || path === '') throw ApiError.invalid(field, 'is required');
  if (!isValidStepPath(path)) throw ApiError.invalid(field, `'${path}' is not a dotted step path such as "1" or "1.2.3"`);
  return path;
}

export function createTestStep(ctx: RequestContext, s: TestStepInput): { testStep: TestStep } {
  const { db, caller } = ctx;
  const { testReportId, name, startTime, endTime } = s;
  if (!testReportId) throw ApiError.invalid('test_step.test_report_id', 'is required');
  if (!name) throw ApiError.invalid('test_step.name', 'is required');
  const stepPath = requireStepPath(s.stepPath, 'test_step.step_path');
  if (startTime === undefined) throw ApiError.invalid('test_step.start_time', 'is required');
  if (endTime === undefined) throw ApiError.invalid('test_step.end_time', 'is required');
  if (endTime < startTime) throw ApiError.invalid('test_step.end_time', 'must not be before start_time');
  return db.tx(() => {
    const report = findVisibleReport(ctx, testReportId);
    if (s.parentStepId) {
      const parent = db.get('SELECT 1 FROM test_steps WHERE id = ? AND report_pk = ?', [s.parentStepId, report.pk]);
      if (!parent) throw ApiError.invalid('test_step.parent_step_id', `no step '${s.parentStepId}' in test report ${report.id}`);
    }
    const now = nowMicros();
    const pk = insertTestStepRow(db, {
      id: randomUUID(),
      report_pk: report.pk,
      test_report_id: report.id,
      organization_id: report.organization_id,
      parent_step_id: s.parentStepId ?? '',
      name,
      description: s.description ?? '',
      step_type: TestStepType.numbers[s.stepType ?? 'TEST_STEP_TYPE_UNSPECIFIED'],
      path_key: encodeStepPath(stepPath),
      status: TestStatus.numbers[s.status ?? 'TEST_STATUS_UNSPECIFIED'],
      start_time: startTime,
      end_time: endTime,
      error_code: s.errorInfo ? (s.errorInfo.errorCode ?? 0) : null,
      error_message: s.errorInfo ? (s.errorInfo.errorMessage ?? '') : null,
      created_by_user_id: caller.userId,
      modified_by_user_id: caller.userId,
      created_date: now,
      modified_date: now,
    });
    reportModified(db, report.pk, now);
    replaceTestStepMetadata(db, pk, s.metadata ?? [], 'test_step.metadata');
    return { testStep: loadSteps(db, [pk])[0] };
  });
}

export function listTestSteps(ctx: RequestContext, req: ListParams) {
  const page = listPage(ctx.db, testStepListSpec, req, callerScope(ctx, 't.report_pk'), ctx.engine.pageTokenSecret);
  return { testSteps: loadSteps(ctx.db, page.keys), nextPageToken: page.nextPageToken };
}

export function countTestSteps(ctx: RequestContext, filter: string | undefined) {
  return { count: countRows(ctx, testStepListSpec, filter, 't.report_pk') };
}

/** update_mask paths (reference §8); `test_case` is listed by the platform although TestStep has no such field: accepted, no effect. */
export const TEST_STEP_UPDATABLE_PATHS = [
  'name',
  'description',
  'step_type',
  'step_path',
  'test_case',
  'status',
  'start_time',
  'end_time',
  'error_info',
  'metadata',
] as const;
type Updatable = (typeof TEST_STEP_UPDATABLE_PATHS)[number];
const IMMUTABLE = new Set(['test_step_id', 'test_report_id', 'parent_step_id']);

export function updateTestStep(ctx: RequestContext, patch: TestStepInput, mask: readonly string[] | undefined): { testStep: TestStep } {
  const { db, caller } = ctx;
  const paths = checkMask<Updatable>(mask, TEST_STEP_UPDATABLE_PATHS, IMMUTABLE);
  const has = (p: Updatable) => paths.includes(p);
  if (!patch.testStepId) throw ApiError.invalid('test_step.test_step_id', 'is required');
  return db.tx(() => {
    const row = findVisibleStep(ctx, patch.testStepId!);
    const next: TestStepRow = { ...row };
    if (has('name')) {
      if (!patch.name) throw ApiError.invalid('test_step.name', 'must not be empty');
      next.name = patch.name;
    }
    if (has('description')) next.description = patch.description ?? '';
    if (has('step_type')) next.step_type = TestStepType.numbers[patch.stepType ?? 'TEST_STEP_TYPE_UNSPECIFIED'];
    if (has('step_path')) {
      next.path_key = encodeStepPath(requireStepPath(patch.stepPath, 'test_step.step_path'));
    }
    if (has('status')) next.status = TestStatus.numbers[patch.status ?? 'TEST_STATUS_UNSPECIFIED'];
    if (has('start_time')) {
      if (patch.startTime === undefined) throw ApiError.invalid('test_step.start_time', 'is required when named in update_mask');
      next.start_time = patch.startTime;
    }
    if (has('end_time')) {
      if (patch.endTime === undefined) throw ApiError.invalid('test_step.end_time', 'is required when named in update_mask');
      next.end_time = patch.endTime;
    }
    if (next.end_time < next.start_time) throw ApiError.invalid('test_step.end_time', 'must not be before start_time');
    if (has('error_info')) {
      next.error_code = patch.errorInfo ? (patch.errorInfo.errorCode ?? 0) : null;
      next.error_message = patch.errorInfo ? (patch.errorInfo.errorMessage ?? '') : null;
    }
    const now = nowMicros();
    setTestStepColumns(db, row.pk, {
      name: next.name,
      description: next.description,
      step_type: next.step_type,
      path_key: next.path_key,
      status: next.status,
      start_time: next.start_time,
      end_time: next.end_time,
      error_code: next.error_code,
      error_message: next.error_message,
      modified_date: now,
      modified_by_user_id: caller.userId,
    });
    reportModified(db, row.report_pk, now);
    if (has('metadata')) replaceTestStepMetadata(db, row.pk, patch.metadata ?? [], 'test_step.metadata');
    return { testStep: loadSteps(db, [row.pk])[0] };
  });
}

/** Hard delete of the step and its descendants; their measurements cascade. */
export function deleteTestStep(ctx: RequestContext, testStepId: string): void {
  ctx.db.tx(() => {
    const row = findVisibleStep(ctx, testStepId);
    deleteTestStepSubtree(ctx.db, row.pk, row.report_pk);
    reportModified(ctx.db, row.report_pk, nowMicros());
  });
}
