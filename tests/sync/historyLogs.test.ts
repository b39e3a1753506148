// History logs of our own writes (CREATED, STATE_UPDATE, ASSIGNED): the local
// write appends them, and so does the remote when the write is pushed. The
// remote's must end up as exactly the one row we hold (ours adopts it), and
// the pull that re-reads it must not report our own change as received.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { FaultProxy, Matcher } from './faultProxy';
import { annotationRequest, closeProxiedPair, openProxiedPair, viewOf, type RemoteServer, type Replica } from './helpers';

const COLLEAGUE = 'colleague@outpost.local';

let remote: RemoteServer;
let proxy: FaultProxy;
let a: Replica;

beforeEach(async () => ({ remote, proxy, a } = await openProxiedPair({ colleagues: [COLLEAGUE] })));
afterEach(() => closeProxiedPair({ remote, proxy, a }));

async function remoteAnnotations(...names: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const name of names) ids.push((await remote.client.CreateAnnotation(annotationRequest(name))).annotation.annotationId);
  expect((await a.sync()).ok).toBe(true);
  return ids;
}

const userIdOf = (name: string) => remote.engine.db.get<{ id: string }>('SELECT id FROM users WHERE user_name = ?', [name])!.id;

const flag = (annotationId: string, extra: Record<string, unknown> = {}, mask = 'state') =>
  a.call('UpdateAnnotation', { annotation: { annotationId, state: 'ANNOTATION_STATE_FLAGGED', ...extra }, updateMask: mask });

/** Every log here is the remote's, field for field (ids, dates, authors, values), and nothing more. */
function expectSameLogs(): void {
  expect(viewOf(a.engine.db).logs).toEqual(viewOf(remote.engine.db).logs);
}

const remoteLogs = (annotationId: string, kind: number) =>
  remote.engine.db
    .all<{ id: string }>('SELECT id FROM annotation_logs WHERE annotation_id = ? AND kind = ? ORDER BY pk', [annotationId, kind])
    .map((r) => r.id);
const STATE_UPDATE = 2;

const sideEffectLogIds = () =>
  a.engine.db
    .all<{ side_effect_log_ids: string }>('SELECT side_effect_log_ids FROM sync_outbox ORDER BY seq')
    .flatMap((r) => JSON.parse(r.side_effect_log_ids) as string[]);

const patchOf =
  (annotationId: string): Matcher =>
  (r) =>
    r.method === 'PATCH' && r.body.includes(annotationId);

describe('sync: history logs of our own writes', () => {
  test('a pushed state and assignee change comes back as the logs we hold: adopted, not received', async () => {
    const [x, y] = await remoteAnnotations('x', 'y');
    await flag(x, { assignedToUserId: userIdOf(COLLEAGUE) }, 'state,assigned_to_user_id');
    // The same kinds written as logs (no side effect: the log is the created record).
    await a.call('CreateAnnotationLog', {
      annotationId: y,
      kind: 'ANNOTATION_LOG_KIND_STATE_UPDATE',
      stateUpdate: { state: 'ANNOTATION_LOG_STATE_RESOLVED' },
    });
    const ours = sideEffectLogIds();
    expect(ours).toHaveLength(2);

    const s = await a.sync();
    expect(s.ok).toBe(true);
    expect(s.progress.pushed).toBe(2);
    expect(s.progress.pulled).toEqual({});
    expectSameLogs();
    // Our rows took the remote's ids; a UI still holding ours is translated to them.
    const mapped = a.engine.db.all<{ remote_id: string }>(
      'SELECT remote_id FROM sync_id_map WHERE local_id IN (SELECT value FROM json_each(?))',
      [JSON.stringify(ours)],
    );
    expect(mapped.map((m) => m.remote_id).sort()).toEqual(
      remote.engine.db
        .all<{ id: string }>('SELECT id FROM annotation_logs WHERE annotation_id = ? AND kind IN (2, 3) AND state IS NOT 1', [x])
        .map((r) => r.id)
        .sort(),
    );
    expect((await a.sync()).progress.pulled).toEqual({});
  });

  test('the same value set twice in one push: each change adopts the log the remote wrote for it', async () => {
    const [x] = await remoteAnnotations('x');
    await flag(x);
    await a.call('UpdateAnnotation', { annotation: { annotationId: x, state: 'ANNOTATION_STATE_OPEN' }, updateMask: 'state' });
    await flag(x);
    const s = await a.sync();
    expect(s.progress.pushed).toBe(3);
    expect(s.progress.pulled).toEqual({});
    expect(remoteLogs(x, STATE_UPDATE)).toHaveLength(4); // CREATED, FLAGGED, OPEN, FLAGGED
    expectSameLogs();
  });

  test('an annotation created here comes back with its CREATED and ASSIGNED logs as the ones we hold', async () => {
    const me = a.caller().userId;
    await a.call('CreateAnnotation', annotationRequest('found offline', { assignToUserId: me }));
    expect(sideEffectLogIds()).toHaveLength(2);
    const s = await a.sync();
    expect(s.ok).toBe(true);
    expect(s.progress.pushed).toBe(1);
    expect(s.progress.pulled).toEqual({});
    expectSameLogs();
  });

  test("a create whose answer was lost, adopted by the pull that follows the push (its marker): its history logs adopt the remote's too", async () => {
    const me = a.caller().userId;
    await a.call('CreateAnnotation', annotationRequest('found offline', { assignToUserId: me }));
    proxy.once({ kind: 'lose' }, (r) => r.method === 'POST' && r.path === '/api/v1/annotations');
    // One attempt: the push gives up on the unknown outcome, and the pull after it finds the annotation by its marker.
    const s = await a.sync({ retry: { baseDelayMs: 1, maxDelayMs: 1, maxAttempts: 1 } });
    expect(s.pending).toBe(0);
    expect(a.engine.db.get<{ result: string }>("SELECT result FROM sync_outbox WHERE operation = 'CreateAnnotation'")!.result).toContain(
      '"adoptedBy":"pull"',
    );
    expect(s.progress.pulled).toEqual({});
    expectSameLogs();
    expect((await a.sync()).progress.pulled).toEqual({});
  });

  test('the same when that page also holds an id collision: the page applied without it still adopts the history logs looked up for it', async () => {
    const me = a.caller().userId;
    const { annotation: lost } = await a.call('CreateAnnotation', annotationRequest('found offline', { assignToUserId: me }));
    // A record of an organization of this profile's own (never the remote's) under the id of a remote one: a collision in
    // every page that lists that remote record, the pull after the push's included (its overlap re-reads it).
    const db = a.engine.db;
    const theirs = (await remote.client.CreateAnnotation(annotationRequest('theirs'))).annotation.annotationId;
    remote.engine.db.run('DELETE FROM annotation_logs WHERE annotation_id = ?', [theirs]);
    const orgColumns = db.all<{ name: string }>('SELECT name FROM pragma_table_info(?) WHERE name NOT IN (?, ?, ?)', [
      'organizations',
      'pk',
      'id',
      'name',
    ]);
    const copy = orgColumns.map((c) => c.name).join(', ');
    db.run(
      `INSERT INTO organizations(id, name${copy ? `, ${copy}` : ''}) SELECT 'own-org', 'own organization'${copy ? `, ${copy}` : ''} FROM organizations LIMIT 1`,
    );
    const columns = db
      .all<{ name: string }>('SELECT name FROM pragma_table_info(?) WHERE name NOT IN (?, ?, ?)', [
        'annotations',
        'pk',
        'id',
        'organization_id',
      ])
      .map((c) => c.name)
      .join(', ');
    db.run(`INSERT INTO annotations(id, organization_id, ${columns}) SELECT ?, 'own-org', ${columns} FROM annotations WHERE id = ?`, [
      theirs,
      lost.annotationId,
    ]);
    proxy.once({ kind: 'lose' }, (r) => r.method === 'POST' && r.path === '/api/v1/annotations');

    const s = await a.sync({ retry: { baseDelayMs: 1, maxDelayMs: 1, maxAttempts: 1 } });
    expect(s.pending).toBe(0);
    expect(db.get<{ result: string }>("SELECT result FROM sync_outbox WHERE operation = 'CreateAnnotation'")!.result).toContain(
      '"adoptedBy":"pull"',
    );
    expect(db.get("SELECT 1 FROM sync_conflicts WHERE kind = 'id_collision' AND record_id = ?", [theirs])).toBeDefined();
    // The create's logs are the remote's ones, adopted: nothing received, none twice.
    expect(s.progress.pulled).toEqual({});
    const logsOf = (d: typeof db, id: string) =>
      d.all<{ id: string }>('SELECT id FROM annotation_logs WHERE annotation_id = ? ORDER BY id', [id]).map((r) => r.id);
    const remoteId = remote.engine.db.get<{ id: string }>("SELECT id FROM annotations WHERE name = 'found offline'")!.id;
    expect(logsOf(db, remoteId)).toEqual(logsOf(remote.engine.db, remoteId));
    expect(logsOf(db, remoteId).length).toBeGreaterThan(0);
  });

  test("a colleague's state change still arrives and counts; ours, made moot by theirs, leaves no second log", async () => {
    const [x, y, z] = await remoteAnnotations('x', 'y', 'z');
    await flag(x);
    await flag(y, { assignedToUserId: a.caller().userId }, 'state,assigned_to_user_id');
    const colleague = remote.clientFor(remote.tokens[COLLEAGUE]);
    await colleague.UpdateAnnotation({ annotation: { annotationId: z, state: 'ANNOTATION_STATE_RESOLVED' }, updateMask: 'state' });
    // Before our push, the colleague flags x too: the remote then writes no log for our (same) value, and x's
    // synced fields already equal ours (no news), but the colleague's log is.
    await colleague.UpdateAnnotation({ annotation: { annotationId: x, state: 'ANNOTATION_STATE_FLAGGED' }, updateMask: 'state' });

    const s = await a.sync();
    expect(s.ok).toBe(true);
    expect(s.progress.pushed).toBe(2);
    expect(s.progress.pulled).toEqual({ annotations: 1, annotation_logs: 2 });
    expectSameLogs();
    const flagged = remoteLogs(x, STATE_UPDATE).filter((id) =>
      a.engine.db.get('SELECT 1 FROM annotation_logs WHERE id = ? AND state = 3', [id]),
    );
    expect(flagged).toHaveLength(1);
    expect(
      remote.engine.db.get<{ created_by_user_id: string }>('SELECT created_by_user_id FROM annotation_logs WHERE id = ?', [flagged[0]])!
        .created_by_user_id,
    ).toBe(userIdOf(COLLEAGUE));
  });

  test("a lost answer: the resend writes no second log, and the first send's log is adopted (across a restart: still exactly one)", async () => {
    const [x, y] = await remoteAnnotations('x', 'y');
    await flag(x);
    proxy.once({ kind: 'lose' }, patchOf(x));
    const s = await a.sync();
    expect(s.ok).toBe(true);
    expect(proxy.forwarded(patchOf(x))).toBe(2);
    expect(remoteLogs(x, STATE_UPDATE)).toHaveLength(2); // CREATED, FLAGGED
    expect(s.progress.pulled).toEqual({});
    expectSameLogs();

    // The run gives up after the lost answer and the process restarts: the next run's first pull brings the
    // remote's log (ours is still pending); the resend finds it held, and ours goes.
    await flag(y);
    proxy.once({ kind: 'lose' }, patchOf(y));
    const interrupted = await a.sync({ retry: { baseDelayMs: 1, maxDelayMs: 1, maxAttempts: 1 } });
    expect(interrupted.pending).toBe(1);
    a.reopen();
    const next = await a.sync();
    expect(next.ok).toBe(true);
    expect(remoteLogs(y, STATE_UPDATE)).toHaveLength(2);
    expectSameLogs();
  });

  test('beside a long discussion, the lookup reads only our logs since the edit (one filtered request); without filters, the whole list', async () => {
    const [x, y] = await remoteAnnotations('x', 'y');
    const colleague = remote.clientFor(remote.tokens[COLLEAGUE]);
    const comment = (text: string) => ({
      kind: 'ANNOTATION_LOG_KIND_COMMENT',
      comment: { body: [{ type: 'ANNOTATION_COMMENT_BODY_ELEMENT_TYPE_TEXT', text }] },
    });
    // More than a page (1000) of a colleague's comments on each.
    for (const id of [x, y])
      for (let i = 0; i < 1000; i += 50)
        await Promise.all(
          Array.from({ length: 50 }, (_, j) => colleague.CreateAnnotationLog({ annotationId: id, ...comment(`${id} ${i + j}`) })),
        );
    expect((await a.sync()).progress.pulled).toEqual({ annotation_logs: 2000 });
    const lookup =
      (id: string): Matcher =>
      (r) =>
        r.method === 'GET' && r.path.startsWith(`/api/v1/annotations/${id}/logs`);

    await flag(x);
    const s = await a.sync();
    expect(s.progress.pushed).toBe(1);
    expect(s.progress.pulled).toEqual({});
    const asked = proxy.log.filter(lookup(x));
    expect(asked).toHaveLength(1);
    expect(new URL(asked[0].path, 'http://remote').searchParams.get('filter')).toContain(
      `created_by_user_id == '${a.caller().userId}' && created_date >= timestamp(`,
    );
    expectSameLogs();

    // A remote without a filter engine: the filtered request is refused, the whole list read (two pages), and the
    // remote's log still adopted.
    proxy.rejectFilters(true);
    await flag(y);
    const unfiltered = await a.sync();
    expect(unfiltered.ok).toBe(true);
    expect(unfiltered.progress.pulled).toEqual({});
    expect(proxy.log.filter(lookup(y)).map((r) => r.fault ?? 'forwarded')).toEqual(['no-filter', 'forwarded', 'forwarded']);
    expectSameLogs();
  });

  test('a failed lookup of the remote logs costs only the count: the write is done, the pull brings the one log', async () => {
    const [x] = await remoteAnnotations('x');
    await flag(x);
    const lookup: Matcher = (r) => r.method === 'GET' && r.path.startsWith(`/api/v1/annotations/${x}/logs`);
    proxy.once({ kind: 'status', status: 500 }, lookup);
    const s = await a.sync();
    expect(proxy.log.filter((r) => lookup(r) && r.fault === 'status')).toHaveLength(1);
    expect(s.ok).toBe(true);
    expect(s.progress.pushed).toBe(1);
    expect(s.progress.failed).toBe(0);
    expect(proxy.forwarded(patchOf(x))).toBe(1);
    expect(s.progress.pulled).toEqual({ annotation_logs: 1 });
    expectSameLogs();
  });
});
