// The cost of Cedar authorization per request (issue #20): a ListAnnotations
// page of 50 and a CreateAnnotation, authorized (authorizeOperation, then the
// handler with the row gate it returns) against the handler alone,
// with 1, 10 and 100 active policies, and the time of one record decision
// (GetAnnotation's check alone). Three kinds of policy sets: "uniform" (forbids
// on other actions: a list is allowed for every row, decided once by partial
// evaluation), "row-dependent" (forbids on reads that depend on the record's
// tags, tags no record holds) and "row, held tag" (the same with one forbid on
// the tag most records hold). Goals beside: list page overhead <= 10%, one
// decision <= 20 us. Never asserts times.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { authorizeOperation } from '../src-main/auth/cedar/authorize';
import { DEFAULT_ORGANIZATION_NAME, DEFAULT_USER_NAME, ensureMember, loadCaller } from '../src-main/auth/identity';
import { openEngine, type RequestContext } from '../src-main/engine';
import { seedDemoData } from '../src-main/seed/seedDemoData';
import { invoke, parseRequest } from '../src-main/services/invoke';
import { handlers } from '../src-main/services/registry';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Median microseconds per call of `base` and `measured`, run in alternating rounds (a busy machine drifts), and the
 * median of each round's measured / base: the overhead, from neighbours in time rather than from two separate medians.
 */
async function paired(n: number, rounds: number, base: () => unknown, measured: () => unknown): Promise<[number, number, number]> {
  for (let i = 0; i < Math.min(n, 20); i++) {
    await base();
    await measured();
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const [call, out] of [
      [base, a],
      [measured, b],
    ] as const) {
      const t0 = performance.now();
      for (let i = 0; i < n; i++) await call();
      out.push(((performance.now() - t0) * 1000) / n);
    }
  }
  return [median(a), median(b), median(b.map((x, i) => x / a[i]))];
}

/**
 * uniform: forbids on other actions. row-dependent: forbids on tags no record holds (the list reads them as one set of
 * no rows). row, held tag: the same, but one forbids the tag most records hold (read per row: too many to hold as a set).
 */
const KINDS = ['uniform', 'row-dependent', 'row, held tag'] as const;
type Kind = (typeof KINDS)[number];

export async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'outpost-bench-authz-'));
  const engine = openEngine(dir);
  try {
    const { userId, organizationId } = ensureMember(engine.db, DEFAULT_USER_NAME, DEFAULT_ORGANIZATION_NAME);
    seedDemoData(engine.db, { annotations: 2000 });
    const caller = loadCaller(engine.db, userId)!;
    const ctx: RequestContext = { engine, db: engine.db, caller };
    const asset = engine.db.get<{ name: string }>('SELECT name FROM assets WHERE organization_id = ? LIMIT 1', [organizationId])!.name;
    const someId = engine.db.get<{ id: string }>('SELECT id FROM annotations WHERE organization_id = ? LIMIT 1', [organizationId])!.id;
    const list = { pageSize: 50 };
    const create = () => ({ name: 'bench', startTime: '2026-01-01T00:00:00Z', endTime: '2026-01-01T00:01:00Z', assets: [asset] });
    const scope = { db: engine.db, caller, replica: false };
    const handler = (name: 'ListAnnotations' | 'CreateAnnotation', c: RequestContext, req: unknown) =>
      (handlers[name] as (c: RequestContext, r: unknown) => unknown)(c, req);
    const direct = (name: 'ListAnnotations' | 'CreateAnnotation', raw: unknown) => handler(name, ctx, parseRequest(name, raw));
    const authorized = (name: 'ListAnnotations' | 'CreateAnnotation', raw: unknown) => {
      const req = parseRequest(name, raw);
      const rowGate = authorizeOperation(scope, name, req);
      return handler(name, rowGate ? { ...ctx, rowGate } : ctx, req);
    };

    console.log(`2000 annotations; ${loadavg()[0].toFixed(2)} load average (the machine may be shared)`);
    console.log(
      'policies  kind            list page: handler / authorized (overhead)   create: handler / authorized (overhead)   one GetAnnotation decision',
    );
    const added: string[] = [];
    // The tag most annotations hold: a forbid on it hides a share of every page, as "hide what is tagged classified" would.
    const heldTag = engine.db.get<{ tag: string }>(
      'SELECT tag_name AS tag FROM annotation_tags GROUP BY tag_name ORDER BY count(*) DESC LIMIT 1',
    )!.tag;
    const heldShare = engine.db.get<{ share: number }>(
      'SELECT (SELECT count(*) FROM annotation_tags WHERE tag_name = ?) * 1.0 / (SELECT count(*) FROM annotations) AS share',
      [heldTag],
    )!.share;
    console.log(`"row, held tag": a forbid on "${heldTag}", which ${(heldShare * 100).toFixed(0)}% of the annotations hold`);
    const setPolicies = async (count: number, kind: Kind) => {
      for (const id of added.splice(0)) await invoke(ctx, 'ArchivePolicy', { policyId: id });
      // The default policy is one; add count - 1 more.
      for (let i = 1; i < count; i++) {
        const tag = kind === 'row, held tag' && i === 1 ? heldTag : `never-${i}`;
        const cedarPolicy =
          kind === 'uniform'
            ? `forbid(principal, action == Action::"DeleteRule", resource) when { principal.hasTag("never-${i}") };`
            : `forbid(principal, action in Action::"read", resource is Annotation) when { resource.tags.contains("${tag}") };`;
        const { policy } = (await invoke(ctx, 'CreatePolicy', { name: `bench ${kind} ${i}`, configuration: { cedarPolicy } })) as {
          policy: { policyId: string };
        };
        added.push(policy.policyId);
      }
    };
    for (const kind of KINDS) {
      for (const count of [1, 10, 100]) {
        if (kind !== 'uniform' && count === 1) continue; // the default policy alone is uniform
        await setPolicies(count, kind);
        const [listBase, listAuth, listRatio] = await paired(
          10,
          31,
          () => direct('ListAnnotations', list),
          () => authorized('ListAnnotations', list),
        );
        const [createBase, createAuth, createRatio] = await paired(
          10,
          15,
          () => direct('CreateAnnotation', create()),
          () => authorized('CreateAnnotation', create()),
        );
        const [, check] = await paired(
          300,
          5,
          () => undefined,
          () => authorizeOperation(scope, 'GetAnnotation', { annotationId: someId }),
        );
        const pct = (ratio: number) => `${((ratio - 1) * 100).toFixed(1)}%`;
        console.log(
          `${String(count).padStart(8)}  ${kind.padEnd(14)}  ${listBase.toFixed(0).padStart(6)} / ${listAuth.toFixed(0).padStart(6)} us (${pct(listRatio).padStart(6)}, goal <= 10%)` +
            `   ${createBase.toFixed(0).padStart(6)} / ${createAuth.toFixed(0).padStart(6)} us (${pct(createRatio).padStart(6)})` +
            `   ${check.toFixed(1)} us (goal <= 20 us)`,
        );
      }
    }
  } finally {
    engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
