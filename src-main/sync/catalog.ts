// The replicated resources' descriptors (resources/index.ts), looked up the
// ways the generic core needs them: a spec by operation, a record kind by
// resource name, the pull order, the side-effect records. Built once from the
// one list; every former registry (specs, snapshots, id rewriters, refetch
// readers, re-reads before the push, conflict undo, refused creates, local
// tables) is a view of it.
import type { Db } from '../db/database';
import type { ApplyResources } from './apply';
import type { Puller } from './pull';
import type { PreLinkRecords, RecordKind, Reference, ReplicatedResource, SideEffectRecords, Snapshot } from './resource';
import type { SyncSession } from './session';
import type { OpSpec, RefusedCreate } from './spec';
import type { OutboxEntry } from './types';

function indexBy<T, K extends string>(items: readonly T[], keyOf: (item: T) => K, what: string): Map<K, T> {
  const out = new Map<K, T>();
  for (const item of items) {
    const key = keyOf(item);
    if (out.has(key)) throw new Error(`sync: two replicated resources declare ${what} ${key}`);
    out.set(key, item);
  }
  return out;
}

export class ResourceCatalog implements ApplyResources {
  private readonly specs: Map<string, OpSpec>;
  private readonly kinds: Map<string, RecordKind>;
  /** By the kind referred to: every declared column holding its ids. */
  private readonly referencesTo = new Map<string, Reference[]>();

  /**
   * `referenceData`: the lists of reference data (users, tags, assets, ...), pulled first (the others refer to it); a
   * run may leave them out (SyncOptions.reference).
   */
  constructor(
    readonly resources: readonly ReplicatedResource[],
    private readonly referenceData: readonly Puller[] = [],
  ) {
    this.specs = indexBy(
      resources.flatMap((r) => r.specs),
      (s) => s.operation,
      'the operation',
    );
    this.kinds = indexBy(
      resources.flatMap((r) => r.records),
      (k) => k.resource,
      'the record kind',
    );
    for (const ref of resources.flatMap((r) => r.records.flatMap((k) => k.references ?? []))) {
      if (!this.kinds.has(ref.to)) throw new Error(`sync: ${ref.column} references ${ref.to}, a kind no replicated resource keeps`);
      this.referencesTo.set(ref.to, [...(this.referencesTo.get(ref.to) ?? []), ref]);
    }
  }

  /** The spec of a replicated operation (a platform write without one is refused on a replica: invoke.ts). */
  specFor(operation: string): OpSpec | undefined {
    return this.specs.get(operation);
  }

  replicatedOperations(): string[] {
    return [...this.specs.keys()];
  }

  /** The record kind the sync tables call `resource`, if a resource keeps it. */
  kind(resource: string): RecordKind | undefined {
    return this.kinds.get(resource);
  }

  allKinds(): RecordKind[] {
    return [...this.kinds.values()];
  }

  /** The merge base of a record about to be edited (none for kinds without a three-way merge). */
  snapshot(db: Db, resource: string, id: string): Snapshot | undefined {
    return this.kind(resource)?.merge?.snapshot(db, id);
  }

  /** A record made here took the remote's id: its row, and every declared reference to it, each through its store. */
  rewriteId(db: Db, resource: string, localId: string, remoteId: string): void {
    this.kind(resource)?.rows.rename(db, localId, remoteId);
    for (const ref of this.referencesTo.get(resource) ?? []) ref.rewrite(db, localId, remoteId);
  }

  /** The local table of a kind of record (the change feed names records by it). */
  tableOf(resource: string): string | undefined {
    return this.kind(resource)?.rows.table;
  }

  /** The kinds of record made before the first link, in the descriptors' order (adoption follows it). */
  preLinkRecords(): PreLinkRecords[] {
    return this.resources.flatMap((r) => r.preLink);
  }

  /** What Retry and Discard do with a refused create by `operation` (its spec's create form; undefined: no create). */
  refusedCreate(operation: string): RefusedCreate | undefined {
    return this.specFor(operation)?.create?.refused;
  }

  /** The pulls of a run, in the descriptors' order: before the push (`reference`: with the reference data), or after it. */
  pullers(phase: 'beforePush' | 'afterPush', options: { reference?: boolean } = {}): Puller[] {
    const lists = this.resources.flatMap((r) => r.pullers);
    if (phase === 'afterPush') return lists.filter((p) => p.readAgain !== 'never');
    return [...(options.reference !== false ? this.referenceData : []), ...lists];
  }

  /** The lists read again right before the push (and during a long one), by the kind of record whose edits wait. */
  rereads(): (readonly [resource: string, puller: Puller])[] {
    return this.resources.flatMap((r) =>
      r.pullers.flatMap((p) => (typeof p.readAgain === 'object' ? [[p.readAgain.whileEditsOf, p] as const] : [])),
    );
  }

  /** The descriptors' work after a pull phase (e.g. archiving replayed duplicates on the remote). */
  async afterPull(s: SyncSession): Promise<void> {
    for (const r of this.resources) await r.afterPull?.(s);
  }

  /** The kinds whose records writes also append as side effects. */
  private sideEffectKinds(): SideEffectRecords[] {
    return this.allKinds().flatMap((k) => (k.sideEffects ? [k.sideEffects] : []));
  }

  /** Marks taken before a write, one per kind with side-effect records. */
  markSideEffects(db: Db): number[] {
    return this.sideEffectKinds().map((k) => k.mark(db));
  }

  /** The side-effect records appended since `marks` (markSideEffects). */
  sideEffectsSince(db: Db, marks: readonly number[]): string[] {
    return this.sideEffectKinds().flatMap((k, i) => k.since(db, marks[i]));
  }

  /** Deletes side-effect records (the change they tell of did not happen here, or will not reach the remote). */
  deleteSideEffects(db: Db, ids: readonly string[]): void {
    for (const k of this.sideEffectKinds()) k.delete(db, ids);
  }

  /** A superseded entry's side-effect records go with it, and so do the records of side-effect kinds it created. */
  dropSuperseded(db: Db, entry: OutboxEntry): void {
    this.deleteSideEffects(db, entry.sideEffectLogIds);
    for (const c of entry.createdIds) {
      const kind = this.kind(c.resource);
      if (!kind?.sideEffects) continue;
      kind.rows.deleteByIds(db, [c.id]);
      db.run('DELETE FROM sync_id_map WHERE local_id = ?', [c.id]);
    }
  }
}
