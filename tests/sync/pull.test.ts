// Incremental pull: compound cursor across page boundaries with equal
// timestamps, late commits inside the overlap window, remotes without a
// filter engine, a pull cut mid-way resuming from its last committed page,
// and the reference data a reviewer needs offline.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { nowMicros } from '../../src-shared/api/time';
import { type FaultProxy } from './faultProxy';
import { annotationRequest, closeProxiedPair, openProxiedPair, viewOf, type RemoteServer, type Replica } from './helpers';

let remote: RemoteServer;
let proxy: FaultProxy;
let a: Replica;

beforeEach(async () => ({ remote, proxy, a } = await openProxiedPair({ colleagues: ['colleague@outpost.local'], synced: false })));
afterEach(() => closeProxiedPair({ remote, proxy, a }));

const ids = (n: number) =>
  Promise.all(Array.from({ length: n }, (_, i) => remote.client.CreateAnnotation(annotationRequest(`r${i}`)))).then((r) =>
    r.map((x) => x.annotation.annotationId),
  );
const localCount = () => a.engine.db.get<{ n: number }>('SELECT count(*) AS n FROM annotations')!.n;

describe('pull', () => {
  test('equal modified dates across small pages lose nothing', async () => {
    const created = await ids(7);
    const same = nowMicros();
    remote.engine.db.run(`UPDATE annotations SET modified_date = ? WHERE id IN (SELECT value FROM json_each(?))`, [
      same,
      JSON.stringify(created),
    ]);
    const s = await a.sync({ pageSize: 2 });
    expect(s.ok).toBe(true);
    expect(localCount()).toBe(7);
    expect(a.engine.db.raw.pragma('synchronous', { simple: true })).toBe(2);
    // An incremental pull with the same tie: edits land, nothing is skipped.
    remote.engine.db.run(`UPDATE annotations SET name = 'tied', modified_date = ? WHERE id IN (SELECT value FROM json_each(?))`, [
      same + 10,
      JSON.stringify(created),
    ]);
    await a.sync({ pageSize: 2 });
    expect(viewOf(a.engine.db)).toEqual(viewOf(remote.engine.db));
  });

  test('a late commit (a modified date older than the cursor, inside the overlap) still arrives', async () => {
    await ids(3);
    await a.sync();
    const cursor = a.engine.db.get<{ modified_date: number }>(
      "SELECT modified_date FROM sync_cursors WHERE resource = 'annotations'",
    )!.modified_date;
    const [late] = await ids(1);
    remote.engine.db.run('UPDATE annotations SET modified_date = ? WHERE id = ?', [cursor - 5_000_000, late]);
    await a.sync();
    expect(a.engine.db.get('SELECT 1 FROM annotations WHERE id = ?', [late])).toBeDefined();
    expect(viewOf(a.engine.db)).toEqual(viewOf(remote.engine.db));
  });

  test('a remote without a filter engine is still pulled incrementally and completely', async () => {
    proxy.rejectFilters(true);
    await ids(5);
    await a.sync({ pageSize: 2 });
    const [x] = await ids(1);
    await remote.client.ArchiveAnnotation({ annotationId: x });
    const s = await a.sync({ pageSize: 2 });
    expect(s.ok).toBe(true);
    expect(proxy.log.some((e) => e.fault === 'no-filter')).toBe(true);
    expect(viewOf(a.engine.db)).toEqual(viewOf(remote.engine.db));
  });

  test('a pull cut mid-way keeps its committed pages and resumes from them', async () => {
    await ids(9);
    let pages = 0;
    proxy.random({
      rate: 1,
      kinds: ['drop'],
      random: Math.random,
      when: (r) => r.method === 'GET' && r.path.startsWith('/api/v1/annotations?') && ++pages > 2,
    });
    const s1 = await a.sync({ pageSize: 2, reference: false });
    expect(s1.ok).toBe(false);
    const partial = localCount();
    expect(partial).toBeGreaterThanOrEqual(4);
    // A cut-off load leaves the connection at FULL: every acknowledged write, the pull's and the user's, is synced.
    expect(a.engine.db.raw.pragma('synchronous', { simple: true })).toBe(2);
    expect(partial).toBeLessThan(9);
    proxy.random(undefined);
    const s2 = await a.sync({ pageSize: 2 });
    expect(s2.ok).toBe(true);
    expect(viewOf(a.engine.db)).toEqual(viewOf(remote.engine.db));
  });

  test('an annotation edited while the initial pull lists it arrives again on a later page: one copy, the edit kept, every index back', async () => {
    const created = await ids(6);
    const [first] = remote.engine.db.all<{ id: string }>('SELECT id FROM annotations ORDER BY modified_date, id LIMIT 1');
    let pages = 0;
    // Between the first and second page, a colleague renames the first record: it moves to the end of the listing.
    proxy.random({
      rate: 1,
      kinds: ['drop'],
      random: Math.random,
      when: (r) => {
        if (r.method === 'GET' && r.path.startsWith('/api/v1/annotations?') && ++pages === 2) {
          remote.engine.db.run("UPDATE annotations SET name = 'renamed mid-pull', modified_date = ? WHERE id = ?", [nowMicros(), first.id]);
        }
        return false;
      },
    });
    const s = await a.sync({ pageSize: 2 });
    proxy.random(undefined);
    expect(s.ok).toBe(true);
    expect(pages).toBeGreaterThan(3); // the renamed record was listed twice
    expect(localCount()).toBe(created.length);
    // Updated in place, not inserted a second time (pks are handed out in order: no gap, no repaired duplicate).
    expect(a.engine.db.get('SELECT max(pk) AS pk FROM annotations')).toEqual({ pk: created.length });
    expect(a.engine.db.get('SELECT name FROM annotations WHERE id = ?', [first.id])).toEqual({ name: 'renamed mid-pull' });
    // The deferred indexes, the unique id index among them, are all back.
    const indexes = (db: typeof a.engine.db) =>
      db.all("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name LIKE 'annotation%' ORDER BY name");
    expect(indexes(a.engine.db)).toEqual(indexes(remote.engine.db));
    expect(() => a.engine.db.run('UPDATE annotations SET id = ? WHERE id = ?', [created[1], created[2]])).toThrow(/UNIQUE/);
    expect(viewOf(a.engine.db)).toEqual(viewOf(remote.engine.db));
    // Its pages committed without syncing the WAL; the connection's own writes sync again (FULL).
    expect(a.engine.db.raw.pragma('synchronous', { simple: true })).toBe(2);
  });

  test('reference data arrives, so offline work can use runs, channels, tags and colleagues', async () => {
    const org = a.engine.db; // replica
    const rdb = remote.engine.db;
    const orgId = rdb.get<{ id: string }>('SELECT id FROM organizations')!.id;
    const owner = rdb.get<{ id: string }>("SELECT id FROM users WHERE user_name = 'engineer@outpost.local'")!.id;
    const now = nowMicros();
    rdb.run(
      'INSERT INTO runs(id, organization_id, name, created_date, created_by_user_id, modified_date, modified_by_user_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ['7c7c7c7c-0000-4000-a000-000000000003', orgId, 'Run 7', now, owner, now, owner],
    );
    rdb.run(
      'INSERT INTO channels(id, organization_id, asset_id, name, created_date, created_by_user_id, modified_date, modified_by_user_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ['8d8d8d8d-0000-4000-a000-000000000004', orgId, '5a5a5a5a-0000-4000-a000-000000000001', 'chamber.pressure', now, owner, now, owner],
    );
    await remote.client.CreateAnnotation(annotationRequest('tagged', { tags: ['hot'] }));
    expect((await a.sync()).ok).toBe(true);
    expect(org.get('SELECT 1 FROM runs WHERE name = ?', ['Run 7'])).toBeDefined();
    expect(org.get('SELECT 1 FROM channels WHERE name = ?', ['chamber.pressure'])).toBeDefined();
    expect(org.get("SELECT 1 FROM tags WHERE name = 'hot'")).toBeDefined();
    const colleague = org.get<{ id: string }>("SELECT id FROM users WHERE user_name = 'colleague@outpost.local'")!.id;
    // Offline: on the pulled run and channel, assigned to the pulled colleague; then batch (un)archive.
    const { annotation } = await a.call('CreateAnnotation', {
      ...annotationRequest('offline on pulled references'),
      assets: [],
      runId: '7c7c7c7c-0000-4000-a000-000000000003',
      linkedChannels: [{ channel: { channelId: '8d8d8d8d-0000-4000-a000-000000000004' } }],
      assignToUserId: colleague,
    });
    await a.call('BatchArchiveAnnotations', { annotationIds: [annotation.annotationId] });
    await a.call('BatchUnarchiveAnnotations', { annotationIds: [annotation.annotationId] });
    await a.call('BatchDeleteAnnotations', { annotationIds: [annotation.annotationId] });
    expect((await a.sync()).ok).toBe(true);
    const onRemote = Object.values(viewOf(rdb).annotations).find((x) => x.name === 'offline on pulled references')!;
    expect(onRemote).toMatchObject({ runId: '7c7c7c7c-0000-4000-a000-000000000003', assignedToUserId: colleague, isArchived: true });
    expect(viewOf(org)).toEqual(viewOf(rdb));
  });
});
