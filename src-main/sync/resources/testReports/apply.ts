// Test reports as a replicated resource. Synced fields: the ones
// UpdateTestReport may change (status, name, test_system_name, test_case,
// start_time, end_time, serial_number, part_number, system_operator, run_id,
// is_archived). Metadata is set at creation only (not updatable through the
// API) and is simply taken from the remote.
//
// The wire TestReport carries neither organization_id nor created/modified
// dates: a pulled report goes to the organization of a local report with its
// id, else the sync user's first organization; "unchanged" means same synced
// fields and metadata; and a remote change is dated when a pull first sees it
// (observedNow), so when both sides changed a field the remote's value wins
// and the local one goes to the conflict log (undo writes a report's value back
// through UpdateTestReport: descriptor.ts).
// Delete is a hard delete upstream (steps and measurements go with it): each
// pull reads every report and reconciles deletions, like saved searches.
import type { TestReport } from '../../../../src-shared/api/testReports';
import { TestStatus } from '../../../../src-shared/api/testReports';
import { TEST_REPORT_UPDATABLE_PATHS } from '../../../services/testReports/testReportsService';
import { loadMetadata } from '../../../db/childRows';
import type { Db } from '../../../db/database';
import { statusName, type TestReportRow } from '../../../services/testReports/testReportRows';
import {
  insertTestReportRow,
  keepOverallModifiedDate,
  replaceTestReportMetadata,
  setTestReportColumns,
} from '../../../services/testReports/testReportStore';
import type { Applier, ApplyContext } from '../../apply';
import { canonical } from '../../canonical';
import { mergeFields } from '../../merge';
import { hasPending } from '../../outbox';
import { wireMicros } from '../../time';
import { ensureOrganization } from '../../identity';

export const TEST_REPORT = 'test_report';

/** Its synced fields: the paths UpdateTestReport changes. */
export const TEST_REPORT_FIELDS = TEST_REPORT_UPDATABLE_PATHS;

/** Synced fields of a wire report (times as epoch micros). */
export function reportFields(r: TestReport): Record<string, unknown> {
  return {
    status: r.status,
    name: r.name,
    test_system_name: r.testSystemName,
    test_case: r.testCase,
    start_time: wireMicros(r.startTime),
    end_time: wireMicros(r.endTime),
    serial_number: r.serialNumber ?? '',
    part_number: r.partNumber ?? '',
    system_operator: r.systemOperator ?? '',
    run_id: r.runId ?? '',
    is_archived: r.isArchived ?? false,
  };
}

function rowFields(r: TestReportRow): Record<string, unknown> {
  return {
    status: statusName(r.status),
    name: r.name,
    test_system_name: r.test_system_name,
    test_case: r.test_case,
    start_time: r.start_time,
    end_time: r.end_time,
    serial_number: r.serial_number,
    part_number: r.part_number,
    system_operator: r.system_operator,
    run_id: r.run_id,
    is_archived: r.archived_date !== null,
  };
}

const rowOf = (db: Db, id: string) => db.get<TestReportRow>('SELECT * FROM test_reports WHERE id = ?', [id]);

export function snapshotTestReport(db: Db, id: string): { version: number; fields: Record<string, unknown> } | undefined {
  const r = rowOf(db, id);
  return r && { version: r.modified_date, fields: rowFields(r) };
}

const metadataText = (db: Db, pk: number) => canonical(loadMetadata(db, 'test_report_metadata', 'report_pk', [pk]).get(pk) ?? []);

/** Writes one synced field onto the local row (the remote's value won or was the only change). */
function writeField(db: Db, pk: number, r: TestReport, field: string, value: unknown): void {
  switch (field) {
    case 'status':
      setTestReportColumns(db, pk, { status: TestStatus.numbers[value as keyof typeof TestStatus.numbers] ?? 0 });
      break;
    case 'is_archived':
      setTestReportColumns(db, pk, { archived_date: value ? (wireMicros(r.archivedDate) ?? Date.now() * 1000) : null });
      break;
    case 'start_time':
    case 'end_time':
      setTestReportColumns(db, pk, { [field]: Number(value) });
      break;
    default:
      if ((TEST_REPORT_FIELDS as readonly string[]).includes(field)) setTestReportColumns(db, pk, { [field]: String(value ?? '') });
  }
}

function insertReport(db: Db, r: TestReport, organizationId: string, userId: string, now: number): number {
  ensureOrganization(db, organizationId);
  return insertTestReportRow(db, {
    id: r.testReportId,
    organization_id: organizationId,
    status: TestStatus.numbers[r.status] ?? 0,
    name: r.name,
    test_system_name: r.testSystemName,
    test_case: r.testCase,
    start_time: wireMicros(r.startTime) ?? 0,
    end_time: wireMicros(r.endTime) ?? 0,
    serial_number: r.serialNumber ?? '',
    part_number: r.partNumber ?? '',
    system_operator: r.systemOperator ?? '',
    run_id: r.runId ?? '',
    archived_date: wireMicros(r.archivedDate),
    created_by_user_id: userId,
    modified_by_user_id: userId,
    created_date: now,
    modified_date: now,
  });
}

/**
 * When a remote state read now is dated, in the local edit-time frame corrected like edit times are
 * (the wire has no modified_date): later than every edit already made here, so when both sides changed a
 * field the remote's value wins, consistently, and the local one goes to the conflict log.
 */
export const observedNow = (clockOffset: number) => Date.now() * 1000 + clockOffset;

export interface ReportApplyOptions {
  /** Organization of reports not held locally yet (the wire report has none). */
  readonly organizationId: string;
  /** When the remote state was read (observedNow): the date of a remote change. */
  readonly remoteTime: number;
  /** Remote reports not to take in (yet), e.g. one an import in flight may have created (its lookup adopts it). */
  readonly skipNew?: (r: TestReport) => boolean;
}

/**
 * The remote's overall modified date (the latest change of the report, its steps and measurements there), kept as it
 * is while no edit of ours waits: a bookkeeping date, not a change of the report (the pull counts nothing for it).
 */
function keepRemoteOverall(db: Db, pk: number, r: TestReport): void {
  const overall = wireMicros(r.overallModifiedDate);
  if (overall !== null) keepOverallModifiedDate(db, pk, overall);
}

export function applyTestReports(ctx: ApplyContext, list: readonly TestReport[], o: ReportApplyOptions): void {
  const { db } = ctx;
  for (const r of list) {
    const row = rowOf(db, r.testReportId);
    if (!row) {
      // A report deleted here and not yet deleted there stays deleted; one an import in flight may have made waits for its lookup.
      if (hasPending(db, TEST_REPORT, r.testReportId, ctx.excludeSeq) || o.skipNew?.(r)) continue;
      const pk = insertReport(db, r, o.organizationId, ctx.userId, o.remoteTime);
      replaceTestReportMetadata(db, pk, r.metadata as never);
      keepRemoteOverall(db, pk, r);
      ctx.stats.inserted++;
      continue;
    }
    const remote = reportFields(r);
    const metadataChanged = metadataText(db, row.pk) !== canonical(r.metadata ?? []);
    if (metadataChanged) replaceTestReportMetadata(db, row.pk, r.metadata as never);
    if (!hasPending(db, TEST_REPORT, row.id, ctx.excludeSeq)) {
      const local = rowFields(row);
      const changed = TEST_REPORT_FIELDS.filter((f) => canonical(local[f]) !== canonical(remote[f]));
      for (const f of changed) writeField(db, row.pk, r, f, remote[f]);
      if (changed.length || metadataChanged) setTestReportColumns(db, row.pk, { modified_date: o.remoteTime });
      db.run('DELETE FROM sync_base WHERE resource = ? AND record_id = ?', [TEST_REPORT, row.id]);
      keepRemoteOverall(db, row.pk, r);
      if (changed.length || metadataChanged) ctx.stats.updated++;
      else ctx.stats.unchanged++;
      continue;
    }
    // Merged: counted as updated only when something was written (a re-read of the version already merged writes nothing).
    let written = metadataChanged;
    mergeFields(ctx, {
      resource: TEST_REPORT,
      recordId: row.id,
      local: rowFields(row),
      remote,
      remoteTime: o.remoteTime,
      write: (field, value) => {
        writeField(db, row.pk, r, field, value);
        written = true;
      },
    });
    if (written) ctx.stats.updated++;
    else ctx.stats.unchanged++;
  }
}

/** The apply context for test reports (they are applied outside the shared Applier). */
export function testReportContext(applier: Applier, clockOffset: number, excludeSeq?: number): ApplyContext {
  return applier.context({ clockOffset, excludeSeq });
}
