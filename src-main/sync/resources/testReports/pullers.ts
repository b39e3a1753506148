// Pulls test reports, their steps and their measurements.
//
// Reports: the wire TestReport has no modified_date (nor created_date), so no
// (modified_date, id) cursor can be read from a page. Each pull reads every
// report (pages of 1000; the list covers all the caller's organizations,
// archived ones included: archives are state) and merges what differs; the
// full read is also what reconciles hard deletions upstream (like saved
// searches). A remote report an import or a report create in flight may have
// made is left for that entry's lookup (it adopts it instead of sending again).
//
// Steps and measurements: incremental on the documented `modified_date`
// filter. Their pages carry no dates either, so the cursor is the server time
// taken just before the first request (anything committed later is in the
// next window; the 30 s overlap covers late commits), saved once the last
// page is applied. (A remote that refused an earlier puller's modified_date
// filter in the same run, i.e. has no filter engine, is read in full.)
// A step whose report is not here yet (created after the
// reports were read) brings its report first; likewise a measurement its step.
// A step or measurement deleted upstream on its own leaves no trace here: a
// periodic full listing reconciles those (deletionPullers.ts).
import type { TestMeasurement, TestReport, TestStep } from '../../../../src-shared/api/testReports';
import { formatTimestamp } from '../../../../src-shared/api/time';
import { ApiError, Code } from '../../../../src-shared/errors';
import { changedBy } from '../../apply';
import { callWithRetry, countPulled, withoutCollisions, type Puller } from '../../pull';
import { upsertMeasurements, upsertSteps } from './children';
import { applyTestReports, observedNow, pulledContext } from './apply';
import { TEST_MEASUREMENT, TEST_REPORT, TEST_STEP } from './shapes';
import { removeUnlisted } from '../../deletions';
import { testReportRows } from '../../../services/testReports/testReportStore';
import type { SyncSession } from '../../session';
import { filterUnsupported, listEvery, quote } from '../../remoteQuery';
import { createdReportFields, sameImport } from './specs';
import { sameMeasurement } from './measurementSpecs';
import { sameStep } from './stepSpecs';
import { translateIds } from '../../idMap';
import { inflightSent } from '../../inflightCreates';
import type { OperationName } from '../../../../src-shared/operations';
import type { StoredRequest } from '../../wireTypes';

const organizationOf = (s: SyncSession) => s.identity.organizations[0]?.id ?? '';

/**
 * Remote reports that imports or report creates in flight (sent, outcome not known yet) may have created. Taken in
 * as reports of their own, they would be "held locally" when the entry's lookup runs, and it would send them again.
 */
function inflightCreateMatcher(s: SyncSession): (r: TestReport) => boolean {
  const wanted = [...inflightSent(s.db, 'ImportTestReport'), ...inflightSent(s.db, 'CreateTestReport')]
    .map((e) => createdReportFields(s, e.localId))
    .filter((f): f is Record<string, unknown> => f !== undefined);
  return (r) => wanted.some((w) => sameImport(w, r));
}

/** Returns how many reports were inserted or changed here (an unchanged one counts 0). */
function applyReports(s: SyncSession, reports: readonly TestReport[]): number {
  return changedBy(s.applier.stats, () =>
    s.db.tx(() =>
      applyTestReports(pulledContext(s), reports, {
        organizationId: organizationOf(s),
        remoteTime: observedNow(s.remote.clockOffset()),
        skipNew: inflightCreateMatcher(s),
      }),
    ),
  );
}

export const testReportsPuller: Puller<TestReport> = {
  resource: 'test_reports',
  collisions: { table: 'test_reports', kind: TEST_REPORT },
  // Not read again after the push: every push of them applies the remote's answer already, and their pull is a full
  // read (the platform cannot filter reports by modified_date): too costly to repeat for nothing.
  readAgain: 'never',
  operation: 'ListTestReports',
  listField: 'testReports',
  listing: {
    by: 'whole',
    settle(s, _variant, seen) {
      const organizations = s.identity.organizations.map((o) => o.id);
      removeUnlisted(s.db, TEST_REPORT, testReportRows, organizations, seen);
    },
  },
  idOf: (r) => r.testReportId,
  variants: () => [{}],
  /** Counts reports inserted or changed here (the full read of every run finds the others unchanged). */
  apply(s, items) {
    return applyReports(s, items);
  },
};

// ---- steps and measurements: server-time watermarks ----------------------

const windowStart = new WeakMap<SyncSession, Map<string, number>>();

function watermarkVariant(s: SyncSession, key: string): Record<string, unknown>[] {
  const starts = windowStart.get(s) ?? new Map<string, number>();
  windowStart.set(s, starts);
  starts.set(key, s.remote.serverNow());
  const row = s.db.get<{ modified_date: number }>('SELECT modified_date FROM sync_cursors WHERE resource = ?', [key]);
  // A remote whose filter engine refused an earlier puller's modified_date filter in this run: read in full.
  const refused = [...s.features.celFilter].some(([feature, ok]) => !ok && feature.endsWith(':modified_date'));
  if (!row || refused) return [{}];
  return [{ filter: `modified_date >= timestamp('${formatTimestamp(Math.max(0, row.modified_date - s.overlap))}')` }];
}

function saveWatermark(s: SyncSession, key: string): void {
  const start = windowStart.get(s)?.get(key);
  if (start === undefined) return;
  s.db.run(
    `INSERT INTO sync_cursors(resource, modified_date, last_id, updated_date) VALUES (?, ?, '', ?)
     ON CONFLICT(resource) DO UPDATE SET modified_date = max(sync_cursors.modified_date, excluded.modified_date), updated_date = excluded.updated_date`,
    [key, start, Date.now() * 1000],
  );
}

const held = (s: SyncSession, table: string, id: string) => !!s.db.get(`SELECT 1 FROM ${table} WHERE id = ?`, [id]);

/** The requests of the in-flight entries of a create operation, ids translated (creates of ours sent with no answer yet). */
const inflightRequests = <K extends OperationName>(s: SyncSession, operation: K) =>
  inflightSent<StoredRequest<K>>(s.db, operation).map((e) => translateIds(s.db, e.request));

/**
 * New steps and measurements a create of ours in flight may have made are left for that entry's lookup, as reports
 * are (taken in here, they would be "held locally" when it looks, and it would send them again).
 */
function newSteps(s: SyncSession, items: readonly TestStep[]): TestStep[] {
  const wanted = inflightRequests(s, 'CreateTestStep').map((r) => r.testStep);
  return items.filter((x) => held(s, 'test_steps', x.testStepId) || !wanted.some((w) => sameStep(w, x)));
}
function newMeasurements(s: SyncSession, items: readonly TestMeasurement[]): TestMeasurement[] {
  const wanted = [
    ...inflightRequests(s, 'CreateTestMeasurement').map((r) => r.testMeasurement),
    ...inflightRequests(s, 'CreateTestMeasurements').flatMap((r) => r.testMeasurements),
  ];
  return items.filter((x) => held(s, 'test_measurements', x.measurementId) || !wanted.some((w) => sameMeasurement(w, x)));
}

/** Reports not held here yet, read one by one (a report created after the reports were read). */
async function ensureReports(s: SyncSession, ids: Iterable<string>): Promise<void> {
  const missing = [...new Set(ids)].filter((id) => !held(s, 'test_reports', id));
  const found: TestReport[] = [];
  for (const id of missing) {
    try {
      found.push((await callWithRetry(s, 'GetTestReport', { testReportId: id })).testReport as TestReport);
    } catch (e) {
      // Gone again (deleted since it was listed): its children are skipped.
      if (!(e instanceof ApiError && e.code === Code.NOT_FOUND)) throw e;
    }
  }
  if (found.length) countPulled(s, 'test_reports', applyReports(s, found));
}

/** Every step of one report (filtered by CEL, or read whole and filtered here when the remote has no filters). */
async function stepsOfReport(s: SyncSession, reportId: string): Promise<TestStep[]> {
  const read = async (filter: string | undefined) =>
    (await listEvery<TestStep>((op, req) => callWithRetry(s, op, req), 'ListTestSteps', 'testSteps', { filter, pageSize: 1000 })).filter(
      (x) => x.testReportId === reportId,
    );
  try {
    return await read(`test_report_id == ${quote(reportId)}`);
  } catch (e) {
    if (!filterUnsupported(e)) throw e;
    return read(undefined);
  }
}

const STEPS = 'test_steps';
const MEASUREMENTS = 'test_measurements';

export const testStepsPuller: Puller<TestStep> = {
  resource: STEPS,
  // A step under the id of one made here, or in a report made here under the remote's id, is another record's.
  collisions: { table: 'test_steps', kind: TEST_STEP, parent: { table: 'test_reports', idOf: (x) => x.testReportId } },
  readAgain: 'never',
  operation: 'ListTestSteps',
  listField: 'testSteps',
  listing: { by: 'whole', settle: (s) => saveWatermark(s, STEPS) },
  idOf: (x) => x.testStepId,
  variants: (s) => watermarkVariant(s, STEPS),
  async prepare(s, items) {
    await ensureReports(
      s,
      items.map((x) => x.testReportId),
    );
  },
  /** Counts steps inserted or changed here (a re-read in the overlap window of one already here counts 0). */
  apply: (s, items) => upsertSteps(pulledContext(s), newSteps(s, items)),
};

export const testMeasurementsPuller: Puller<TestMeasurement> = {
  resource: MEASUREMENTS,
  // Likewise under a step made here (a report made here takes no step of the remote's: see prepare).
  collisions: { table: 'test_measurements', kind: TEST_MEASUREMENT, parent: { table: 'test_steps', idOf: (x) => x.testStepId } },
  readAgain: 'never',
  operation: 'ListTestMeasurements',
  listField: 'testMeasurements',
  listing: { by: 'whole', settle: (s) => saveWatermark(s, MEASUREMENTS) },
  idOf: (x) => x.measurementId,
  variants: (s) => watermarkVariant(s, MEASUREMENTS),
  async prepare(s, items) {
    const missing = items.filter((m) => !held(s, 'test_steps', m.testStepId));
    if (!missing.length) return;
    await ensureReports(
      s,
      missing.map((m) => m.testReportId),
    );
    for (const reportId of new Set(missing.map((m) => m.testReportId))) {
      const steps = await stepsOfReport(s, reportId);
      // Checked as the steps' own pull checks them (a report made here under the remote's id takes none of its steps).
      countPulled(
        s,
        STEPS,
        s.db.tx(() => upsertSteps(pulledContext(s), withoutCollisions(s, testStepsPuller, steps))),
      );
    }
  },
  /** Counts measurements inserted or changed here (like steps). */
  apply: (s, items) => upsertMeasurements(pulledContext(s), newMeasurements(s, items)),
};

/** In pull order: reports, then their steps, then measurements. */
export const testReportPullers: readonly Puller[] = [testReportsPuller, testStepsPuller, testMeasurementsPuller];
