// Policies replicate like saved searches: offline create/update/archive reach
// the remote once (also when a response is lost), remote changes arrive.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { DEFAULT_POLICY_NAME } from '../../src-main/auth/defaultPolicy';
import { Code } from '../../src-shared/errors';
import { type FaultProxy } from './faultProxy';
import { closeProxiedPair, loseThenLinkDown, ONE_TRY, openProxiedPair, type RemoteServer, type Replica } from './helpers';

let remote: RemoteServer;
let proxy: FaultProxy;
let a: Replica;

beforeEach(async () => ({ remote, proxy, a } = await openProxiedPair()));
afterEach(() => closeProxiedPair({ remote, proxy, a }));

const PERMIT = 'permit(principal, action, resource);';
// A forbid that locks out nothing the sync needs (policies decide since #20; a forbid of everything would refuse the sync's own calls).
const FORBID = 'forbid(principal, action == Action::"DeleteAnnotation", resource);';
const WHEN_TRUE = 'permit(principal, action, resource) when { true };';
type Row = {
  id: string;
  name: string;
  description: string | null;
  cedar_policy: string;
  version: number;
  policy_version_id: string;
  archived: number;
};
// The policies these tests make: every organization also has its default policy (#20), left out here.
const policies = (db: Replica['engine']['db']) =>
  db.all<Row>(
    'SELECT id, name, description, cedar_policy, version, policy_version_id, archived_date IS NOT NULL AS archived FROM policies WHERE name != ? ORDER BY name',
    [DEFAULT_POLICY_NAME],
  );
const versions = (db: Replica['engine']['db']) =>
  db.all<{ id: string; version: number; cedar_policy: string }>(
    'SELECT v.id, v.version, v.cedar_policy FROM policy_versions v JOIN policies p ON p.pk = v.policy_pk WHERE p.name != ? ORDER BY p.name, v.version',
    [DEFAULT_POLICY_NAME],
  );
const isCreate = (r: { method: string; path: string }) => r.method === 'POST' && r.path === '/api/v1/policies';
const isUpdate = (r: { method: string; path: string }) => r.method === 'PATCH' && r.path === '/api/v1/policies';

describe('sync: policies', () => {
  test('offline create, update and archive reach the remote once; a lost create response makes no duplicate', async () => {
    const { policy } = await a.call('CreatePolicy', { name: 'offline', configuration: { cedarPolicy: PERMIT } });
    await a.call('UpdatePolicy', {
      policy: { policyId: policy.policyId, name: 'offline, renamed', configuration: { cedarPolicy: FORBID } },
      updateMask: 'name,configuration',
    });
    await a.call('ArchivePolicy', { policyId: policy.policyId });
    proxy.once({ kind: 'lose' }, isCreate);
    const s = await a.sync();
    expect(s.error).toBeUndefined();
    expect(s.ok).toBe(true);
    expect(proxy.forwarded(isCreate)).toBe(1);
    const remoteRows = policies(remote.engine.db);
    expect(remoteRows).toHaveLength(1);
    expect(remoteRows[0]).toMatchObject({ name: 'offline, renamed', cedar_policy: FORBID, version: 2, archived: 1 });
    expect(remoteRows[0].id).not.toBe(policy.policyId);
    expect(policies(a.engine.db)).toEqual(remoteRows);
    expect(versions(a.engine.db)).toEqual(versions(remote.engine.db));
    expect((await a.call('GetPolicy', { policyId: policy.policyId })).policy.policyId).toBe(remoteRows[0].id);
    const again = await a.sync();
    expect(again.progress.pushed).toBe(0);
    expect(policies(remote.engine.db)).toEqual(remoteRows);
  });

  test('a create whose response was lost, left in flight when its retries ran out, is adopted by the pull that follows: never sent again', async () => {
    const { policy } = await a.call('CreatePolicy', { name: 'offline', configuration: { cedarPolicy: PERMIT } });
    await a.call('UpdatePolicy', { policy: { policyId: policy.policyId, name: 'offline, renamed' }, updateMask: 'name' });
    proxy.once({ kind: 'lose' }, isCreate);
    // One try: the push ends with the policy created remotely and its entry in flight; the pull after the push lists it.
    await a.sync(ONE_TRY);
    expect(
      a.engine.db.get("SELECT state, json_extract(result, '$.adoptedBy') AS by FROM sync_outbox WHERE operation = 'CreatePolicy'"),
    ).toEqual({ state: 'done', by: 'pull' });
    const next = await a.sync();
    expect(next.ok).toBe(true);
    expect(next.pending).toBe(0);
    expect(proxy.forwarded(isCreate)).toBe(1);
    expect(policies(remote.engine.db).map((p) => p.name)).toEqual(['offline, renamed']);
    expect(policies(a.engine.db)).toEqual(policies(remote.engine.db));
    expect(versions(a.engine.db)).toEqual(versions(remote.engine.db));
  });

  test('the same when a colleague renamed the copy before the next run: the pull leaves it to the lookup, which finds it as the only policy we made while the create was on its way', async () => {
    await a.call('CreatePolicy', { name: 'offline', configuration: { cedarPolicy: PERMIT } });
    loseThenLinkDown(proxy, isCreate);
    await a.sync(ONE_TRY);
    expect(a.engine.db.all("SELECT operation, state FROM sync_outbox WHERE state != 'done'")).toEqual([
      { operation: 'CreatePolicy', state: 'inflight' },
    ]);
    const [copy] = policies(remote.engine.db);
    await remote.client.UpdatePolicy({ policy: { policyId: copy.id, name: 'offline (reviewed)' }, updateMask: 'name' });
    proxy.refuse(undefined);

    const next = await a.sync();
    expect(next.ok).toBe(true);
    expect(next.pending).toBe(0);
    expect(proxy.forwarded(isCreate)).toBe(1);
    expect(policies(remote.engine.db).map((p) => p.name)).toEqual(['offline (reviewed)']);
    expect(policies(a.engine.db)).toEqual(policies(remote.engine.db));
    expect(versions(a.engine.db)).toEqual(versions(remote.engine.db));
    expect(a.engine.db.all('SELECT * FROM sync_refetch')).toEqual([]);
  });

  test('two such creates whose copies were both renamed cannot be told apart: each is sent again, and the copies left aside still arrive here', async () => {
    await a.call('CreatePolicy', { name: 'one', configuration: { cedarPolicy: PERMIT } });
    await a.call('CreatePolicy', { name: 'two', configuration: { cedarPolicy: FORBID } });
    let lost = 0;
    proxy.random({ rate: 1, kinds: ['lose'], random: () => 0, allow: (_kind, r) => isCreate(r) && ++lost <= 2 });
    proxy.refuse((r) => lost >= 2 && r.method === 'GET', { status: 503, code: Code.UNAVAILABLE, message: 'link down' });
    await a.sync(ONE_TRY);
    proxy.random(undefined);
    expect(a.engine.db.all("SELECT state FROM sync_outbox WHERE state != 'done'")).toEqual([{ state: 'inflight' }, { state: 'inflight' }]);
    for (const p of policies(remote.engine.db))
      await remote.client.UpdatePolicy({ policy: { policyId: p.id, name: `${p.name} (reviewed)` }, updateMask: 'name' });
    proxy.refuse(undefined);

    // (No overlap window: only the note of the copies left aside brings them, not a re-read of the last seconds.)
    expect((await a.sync({ overlapMs: 0 })).pending).toBe(0);
    expect(proxy.forwarded(isCreate)).toBe(4);
    expect(policies(remote.engine.db).map((p) => p.name)).toEqual(['one', 'one (reviewed)', 'two', 'two (reviewed)']);
    expect(policies(a.engine.db)).toEqual(policies(remote.engine.db));
    expect(a.engine.db.all('SELECT * FROM sync_refetch')).toEqual([]);
  });

  test("a renamed copy that two creates' send windows both hold is taken by neither: one create that never landed does not take the other's copy", async () => {
    await a.call('CreatePolicy', { name: 'never landed', configuration: { cedarPolicy: FORBID } });
    await a.call('CreatePolicy', { name: 'landed', configuration: { cedarPolicy: PERMIT } });
    const named = (name: string) => (r: { method: string; path: string; body: string }) =>
      isCreate(r) && r.body.includes(`"name":"${name}"`);
    proxy.random({ rate: 1, kinds: ['drop'], random: () => 0, allow: (_kind, r) => named('never landed')(r) });
    loseThenLinkDown(proxy, named('landed'));
    await a.sync(ONE_TRY);
    proxy.random(undefined);
    expect(a.engine.db.all("SELECT state FROM sync_outbox WHERE state != 'done'")).toEqual([{ state: 'inflight' }, { state: 'inflight' }]);
    const [copy] = policies(remote.engine.db);
    await remote.client.UpdatePolicy({ policy: { policyId: copy.id, name: 'landed (reviewed)' }, updateMask: 'name' });
    proxy.refuse(undefined);

    expect((await a.sync({ overlapMs: 0 })).pending).toBe(0);
    // Sent again, both: a second 'landed' rather than the policy that never landed lost.
    expect(policies(remote.engine.db).map((p) => [p.name, p.cedar_policy])).toEqual([
      ['landed', PERMIT],
      ['landed (reviewed)', PERMIT],
      ['never landed', FORBID],
    ]);
    expect(policies(a.engine.db)).toEqual(policies(remote.engine.db));
  });

  test('an offline edit of a remote policy reaches it exactly once through a lost update response', async () => {
    const { policy } = await remote.client.CreatePolicy({ name: 'shared', configuration: { cedarPolicy: PERMIT } });
    await a.sync();
    await a.call('UpdatePolicy', {
      policy: { policyId: policy.policyId, configuration: { cedarPolicy: FORBID } },
      updateMask: 'configuration',
      versionNotes: 'tighten',
    });
    proxy.once({ kind: 'lose' }, isUpdate);
    const s = await a.sync();
    expect(s.ok).toBe(true);
    const [row] = policies(remote.engine.db);
    expect(row).toMatchObject({ cedar_policy: FORBID, version: 2 });
    expect(versions(remote.engine.db)).toHaveLength(2);
    expect(policies(a.engine.db)).toEqual(policies(remote.engine.db));
    expect(a.engine.db.get<{ n: number }>("SELECT count(*) AS n FROM sync_outbox WHERE state != 'done'")!.n).toBe(0);
  });

  test('remote changes arrive: create, update, archive and unarchive', async () => {
    const { policy } = await remote.client.CreatePolicy({ name: 'remote', description: 'd', configuration: { cedarPolicy: PERMIT } });
    await a.sync();
    expect(policies(a.engine.db)).toEqual(policies(remote.engine.db));
    await remote.client.UpdatePolicy({
      policy: { policyId: policy.policyId, description: 'changed', configuration: { cedarPolicy: FORBID } },
      updateMask: 'description,configuration',
    });
    await remote.client.ArchivePolicy({ policyId: policy.policyId });
    await a.sync();
    expect(policies(a.engine.db)).toEqual(policies(remote.engine.db));
    expect(policies(a.engine.db)[0]).toMatchObject({ description: 'changed', cedar_policy: FORBID, archived: 1 });
    await remote.client.UnarchivePolicy({ policyId: policy.policyId });
    await a.sync();
    expect(policies(a.engine.db)[0].archived).toBe(0);
    expect(a.engine.db.get<{ n: number }>('SELECT count(*) AS n FROM sync_outbox')!.n).toBe(0);
  });

  test('concurrent Cedar edits: the later, ours, wins, and the version made here for it gives way to the one the remote makes', async () => {
    const { policy } = await remote.client.CreatePolicy({ name: 'shared', configuration: { cedarPolicy: PERMIT } });
    await a.sync();
    await remote.client.UpdatePolicy({
      policy: { policyId: policy.policyId, configuration: { cedarPolicy: FORBID } },
      updateMask: 'configuration',
    });
    await new Promise((r) => setTimeout(r, 5));
    await a.call('UpdatePolicy', {
      policy: { policyId: policy.policyId, configuration: { cedarPolicy: WHEN_TRUE } },
      updateMask: 'configuration',
    });
    expect((await a.sync()).ok).toBe(true);
    expect(policies(remote.engine.db)[0]).toMatchObject({ cedar_policy: WHEN_TRUE, version: 3 });
    expect(policies(a.engine.db)).toEqual(policies(remote.engine.db));
    expect(versions(a.engine.db)).toEqual(versions(remote.engine.db));
  });

  test("the same when the push's response was lost: the next pull finds our text current remotely and drops the version made here (soak seed 904217)", async () => {
    const { policy } = await remote.client.CreatePolicy({ name: 'shared', configuration: { cedarPolicy: PERMIT } });
    await a.sync();
    await remote.client.UpdatePolicy({
      policy: { policyId: policy.policyId, configuration: { cedarPolicy: FORBID } },
      updateMask: 'configuration',
    });
    await new Promise((r) => setTimeout(r, 5));
    await a.call('UpdatePolicy', {
      policy: { policyId: policy.policyId, configuration: { cedarPolicy: WHEN_TRUE } },
      updateMask: 'configuration',
    });
    loseThenLinkDown(proxy, isUpdate);
    await a.sync(ONE_TRY);
    expect(policies(remote.engine.db)[0]).toMatchObject({ cedar_policy: WHEN_TRUE, version: 3 });
    proxy.refuse(undefined);
    expect((await a.sync()).ok).toBe(true);
    expect(policies(a.engine.db)).toEqual(policies(remote.engine.db));
    expect(versions(a.engine.db)).toEqual(versions(remote.engine.db));
  });

  test("a lost update answer, then a colleague's version, then ours again: no version made here outlives its edits (soak seed 3069)", async () => {
    const { policy } = await remote.client.CreatePolicy({ name: 'shared', configuration: { cedarPolicy: PERMIT } });
    await a.sync();
    const edit = (cedarPolicy: string) =>
      a.call('UpdatePolicy', { policy: { policyId: policy.policyId, configuration: { cedarPolicy } }, updateMask: 'configuration' });
    await edit(WHEN_TRUE);
    // The remote makes version 2 of our text, but its answer (naming that version) never arrives.
    loseThenLinkDown(proxy, isUpdate);
    await a.sync(ONE_TRY);
    proxy.refuse(undefined);
    expect(policies(remote.engine.db)[0]).toMatchObject({ cedar_policy: WHEN_TRUE, version: 2 });
    await remote.client.UpdatePolicy({
      policy: { policyId: policy.policyId, configuration: { cedarPolicy: FORBID } },
      updateMask: 'configuration',
    });
    await new Promise((r) => setTimeout(r, 5));
    await edit(PERMIT);
    expect((await a.sync()).ok).toBe(true);
    expect(policies(a.engine.db)).toEqual(policies(remote.engine.db));
    // The remote's version 2 was current only while the answer was lost: this replica never learns its id. What it
    // keeps is the remote's, and nothing of its own.
    const remoteVersions = versions(remote.engine.db);
    const local = versions(a.engine.db);
    expect(
      local.filter((v) => !remoteVersions.some((r) => r.id === v.id && r.version === v.version && r.cedar_policy === v.cedar_policy)),
    ).toEqual([]);
    expect(local.at(-1)).toEqual(remoteVersions.at(-1));
  });

  test("concurrent Cedar edits where the remote's is later: ours loses and leaves no version behind", async () => {
    const { policy } = await remote.client.CreatePolicy({ name: 'shared', configuration: { cedarPolicy: PERMIT } });
    await a.sync();
    await a.call('UpdatePolicy', {
      policy: { policyId: policy.policyId, configuration: { cedarPolicy: WHEN_TRUE } },
      updateMask: 'configuration',
    });
    await new Promise((r) => setTimeout(r, 5));
    await remote.client.UpdatePolicy({
      policy: { policyId: policy.policyId, configuration: { cedarPolicy: FORBID } },
      updateMask: 'configuration',
    });
    expect((await a.sync()).ok).toBe(true);
    expect(policies(remote.engine.db)[0]).toMatchObject({ cedar_policy: FORBID, version: 2 });
    expect(policies(a.engine.db)).toEqual(policies(remote.engine.db));
    expect(versions(a.engine.db)).toEqual(versions(remote.engine.db));
  });

  test("a refused update gives way to the remote's policy, with no version of its own left behind", async () => {
    const { policy } = await remote.client.CreatePolicy({ name: 'shared', configuration: { cedarPolicy: PERMIT } });
    await remote.client.CreatePolicy({ name: 'zz later', configuration: { cedarPolicy: PERMIT } }); // the cursor passes the first
    await a.sync({ overlapMs: 0 });
    await a.call('UpdatePolicy', {
      policy: { policyId: policy.policyId, name: 'shared, tightened', configuration: { cedarPolicy: FORBID } },
      updateMask: 'name,configuration',
    });
    expect(versions(a.engine.db).filter((v) => v.cedar_policy === FORBID)).toHaveLength(1);
    proxy.refuse(isUpdate, { status: 400, code: Code.INVALID_ARGUMENT, message: 'configuration: forbid is not allowed here' });
    expect((await a.sync({ overlapMs: 0 })).failedEntries).toBe(1);
    expect(policies(a.engine.db)).toEqual(policies(remote.engine.db));
    expect(versions(a.engine.db)).toEqual(versions(remote.engine.db));
  });
});
