// Test steps and measurements deleted on the remote on their own (the report
// stays) leave no trace the incremental pulls see; a periodic full listing
// removes them here: never one still on its way to the remote (an offline
// import waiting to be pushed, a step or measurement created here), never a
// record of a local organization, and a remote without the list is skipped.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { loadCaller, ensureMember } from '../../src-main/auth/identity';
import type { Db } from '../../src-main/db/database';
import { openEngine } from '../../src-main/engine';
import { invoke } from '../../src-main/services/invoke';
import type { SyncEvent } from '../../src-main/sync/session';
import type { FaultProxy } from './faultProxy';
import { closeProxiedPair, createReplica, openProxiedPair, type RemoteServer, type Replica } from './helpers';
import { count, importSample, reportsOf } from './testReportHelpers';

let remote: RemoteServer;
let proxy: FaultProxy;
let a: Replica;

beforeEach(async () => ({ remote, proxy, a } = await openProxiedPair()));
afterEach(() => closeProxiedPair({ remote, proxy, a }));

const SIX_HOURS = 6 * 3_600_000;
const T0 = '2026-09-01T00:00:00Z';
const T1 = '2026-09-01T00:01:00Z';
const step = (testReportId: string, stepPath: string, name: string) => ({
  testStep: { testReportId, name, stepType: 'TEST_STEP_TYPE_ACTION', stepPath, status: 'TEST_STATUS_PASSED', startTime: T0, endTime: T1 },
});
const measurement = (testStepId: string, name: string) => ({
  testMeasurement: { testStepId, name, measurementType: 'TEST_MEASUREMENT_TYPE_DOUBLE', numericValue: 1.5, passed: true, timestamp: T0 },
});

/** A leaf step with measurements, and a measurement of another step: what the remote deletes on its own. */
function victims(db: Db, reportId: string): { stepId: string; measurementId: string } {
  const { id: stepId } = db.get<{ id: string }>(
    `SELECT s.id FROM test_steps s WHERE s.test_report_id = ?
       AND EXISTS (SELECT 1 FROM test_measurements m WHERE m.step_pk = s.pk)
       AND NOT EXISTS (SELECT 1 FROM test_steps c WHERE c.report_pk = s.report_pk AND c.parent_step_id = s.id)
     ORDER BY s.path_key LIMIT 1`,
    [reportId],
  )!;
  const { id: measurementId } = db.get<{ id: string }>(
    'SELECT id FROM test_measurements WHERE test_report_id = ? AND test_step_id != ? ORDER BY timestamp, id LIMIT 1',
    [reportId, stepId],
  )!;
  return { stepId, measurementId };
}

/** A synced import, then a step (with its measurements) and another step's measurement deleted on the remote. */
async function syncedReportWithRemoteDeletions(): Promise<{ reportId: string; stepId: string; measurementId: string }> {
  await importSample(a);
  expect((await a.sync()).pending).toBe(0);
  const [reportId] = Object.keys(reportsOf(remote.engine.db));
  const v = victims(remote.engine.db, reportId);
  await remote.client.DeleteTestStep({ testStepId: v.stepId });
  await remote.client.DeleteTestMeasurement({ measurementId: v.measurementId });
  return { reportId, ...v };
}

const has = (db: Db, table: string, id: string) => !!db.get(`SELECT 1 FROM ${table} WHERE id = ?`, [id]);
const measurementsOf = (db: Db, stepId: string) =>
  db.get<{ n: number }>('SELECT count(*) AS n FROM test_measurements WHERE test_step_id = ?', [stepId])!.n;

/** Runs a sync and returns a copy of the local reports taken when the pull is over (before anything is pushed). */
async function syncSeeingPulled(options: { reconcileEveryMs: number }) {
  let pulled: ReturnType<typeof reportsOf> | undefined;
  const onEvent = (e: SyncEvent) => {
    if (e.type === 'phase' && e.phase === 'push') pulled = reportsOf(a.engine.db);
  };
  const summary = await a.sync({ ...options, onEvent });
  return { summary, pulled: pulled! };
}

describe('test steps and measurements deleted on the remote', () => {
  test('are removed by the periodic full listing, with the measurements of a removed step, and nothing else of the report', async () => {
    const { reportId, stepId, measurementId } = await syncedReportWithRemoteDeletions();
    expect(measurementsOf(a.engine.db, stepId)).toBeGreaterThan(0);

    // Not due yet (the first sync started the clock): still here.
    expect((await a.sync({ reconcileEveryMs: SIX_HOURS })).ok).toBe(true);
    expect(has(a.engine.db, 'test_steps', stepId)).toBe(true);
    expect(has(a.engine.db, 'test_measurements', measurementId)).toBe(true);

    const s = await a.sync({ reconcileEveryMs: 0 });
    expect(s.ok).toBe(true);
    expect(has(a.engine.db, 'test_steps', stepId)).toBe(false);
    expect(measurementsOf(a.engine.db, stepId)).toBe(0);
    expect(has(a.engine.db, 'test_measurements', measurementId)).toBe(false);
    expect(reportsOf(a.engine.db)).toEqual(reportsOf(remote.engine.db));
    expect(reportsOf(a.engine.db)[reportId].steps.length).toBeGreaterThan(0);
  });

  test("never remove an offline import's steps and measurements before its entry is done", async () => {
    const { stepId } = await syncedReportWithRemoteDeletions();
    const { reportId: localId } = await importSample(a);
    const imported = reportsOf(a.engine.db)[localId];

    const { summary, pulled } = await syncSeeingPulled({ reconcileEveryMs: 0 });
    // The listing ran (the remote's deletion arrived) and left the import, still unsent, whole.
    expect(pulled[localId]).toEqual(imported);
    expect(Object.values(pulled).some((r) => r.steps.some((x) => x.startsWith(`${stepId} `)))).toBe(false);
    expect(summary.ok).toBe(true);
    expect(summary.pending).toBe(0);
    expect(reportsOf(a.engine.db)).toEqual(reportsOf(remote.engine.db));
    expect(Object.keys(reportsOf(a.engine.db))).toHaveLength(2);
  });

  test('a step or measurement created here and not pushed yet stays, also under a step the remote deleted', async () => {
    const { reportId, stepId } = await syncedReportWithRemoteDeletions();
    const otherStep = a.engine.db.get<{ id: string }>(
      'SELECT id FROM test_steps WHERE test_report_id = ? AND id != ? ORDER BY path_key LIMIT 1',
      [reportId, stepId],
    )!.id;
    const made = (await a.call('CreateTestStep', step(reportId, '99', 'made offline'))).testStep.testStepId as string;
    const onKept = (await a.call('CreateTestMeasurement', measurement(otherStep, 'made offline'))).testMeasurement.measurementId as string;
    const onDeleted = (await a.call('CreateTestMeasurement', measurement(stepId, 'under a deleted step'))).testMeasurement
      .measurementId as string;

    // (While the step's create is open, the report has an open entry: none of its children is removed in this run.)
    const { summary, pulled } = await syncSeeingPulled({ reconcileEveryMs: 0 });
    const at = (id: string) =>
      pulled[reportId].steps.some((x) => x.startsWith(`${id} `)) || pulled[reportId].measurements.some((x) => x.startsWith(`${id} `));
    expect([made, onKept, onDeleted, stepId].map(at)).toEqual([true, true, true, true]);
    // The remote has the step and the measurement of a step it has; the one under its deleted step is refused.
    expect(summary.failedEntries).toBe(1);
    expect(reportsOf(remote.engine.db)[reportId].steps.some((x) => x.includes(' made offline '))).toBe(true);
    expect(reportsOf(remote.engine.db)[reportId].measurements.filter((x) => x.includes(' made offline '))).toHaveLength(1);

    // The refused measurement, local-only, stays for a retry, and with it its step (its entry is no longer open: the
    // step stays for the measurement's sake); everything else matches the remote.
    await a.sync({ reconcileEveryMs: 0 });
    const local = reportsOf(a.engine.db)[reportId];
    expect(has(a.engine.db, 'test_measurements', onDeleted)).toBe(true);
    expect(has(a.engine.db, 'test_steps', stepId)).toBe(true);
    const remoteReport = reportsOf(remote.engine.db)[reportId];
    expect(local.steps.filter((x) => !x.startsWith(`${stepId} `))).toEqual(remoteReport.steps);
    expect(local.measurements.filter((x) => !x.startsWith(`${onDeleted} `))).toEqual(remoteReport.measurements);
  });

  test('a remote without the lists is skipped with a warning, and nothing is removed', async () => {
    const { stepId, measurementId } = await syncedReportWithRemoteDeletions();
    proxy.withoutRoutes((r) => r.method === 'GET' && /^\/api\/v1\/test-(steps|measurements)(\?|$)/.test(r.path));
    const events: SyncEvent[] = [];
    const s = await a.sync({ reconcileEveryMs: 0, onEvent: (e) => events.push(e) });
    proxy.withoutRoutes(undefined);
    expect(s.ok).toBe(true);
    const warnings = events.flatMap((e) => (e.type === 'warning' ? [e.message] : []));
    expect(warnings).toEqual(
      expect.arrayContaining([
        'test_steps:deletions: the remote does not offer ListTestSteps; skipped',
        'test_measurements:deletions: the remote does not offer ListTestMeasurements; skipped',
      ]),
    );
    expect(has(a.engine.db, 'test_steps', stepId)).toBe(true);
    expect(has(a.engine.db, 'test_measurements', measurementId)).toBe(true);
  });
});

describe('a local organization', () => {
  test("keeps its test reports' steps and measurements (they were never synced)", async () => {
    // A data directory used locally before it was linked: an imported report in its own (local) organization.
    const dir = mkdtempSync(join(tmpdir(), 'outpost-replica-local-'));
    const local = openEngine(dir);
    const caller = loadCaller(local.db, ensureMember(local.db, 'engineer@outpost.local', 'Local lab').userId)!;
    await importSample({ dir, call: (op, request) => invoke({ engine: local, db: local.db, caller }, op, request) } as Replica);
    const before = { steps: count(local.db, 'test_steps'), measurements: count(local.db, 'test_measurements') };
    local.close();
    const b = await createReplica('b', remote.url, remote.token, dir);
    try {
      await b.sync();
      await b.sync({ reconcileEveryMs: 0 });
      expect({ steps: count(b.engine.db, 'test_steps'), measurements: count(b.engine.db, 'test_measurements') }).toEqual(before);
      expect(before.steps).toBeGreaterThan(0);
    } finally {
      b.close();
    }
  });
});
