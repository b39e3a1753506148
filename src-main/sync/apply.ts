// Applying remote state to the local store, shared by pull (pages) and push
// (the records the remote returns). Writes go straight to SQLite (bulk
// prepared statements), never through invoke(), so they create no outbox
// entries. When the remote wins a field that pending local entries change,
// the field is dropped from those entries (dropField). Each resource applies
// its own records (resources/<resource>/) in an ApplyContext from the Applier.
import type { Db } from '../db/database';
import type { IdRewriters } from './idMap';
import { dropTargetField, finishEntry, isOpen, loadEntry, removeTarget, setRequest, targetsOf } from './outbox';
import type { OutboxEntry } from './types';

export interface ApplyStats {
  inserted: number;
  updated: number;
  unchanged: number;
  conflicts: number;
  adopted: number;
}

export const emptyApplyStats = (): ApplyStats => ({ inserted: 0, updated: 0, unchanged: 0, conflicts: 0, adopted: 0 });

/**
 * How many records `fn` inserted or changed locally, read from the stats (inserted + updated; a record re-read
 * as it is here counts as unchanged): what a pull reports as arrived.
 */
export function changedBy(stats: ApplyStats, fn: () => void): number {
  const before = stats.inserted + stats.updated;
  fn();
  return stats.inserted + stats.updated - before;
}

/**
 * A comparable picture of a record's stored state (the rows the queries return, in their order), taken before
 * and after applying a remote version to tell whether anything was actually written. Queries must not select
 * values that a rewrite of the same data changes (pks of re-inserted child rows).
 */
export function storedState(db: Db, queries: readonly (readonly [sql: string, params: readonly unknown[]])[]): string {
  return JSON.stringify(queries.map(([sql, params]) => db.all(sql, params as never)));
}

export interface ApplyContext {
  readonly db: Db;
  /** Our user on the remote (recognises our own logs). */
  readonly userId: string;
  /** Added to local edit times before comparing them with server times. */
  readonly clockOffset: number;
  readonly stats: ApplyStats;
  /** The entry whose result is being applied: its fields no longer count as pending. */
  readonly excludeSeq?: number;
  /** Overwrite even when the remote version looks unchanged (a refetch after a failed entry). */
  readonly force?: boolean;
  /** Rewrites local references when a record made here is found on the remote (mapLocalId). */
  readonly idRewriters: IdRewriters;
  dropField(seq: number, resource: string, recordId: string, field: string): void;
}

/** How an entry loses a field (its operation's spec: spec.ts OpSpec dropField and targets). */
export interface FieldDropping {
  dropField?(request: unknown, recordId: string, field: string): unknown;
  targets(request: unknown): readonly { readonly resource: string; readonly recordId: string }[];
}

/** What applying needs of the replicated resources (catalog.ts ResourceCatalog). */
export interface ApplyResources extends IdRewriters {
  specFor(operation: string): FieldDropping | undefined;
  /** An entry given up entirely: removes what it appended or made here that told of its change (history logs). */
  dropSuperseded(db: Db, entry: OutboxEntry): void;
}

/** Gives up an open entry entirely (it lost every field it changed): its local history rows go with it. */
export function supersede(resources: ApplyResources, db: Db, seq: number, message: string): void {
  const entry = loadEntry(db, seq);
  if (!isOpen(entry)) return;
  resources.dropSuperseded(db, entry);
  finishEntry(db, seq, 'superseded', { message });
}

export function dropField(resources: ApplyResources, db: Db, seq: number, resource: string, recordId: string, field: string): void {
  const entry = loadEntry(db, seq);
  if (!isOpen(entry)) return;
  const spec = resources.specFor(entry.operation);
  const next = spec?.dropField ? spec.dropField(entry.request, recordId, field) : null;
  if (next === null) {
    supersede(resources, db, seq, `the remote's later value of ${field} won`);
    return;
  }
  setRequest(db, seq, next);
  dropTargetField(db, seq, resource, recordId, field);
  // A batch that no longer names the record (its only field gone) no longer writes it.
  const target = targetsOf(db, seq).find((t) => t.resource === resource && t.recordId === recordId);
  const named = spec!.targets(next).some((t) => t.resource === resource && t.recordId === recordId);
  if (target && target.fields.length === 0 && !named) removeTarget(db, seq, resource, recordId);
}

/** The options of one application of remote records (ApplyContext). */
export type ApplyOptions = Partial<Pick<ApplyContext, 'excludeSeq' | 'force' | 'clockOffset'>>;

/** One sync run's way of applying remote records: its counters, and the context each resource applies in. */
export interface Applier {
  readonly db: Db;
  readonly stats: ApplyStats;
  context(options?: ApplyOptions): ApplyContext;
}

/** One prepared-statement holder per database, reused across pages and push results (preparing per call costs more than the writes). */
export function cachedPerDb<T>(make: (db: Db) => T): (db: Db) => T {
  const cache = new WeakMap<Db, T>();
  return (db) => {
    let w = cache.get(db);
    if (!w) cache.set(db, (w = make(db)));
    return w;
  };
}

export function createApplier(
  db: Db,
  userId: string,
  clockOffset: number,
  resources: ApplyResources,
  stats: ApplyStats = emptyApplyStats(),
): Applier {
  return {
    db,
    stats,
    context: (options = {}) => ({
      db,
      userId,
      clockOffset,
      stats,
      ...options,
      idRewriters: resources,
      dropField: (seq, resource, recordId, field) => dropField(resources, db, seq, resource, recordId, field),
    }),
  };
}
