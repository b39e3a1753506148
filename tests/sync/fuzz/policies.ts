// Policies in the sync fuzzer. A replica, offline, creates a policy, renames
// it, changes its description or its Cedar text (a new version), archives or
// unarchives it; the online colleague does the same directly on the remote.
// A create carries no marker and every field of a policy can be edited, so
// identity is not a field but the id: a policy is tracked by the id its
// writer got, and the writer's id map gives its remote id (as test reports
// are). A replayed create would make a second policy nothing tells apart: the
// world injects no duplicate there.
// The checker demands every replica hold exactly the remote's policies (their
// current version included) and no version the remote lacks, each create
// exist once there, and field values obey the "nothing lost" rule. (A replica
// keeps the versions it saw: the platform lists no version history, so one
// made and replaced there between two pulls never arrives.)
import type { Db } from '../../../src-main/db/database';
import { DEFAULT_POLICY_NAME } from '../../../src-main/auth/defaultPolicy';
import { invoke } from '../../../src-main/services/invoke';
import type { TestServer } from '../../support/testServer';
import { callerOf, type Replica } from '../helpers';
import { canonical, conflictLosers, REMOTE, trackedByWriterId, type FuzzContext, type Write } from './model';

const TEXTS = [
  'permit(principal, action, resource);',
  'forbid(principal, action == Action::"DeleteAnnotation", resource);',
  'permit(principal, action, resource) when { true };',
];
type Field = 'name' | 'description' | 'configuration' | 'is_archived';

/** A create: the world injects no replayed duplicate there. */
export const policyCreate = (r: { method: string; path: string }) => r.method === 'POST' && /^\/api\/v1\/policies(\?|$)/.test(r.path);

interface PolicyRow {
  id: string;
  name: string;
  description: string | null;
  configuration: string;
  is_archived: boolean;
}

const rows = (db: Db): PolicyRow[] =>
  db
    .all<{ id: string; name: string; description: string | null; cedar_policy: string; archived: number }>(
      'SELECT id, name, description, cedar_policy, archived_date IS NOT NULL AS archived FROM policies ORDER BY name, id',
    )
    .map((r) => ({ id: r.id, name: r.name, description: r.description, configuration: r.cedar_policy, is_archived: r.archived === 1 }));

/** Every policy of a store with its current version, comparable across stores. */
const view = (db: Db) =>
  db.all<{
    id: string;
    name: string;
    description: string | null;
    cedar_policy: string;
    version: number;
    policy_version_id: string;
    archived: number;
  }>(
    'SELECT id, name, description, cedar_policy, version, policy_version_id, archived_date IS NOT NULL AS archived FROM policies ORDER BY id',
  );

/** Every stored version of a store: policy, id, number and text. */
const versions = (db: Db) =>
  db
    .all<{ v: string }>(
      "SELECT p.id || ' ' || v.id || ' ' || v.version || ' ' || v.cedar_policy AS v FROM policy_versions v JOIN policies p ON p.pk = v.policy_pk",
    )
    .map((r) => r.v);

export function policyFuzz(ctx: FuzzContext, remote: TestServer) {
  const { made: creates, remoteId, fuzzIdOf } = trackedByWriterId(ctx.replicas);
  const webCall = (op: Parameters<typeof invoke>[1], request: unknown) =>
    invoke({ engine: remote.engine, db: remote.engine.db, caller: callerOf(remote.engine.db, 'web@outpost.local') }, op, request);

  async function act(writer: string, call: (op: Parameters<typeof invoke>[1], req: unknown) => Promise<any>, db: Db): Promise<string> {
    const mine = rows(db)
      .map((r) => ({ ...r, fuzzId: fuzzIdOf(r.id) }))
      .filter((r): r is PolicyRow & { fuzzId: string } => !!r.fuzzId);
    if (mine.length === 0 || ctx.rand() < 0.25) {
      const fuzzId = ctx.nextId('p');
      const { policy } = await call('CreatePolicy', { name: `p${ctx.step()}-${writer}`, configuration: { cedarPolicy: ctx.pick(TEXTS) } });
      creates.set(fuzzId, { writer, id: policy.policyId });
      const row = rows(db).find((r) => r.id === policy.policyId)!;
      for (const f of ['name', 'description', 'configuration', 'is_archived'] as const) ctx.record(writer, fuzzId, f, row[f]);
      return `create policy ${fuzzId}`;
    }
    const p = ctx.pick(mine);
    const kind = ctx.rand();
    if (kind < 0.25) {
      const archive = !p.is_archived || ctx.rand() < 0.2;
      await call(archive ? 'ArchivePolicy' : 'UnarchivePolicy', { policyId: p.id });
      ctx.record(writer, p.fuzzId, 'is_archived', archive, p.is_archived);
      return `${archive ? 'archive' : 'unarchive'} policy ${p.fuzzId}`;
    }
    const field: Exclude<Field, 'is_archived'> = kind < 0.5 ? 'name' : kind < 0.7 ? 'description' : 'configuration';
    const value =
      field === 'configuration' ? ctx.pick(TEXTS.filter((t) => t !== p.configuration)) : `${field.slice(0, 2)}${ctx.step()}-${writer}`;
    const policy =
      field === 'configuration' ? { policyId: p.id, configuration: { cedarPolicy: value } } : { policyId: p.id, [field]: value };
    await call('UpdatePolicy', { policy, updateMask: field });
    ctx.record(writer, p.fuzzId, field, value, p[field]);
    return `policy ${p.fuzzId} ${field}`;
  }

  return {
    creates,
    edit: (r: Replica) => act(r.name, (op, req) => r.call(op, req), r.engine.db),
    remoteEdit: () => act(REMOTE, webCall, remote.engine.db).then((s) => `web ${s}`),

    /** Convergence (policies and versions) and exactly once; returns the remote's final value of each write and the logged losers. */
    check(fail: (why: string) => never) {
      const remoteView = view(remote.engine.db);
      const text = canonical(remoteView);
      for (const r of ctx.replicas) {
        const v = view(r.engine.db);
        if (canonical(v) === text) continue;
        const ids = [...new Set([...v, ...remoteView].map((p) => p.id))].filter(
          (id) => canonical(v.find((p) => p.id === id)) !== canonical(remoteView.find((p) => p.id === id)),
        );
        fail(
          `${r.name} diverges from the remote on policies: ${JSON.stringify(ids.slice(0, 2).map((id) => ({ id, local: v.find((p) => p.id === id) ?? 'missing', remote: remoteView.find((p) => p.id === id) ?? 'missing' })))}`,
        );
      }
      const remoteVersions = new Set(versions(remote.engine.db));
      for (const r of ctx.replicas) {
        const extra = versions(r.engine.db).filter((v) => !remoteVersions.has(v));
        if (extra.length) fail(`${r.name} holds policy versions the remote does not: ${JSON.stringify(extra.slice(0, 3))}`);
      }
      const seen = new Map<string, string>();
      for (const [f, e] of creates) {
        const id = remoteId(e);
        if (!remoteView.some((p) => p.id === id)) fail(`policy ${f} (${e.writer}'s ${e.id}) is not on the remote as ${id}`);
        if (seen.has(id)) fail(`policies ${seen.get(id)} and ${f} are one policy ${id} on the remote`);
        seen.set(id, f);
      }
      // Every organization starts with its default policy (#20): made by no writer, replicated like the rest.
      const extra = remoteView.filter((p) => !seen.has(p.id) && p.name !== DEFAULT_POLICY_NAME);
      if (extra.length)
        fail(
          `the remote has ${extra.length} policies nobody created (duplicates?): ${JSON.stringify(extra.slice(0, 3).map((p) => [p.id, p.name]))}`,
        );

      const finals = new Map(rows(remote.engine.db).map((r) => [seen.get(r.id)!, r]));
      const final = (w: Write) => canonical(finals.get(w.fuzzId)![w.field as Field]);
      return { final, ...conflictLosers(ctx.replicas, 'policy', fuzzIdOf) };
    },
  };
}
