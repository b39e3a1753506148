// A remote that refuses to order the step and measurement lists by id (the
// platform may not accept order_by there) cannot give a listing in which no
// record moves between pages, so the deletion checks are skipped for the run
// with a warning: nothing is removed (a live record missed by an unordered
// listing would look deleted), and the rest of the sync goes on.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Db } from '../../src-main/db/database';
import { orderRefused } from '../../src-main/sync/deletions';
import type { SyncEvent } from '../../src-main/sync/session';
import { startFaultProxy, type ApiRefusal, type FaultProxy, type Matcher } from './faultProxy';
import { createReplica, startRemote, type RemoteServer, type Replica } from './helpers';
import { importSample, reportsOf } from './testReportHelpers';

/** Step and measurement lists carrying order_by. */
const orderedStepsOrMeasurements: Matcher = (r) =>
  r.method === 'GET' && /^\/api\/v1\/test-(steps|measurements)\?(.*&)?order_by=/.test(r.path);

let remote: RemoteServer;
let proxy: FaultProxy;
let a: Replica;

beforeEach(async () => {
  remote = await startRemote();
  proxy = await startFaultProxy(remote.url, { strict: true });
  a = await createReplica('a', proxy.url, remote.token);
  await a.sync();
});
afterEach(async () => {
  a.close();
  await proxy.close();
  await remote.close();
});

const has = (db: Db, table: string, id: string) => !!db.get(`SELECT 1 FROM ${table} WHERE id = ?`, [id]);

/** A synced import, then a leaf step and a measurement of another step deleted on the remote. */
async function syncedReportWithRemoteDeletions() {
  await importSample(a);
  expect((await a.sync()).pending).toBe(0);
  const db = remote.engine.db;
  const [reportId] = Object.keys(reportsOf(db));
  const { id: stepId } = db.get<{ id: string }>(
    `SELECT id FROM test_steps s WHERE test_report_id = ?
       AND NOT EXISTS (SELECT 1 FROM test_steps c WHERE c.report_pk = s.report_pk AND c.parent_step_id = s.id)
     ORDER BY path_key LIMIT 1`,
    [reportId],
  )!;
  const { id: measurementId } = db.get<{ id: string }>(
    'SELECT id FROM test_measurements WHERE test_report_id = ? AND test_step_id != ? LIMIT 1',
    [reportId, stepId],
  )!;
  await remote.client.DeleteTestStep({ testStepId: stepId });
  await remote.client.DeleteTestMeasurement({ measurementId });
  return { reportId, stepId, measurementId };
}

const refusals: [string, ApiRefusal][] = [
  ['INVALID_ARGUMENT', { status: 400, code: 3, message: 'invalid order_by: unsupported field' }],
  ['UNIMPLEMENTED', { status: 501, code: 12, message: 'order_by is not implemented for this list' }],
];

describe('a remote refusing to order the step and measurement lists by id', () => {
  test.each(refusals)(
    '(%s): the deletion checks are skipped with a warning, nothing is removed, the sync completes',
    async (_name, refusal) => {
      const { reportId, stepId, measurementId } = await syncedReportWithRemoteDeletions();
      await a.call('UpdateTestReport', { testReport: { testReportId: reportId, name: 'renamed offline' }, updateMask: 'name' });

      const clock = () =>
        a.engine.db.all('SELECT resource, modified_date FROM sync_cursors WHERE resource LIKE ? ORDER BY resource', ['test_%:deletions']);
      const clockBefore = clock();
      proxy.refuse(orderedStepsOrMeasurements, refusal);
      const events: SyncEvent[] = [];
      const s = await a.sync({ reconcileEveryMs: 0, onEvent: (e) => events.push(e) });

      expect(s.ok).toBe(true);
      expect(s.pending).toBe(0);
      expect(reportsOf(remote.engine.db)[reportId].name).toBe('renamed offline');
      expect(has(a.engine.db, 'test_steps', stepId)).toBe(true);
      expect(has(a.engine.db, 'test_measurements', measurementId)).toBe(true);
      const warnings = events.flatMap((e) => (e.type === 'warning' ? [e.message] : []));
      expect(warnings).toEqual([
        `test_steps:deletions: the remote refused ListTestSteps ordered by test_step_id (${refusal.message}); deletions there are not looked for in this sync`,
        `test_measurements:deletions: the remote refused ListTestMeasurements ordered by measurement_id (${refusal.message}); deletions there are not looked for in this sync`,
      ]);
      // Asked once each: a refusal is not retried.
      expect(proxy.log.filter((e) => e.fault === 'refused').map((e) => new URL(e.path, 'http://x').pathname)).toEqual([
        '/api/v1/test-steps',
        '/api/v1/test-measurements',
      ]);

      // Skipped, not done: the reconcile clock stays where it was, and once the remote orders the lists a sync looks again.
      expect(clock()).toEqual(clockBefore);
      proxy.refuse(undefined);
      expect((await a.sync({ reconcileEveryMs: 0 })).ok).toBe(true);
      expect(has(a.engine.db, 'test_steps', stepId)).toBe(false);
      expect(has(a.engine.db, 'test_measurements', measurementId)).toBe(false);
      expect(reportsOf(a.engine.db)).toEqual(reportsOf(remote.engine.db));
    },
  );
});

describe('a refused order is told from other refusals', () => {
  const refusalOf = (p: Promise<unknown>) =>
    p.then(
      () => expect.unreachable('accepted'),
      (e: unknown) => e,
    );

  test("by the remote's answers: an unknown order field is; a page token replayed with another order, a bad filter are not", async () => {
    await syncedReportWithRemoteDeletions();
    const { nextPageToken } = await remote.client.ListTestSteps({ pageSize: 1, orderBy: 'test_step_id' });
    expect(nextPageToken).not.toBe('');

    expect(orderRefused(await refusalOf(remote.client.ListTestSteps({ orderBy: 'weight' })))).toBe(true);
    const replayed = await refusalOf(remote.client.ListTestSteps({ pageSize: 1, orderBy: 'name', pageToken: nextPageToken }));
    expect((replayed as Error).message).toMatch(/order_by/);
    expect(orderRefused(replayed)).toBe(false);
    expect(orderRefused(await refusalOf(remote.client.ListTestSteps({ filter: 'weight > 1', orderBy: 'test_step_id' })))).toBe(false);
  });
});
