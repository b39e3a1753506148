// Test reports: create, get, list, update (by mask; archive = is_archived),
// hard delete (steps and measurements go with the report).
import { randomUUID } from 'node:crypto';
import {
  TestStatus,
  type CreateTestReportInput,
  type TestReport,
  type TestReportPatch,
  type TestReportSource,
} from '../../../src-shared/api/testReports';
import { formatTimestamp, nowMicros } from '../../../src-shared/api/time';
import { ApiError } from '../../../src-shared/errors';
import { resolveOrganization } from '../../auth/caller';
import type { RequestContext } from '../../engine';
import { listPage, type ListParams } from '../../filter/listQuery';
import { assertRunExists } from '../reference/resolve';
import { callerScope } from './scope';
import { testReportListSpec } from './testReportListSpecs';
import { findVisibleReport, loadReports, type TestReportRow } from './testReportRows';
import { deleteTestReportRow, insertTestReportRow, replaceTestReportMetadata, setTestReportColumns } from './testReportStore';

export function createTestReport(ctx: RequestContext, req: CreateTestReportInput): { testReport: TestReport } {
  const { db, caller } = ctx;
  const organizationId = resolveOrganization(caller, req.organizationId);
  if (req.endTime < req.startTime) throw ApiError.invalid('end_time', 'must not be before start_time');
  return db.tx(() => {
    if (req.runId) assertRunExists(db, organizationId, req.runId);
    const now = nowMicros();
    const pk = insertTestReportRow(db, {
      id: randomUUID(),
      organization_id: organizationId,
      status: TestStatus.numbers[req.status],
      name: req.name,
      test_system_name: req.testSystemName,
      test_case: req.testCase,
      start_time: req.startTime,
      end_time: req.endTime,
      serial_number: req.serialNumber ?? '',
      part_number: req.partNumber ?? '',
      system_operator: req.systemOperator ?? '',
      run_id: req.runId ?? '',
      created_by_user_id: caller.userId,
      modified_by_user_id: caller.userId,
      created_date: now,
      modified_date: now,
    });
    replaceTestReportMetadata(db, pk, req.metadata ?? []);
    return { testReport: loadReports(db, [pk])[0] };
  });
}

export function getTestReport(ctx: RequestContext, testReportId: string): { testReport: TestReport } {
  return { testReport: loadReports(ctx.db, [findVisibleReport(ctx, testReportId).pk])[0] };
}

/** Where each named report came from (its import's file and time); a report not found here is NOT_FOUND. */
export function getTestReportSources(ctx: RequestContext, testReportIds: readonly string[]): { sources: TestReportSource[] } {
  const sources = [...new Set(testReportIds)].map((id) => {
    const row = findVisibleReport(ctx, id);
    return { testReportId: row.id, remoteFileId: row.source_remote_file_id ?? '', createdDate: formatTimestamp(row.created_date) };
  });
  return { sources };
}

export function listTestReports(ctx: RequestContext, req: ListParams) {
  const page = listPage(ctx.db, testReportListSpec, req, callerScope(ctx, 't.pk'), ctx.engine.pageTokenSecret);
  return { testReports: loadReports(ctx.db, page.keys), nextPageToken: page.nextPageToken };
}

/** update_mask paths UpdateTestReport may change (reference §8 "Updatable"); sync merges and pushes these, the platform's request gate checks them. */
export const TEST_REPORT_UPDATABLE_PATHS = [
  'status',
  'name',
  'test_system_name',
  'test_case',
  'start_time',
  'end_time',
  'serial_number',
  'part_number',
  'system_operator',
  'run_id',
  'is_archived',
] as const;
type Updatable = (typeof TEST_REPORT_UPDATABLE_PATHS)[number];
const IMMUTABLE = new Set(['test_report_id', 'metadata', 'archived_date']);

export function checkMask<P extends string>(
  mask: readonly string[] | undefined,
  updatable: readonly P[],
  immutable: ReadonlySet<string>,
): P[] {
  if (!mask || mask.length === 0) throw ApiError.invalid('update_mask', 'is required: name the fields to update');
  const out = new Set<P>();
  for (const p of mask) {
    if ((updatable as readonly string[]).includes(p)) out.add(p as P);
    else if (immutable.has(p)) throw ApiError.invalid('update_mask', `field '${p}' cannot be updated`);
    else throw ApiError.invalid('update_mask', `unknown field '${p}'; updatable fields: ${updatable.join(', ')}`);
  }
  return [...out];
}

export function updateTestReport(
  ctx: RequestContext,
  patch: TestReportPatch,
  mask: readonly string[] | undefined,
): { testReport: TestReport } {
  const { db, caller } = ctx;
  const paths = checkMask<Updatable>(mask, TEST_REPORT_UPDATABLE_PATHS, IMMUTABLE);
  const has = (p: Updatable) => paths.includes(p);
  return db.tx(() => {
    const row = findVisibleReport(ctx, patch.testReportId);
    const next: TestReportRow = { ...row };
    const nonEmpty = (field: string, v: string | undefined) => {
      if (!v) throw ApiError.invalid(`test_report.${field}`, 'must not be empty');
      return v;
    };
    if (has('status')) next.status = TestStatus.numbers[patch.status ?? 'TEST_STATUS_UNSPECIFIED'];
    if (has('name')) next.name = nonEmpty('name', patch.name);
    if (has('test_system_name')) next.test_system_name = nonEmpty('test_system_name', patch.testSystemName);
    if (has('test_case')) next.test_case = nonEmpty('test_case', patch.testCase);
    if (has('start_time')) {
      if (patch.startTime === undefined) throw ApiError.invalid('test_report.start_time', 'is required when named in update_mask');
      next.start_time = patch.startTime;
    }
    if (has('end_time')) {
      if (patch.endTime === undefined) throw ApiError.invalid('test_report.end_time', 'is required when named in update_mask');
      next.end_time = patch.endTime;
    }
    if (next.end_time < next.start_time) throw ApiError.invalid('test_report.end_time', 'must not be before start_time');
    if (has('serial_number')) next.serial_number = patch.serialNumber ?? '';
    if (has('part_number')) next.part_number = patch.partNumber ?? '';
    if (has('system_operator')) next.system_operator = patch.systemOperator ?? '';
    if (has('run_id')) {
      next.run_id = patch.runId ?? '';
      if (next.run_id) assertRunExists(db, row.organization_id, next.run_id, 'test_report.run_id');
    }
    const now = nowMicros();
    if (has('is_archived')) {
      const archive = patch.isArchived ?? false;
      if (archive && row.archived_date === null) next.archived_date = now;
      if (!archive) next.archived_date = null;
    }
    setTestReportColumns(db, row.pk, {
      status: next.status,
      name: next.name,
      test_system_name: next.test_system_name,
      test_case: next.test_case,
      start_time: next.start_time,
      end_time: next.end_time,
      serial_number: next.serial_number,
      part_number: next.part_number,
      system_operator: next.system_operator,
      run_id: next.run_id,
      archived_date: next.archived_date,
      modified_date: now,
      modified_by_user_id: caller.userId,
      overall_modified_date: now,
    });
    return { testReport: loadReports(db, [row.pk])[0] };
  });
}

/** Hard delete; the report's steps and measurements (and their metadata) cascade. */
export function deleteTestReport(ctx: RequestContext, testReportId: string): void {
  ctx.db.tx(() => {
    const row = findVisibleReport(ctx, testReportId);
    deleteTestReportRow(ctx.db, row.pk);
  });
}
