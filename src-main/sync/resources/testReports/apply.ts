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
import type { Db } from '../../../db/database';
import {
  insertTestReportRow,
  keepOverallModifiedDate,
  replaceTestReportMetadata,
  setTestReportColumns,
} from '../../../services/testReports/testReportStore';
import { loadReports } from '../../../services/testReports/testReportRows';
import type { ApplyContext } from '../../apply';
import type { SyncSession } from '../../session';
import type { PushContext } from '../../spec';
import type { OutboxEntry } from '../../types';
import { canonical } from '../../canonical';
import { forgetBase } from '../../merge';
import { hasPending } from '../../outbox';
import { differing, mergeRecord, rowOf, syncedFields, writeField } from '../../recordShape';
import { wireMicros } from '../../time';
import { ensureOrganization } from '../../identity';
import { TEST_REPORT, TEST_REPORT_SHAPE } from './shapes';

/** Synced fields of a wire report (times as epoch micros). */
export const reportFields = (r: TestReport) => syncedFields(TEST_REPORT_SHAPE, r);

function insertReport(db: Db, r: TestReport, organizationId: string, userId: string, now: number): number {
  ensureOrganization(db, organizationId);
  return insertTestReportRow(db, {
    id: r.testReportId,
    organization_id: organizationId,
    ...rowOf(TEST_REPORT_SHAPE, r),
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
    const row = db.get<{ pk: number; id: string }>('SELECT pk, id FROM test_reports WHERE id = ?', [r.testReportId]);
    if (!row) {
      // A report deleted here and not yet deleted there stays deleted; one an import in flight may have made waits for its lookup.
      if (hasPending(db, TEST_REPORT, r.testReportId, ctx.excludeSeq) || o.skipNew?.(r)) continue;
      const pk = insertReport(db, r, o.organizationId, ctx.userId, o.remoteTime);
      replaceTestReportMetadata(db, pk, r.metadata as never);
      keepRemoteOverall(db, pk, r);
      ctx.stats.inserted++;
      continue;
    }
    const [here] = loadReports(db, [row.pk]);
    const metadataChanged = canonical(here.metadata) !== canonical(r.metadata ?? []);
    if (metadataChanged) replaceTestReportMetadata(db, row.pk, r.metadata as never);
    if (!hasPending(db, TEST_REPORT, row.id, ctx.excludeSeq)) {
      const changed = differing(TEST_REPORT_SHAPE, reportFields(here), reportFields(r));
      for (const f of changed) writeField(TEST_REPORT_SHAPE, db, row.pk, f, r);
      if (changed.length || metadataChanged) setTestReportColumns(db, row.pk, { modified_date: o.remoteTime });
      forgetBase(db, TEST_REPORT, row.id);
      keepRemoteOverall(db, row.pk, r);
      if (changed.length || metadataChanged) ctx.stats.updated++;
      else ctx.stats.unchanged++;
      continue;
    }
    // Merged: counted as updated only when something was written (a re-read of the version already merged writes nothing).
    if (mergeRecord(ctx, TEST_REPORT_SHAPE, row, r, o.remoteTime) || metadataChanged) ctx.stats.updated++;
    else ctx.stats.unchanged++;
  }
}

// Test reports are applied outside the shared Applier's clock offset: the pull's or push's own.
/** The apply context of a pull. */
export const pulledContext = (s: SyncSession): ApplyContext => s.applier.context({ clockOffset: s.remote.clockOffset() });
/** The apply context of the remote's answer to `entry`. */
export const pushedContext = (p: PushContext, entry: Pick<OutboxEntry, 'seq'>): ApplyContext =>
  p.apply.context({ clockOffset: p.clockOffset, excludeSeq: entry.seq });
