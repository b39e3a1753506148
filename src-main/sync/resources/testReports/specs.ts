// How test-report writes are recorded and replayed.
//
// ImportTestReport ("upload then import", as the platform's client does): the
// upload is its own entry (../remoteFiles/specs.ts); the import refers to the
// local remote-file id, so it waits for the upload and is sent with the
// remote's file id. The local handler is asynchronous (it parses before its
// one write transaction): its transfer's `asyncWrite` makes the entry commit inside that
// transaction. `send` imports, then lists the steps and measurements the
// remote created, so the local ones can take their ids (children.ts); a
// failure after the import counts as an unknown outcome. An import whose
// outcome is unknown is looked up before any resend:
// a report with the same name, test system, test case, serial and part
// numbers and start/end times, created by us at or after the first send (CEL
// `created_date` filter when the remote has one), that no local record stands
// for. Updates (archive = is_archived) are idempotent and resent; a delete
// that finds nothing is done. CreateTestReport is looked up like an import.
import type { TestMeasurement, TestReport, TestStep } from '../../../../src-shared/api/testReports';
import { ApiError, Code } from '../../../../src-shared/errors';
import { mapLocalId, unclaimed } from '../../idMap';
import { SEND_TIME_SLACK } from '../../time';
import { adoptImportedChildren } from './children';
import { applyTestReports, observedNow, pushedContext, reportFields } from './apply';
import { TEST_MEASUREMENT, TEST_REPORT, TEST_STEP } from './shapes';
import { formatTimestamp } from '../../../../src-shared/api/time';
import { canonical } from '../../canonical';
import { baseFields } from '../../merge';
import { classify } from '../../retry';
import type { Db } from '../../../db/database';
import type { CreatedRef, OutboxEntry } from '../../types';
import {
  asValidated,
  defineSpec,
  onlyNewRecords,
  retryAsAsked,
  type OpSpec,
  type PushContext,
  type StoredRequest,
  type WireRequest,
  type WireResponse,
} from '../../spec';
import { deleteById, updateByMask, wireRequest, type WireMembers } from '../../specForms';
import { metadataOut, ts } from '../../wireEncode';
import { listAll, quote } from '../../remoteQuery';

/** What an import sent and the remote created. */
interface ImportResult {
  testReport: TestReport;
  testSteps: TestStep[];
  testMeasurements: TestMeasurement[];
}

/** The steps and measurements of a remote report, in creation order (= document order for an import). */
async function withChildren(p: PushContext, report: TestReport): Promise<ImportResult> {
  const id = report.testReportId;
  const byReport = `test_report_id == ${quote(id)}`;
  const testSteps = await listAll<TestStep>(p, 'ListTestSteps', 'testSteps', byReport, (s) => s.testReportId === id, {
    orderBy: 'created_date',
  });
  const testMeasurements = await listAll<TestMeasurement>(
    p,
    'ListTestMeasurements',
    'testMeasurements',
    byReport,
    (m) => m.testReportId === id,
    { orderBy: 'created_date' },
  );
  return { testReport: report, testSteps, testMeasurements };
}

/** The values a local report was created with (the merge base kept for an offline create, import or CreateTestReport). */
export const createdReportFields = (p: Pick<PushContext, 'db'>, localReportId: string) => baseFields(p.db, TEST_REPORT, localReportId);

/** The fields an import lookup compares (archive state and run are not set by an import). */
const IDENTITY = ['name', 'test_system_name', 'test_case', 'serial_number', 'part_number', 'start_time', 'end_time'] as const;
export const sameImport = (want: Record<string, unknown>, r: TestReport) => {
  const got = reportFields(r);
  return IDENTITY.every((f) => canonical(want[f]) === canonical(got[f]));
};

/** `created_date` at or after the first send (with the usual slack), as a CEL clause. */
export const createdSince = (entry: Pick<OutboxEntry, 'firstSentServerTime'>) =>
  entry.firstSentServerTime === null
    ? ''
    : ` && created_date >= timestamp('${formatTimestamp(Math.max(0, entry.firstSentServerTime - SEND_TIME_SLACK))}')`;

/** A report created by us at or after the first send with the created report's values, that no local record stands for. */
async function findNewReport(
  p: PushContext,
  entry: Pick<OutboxEntry, 'createdIds' | 'firstSentServerTime'>,
): Promise<TestReport | undefined> {
  const want = createdReportFields(p, entry.createdIds[0].id);
  if (!want) return undefined;
  const filter = `name == ${quote(String(want.name))} && created_by_user_id == ${quote(p.userId)}${createdSince(entry)}`;
  const candidates = await listAll<TestReport>(p, 'ListTestReports', 'testReports', filter, (r) => sameImport(want, r));
  return candidates.find((r) => unclaimed(p.db, 'test_reports', r.testReportId));
}

async function findImport(
  p: PushContext,
  entry: Pick<OutboxEntry, 'createdIds' | 'firstSentServerTime'>,
): Promise<ImportResult | undefined> {
  const found = await findNewReport(p, entry);
  return found && withChildren(p, found);
}

/** A failure after the remote may have imported: never a plain resend (a 429 would otherwise count as "nothing happened"). */
function asUnknownOutcome(e: unknown): unknown {
  const f = classify(e);
  if (f.kind === 'auth') return e;
  return new ApiError(Code.UNAVAILABLE, `ImportTestReport: listing what the import created failed (${f.message})`);
}

const applyReport = (p: PushContext, entry: Pick<OutboxEntry, 'seq'>, report: TestReport) => {
  const organizationId =
    p.db.get<{ organization_id: string }>('SELECT organization_id FROM test_reports WHERE id = ?', [report.testReportId])
      ?.organization_id ?? '';
  applyTestReports(pushedContext(p, entry), [report], {
    organizationId,
    remoteTime: observedNow(p.clockOffset),
  });
};

function importedChildren(db: Db, reportId: string): CreatedRef[] {
  return [
    ...db
      .all<{ id: string }>('SELECT id FROM test_steps WHERE test_report_id = ? ORDER BY pk', [reportId])
      .map((r) => ({ resource: TEST_STEP, id: r.id })),
    ...db
      .all<{ id: string }>('SELECT id FROM test_measurements WHERE test_report_id = ? ORDER BY pk', [reportId])
      .map((r) => ({ resource: TEST_MEASUREMENT, id: r.id })),
  ];
}

export const importTestReportSpec = defineSpec<'ImportTestReport', ImportResult>({
  operation: 'ImportTestReport',
  ...onlyNewRecords,
  create: {
    // The report, and its steps and measurements: edits of those made before the push wait for it (their ids are unmapped).
    created: (_req, res, db) => [
      { resource: TEST_REPORT, id: res.testReport.testReportId },
      ...importedChildren(db, res.testReport.testReportId),
    ],
    find: findImport,
    // (Discarded with its steps and measurements, which its created ids list too.)
    refused: retryAsAsked,
  },
  transfer: {
    asyncWrite: true,
    stored: asValidated,
    async send(p, request) {
      const res = await p.call('ImportTestReport', request);
      try {
        return await withChildren(p, res.testReport);
      } catch (e) {
        throw asUnknownOutcome(e);
      }
    },
  },
  encode: (req) => ({ remoteFileId: req.remoteFileId }),
  applyResult(p, entry, res) {
    mapLocalId(p, TEST_REPORT, entry.createdIds[0].id, res.testReport.testReportId);
    applyReport(p, entry, res.testReport);
    adoptImportedChildren(
      pushedContext(p, entry),
      entry.seq,
      entry.createdIds,
      res.testReport.testReportId,
      res.testSteps,
      res.testMeasurements,
      observedNow(p.clockOffset),
    );
  },
});

export const createTestReportSpec = defineSpec<'CreateTestReport', WireResponse<'CreateTestReport'> | TestReport>({
  operation: 'CreateTestReport',
  ...onlyNewRecords,
  create: {
    created: (_req, res) => [{ resource: TEST_REPORT, id: res.testReport.testReportId }],
    find: findNewReport,
    refused: retryAsAsked,
  },
  encode: (req) =>
    wireRequest(req, {
      startTime: (r) => ts(r.startTime),
      endTime: (r) => ts(r.endTime),
      metadata: (r) => metadataOut(r.metadata),
      runId: (r) => r.runId || undefined,
    }) as WireRequest<'CreateTestReport'>,
  applyResult(p, entry, res) {
    const report = 'testReport' in res ? res.testReport : res;
    mapLocalId(p, TEST_REPORT, entry.createdIds[0].id, report.testReportId);
    applyReport(p, entry, report);
  },
});

/** A report's mask paths whose wire value is not its member as it is. */
const REPORT_WIRE: WireMembers<StoredRequest<'UpdateTestReport'>['testReport']> = {
  startTime: (r) => ts(r.startTime),
  endTime: (r) => ts(r.endTime),
  serialNumber: (r) => r.serialNumber ?? '',
  partNumber: (r) => r.partNumber ?? '',
  systemOperator: (r) => r.systemOperator ?? '',
  runId: (r) => r.runId ?? '',
  isArchived: (r) => r.isArchived ?? false,
};

export const updateTestReportSpec = updateByMask({
  operation: 'UpdateTestReport',
  resource: TEST_REPORT,
  values: 'testReport',
  id: 'testReportId',
  wire: REPORT_WIRE,
  applyResult: (p, entry, res) => applyReport(p, entry, res.testReport),
});

export const deleteTestReportSpec = deleteById('DeleteTestReport', TEST_REPORT, 'testReportId');

export const testReportSpecs: readonly OpSpec[] = [importTestReportSpec, createTestReportSpec, updateTestReportSpec, deleteTestReportSpec];
