// Offline-created records get local ids (UUIDs, like every id). Once the
// remote creates one, the mapping local -> remote is stored and every local
// reference is rewritten to the remote id: the record itself and its children
// (its table's store), the columns declared as referencing it, the outbox
// entries that target it, bases and conflicts. Stale local ids still held by
// the UI are translated on the way in (translateIds, called by invoke's hook).
import { changeFeedFor } from '../services/changeFeed';
import { nowMicros } from '../../src-shared/api/time';
import type { Db } from '../db/database';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** How the local tables of (or pointing at) a record are rewritten when its id changes (its store and declared references; catalog.ts). */
export interface IdRewriters {
  rewriteId(db: Db, resource: string, localId: string, remoteId: string): void;
  /** The kind's local table, as the change feed names records. */
  tableOf(resource: string): string | undefined;
}

/** Where mapLocalId runs: the push's or the apply's context. */
export interface IdMapContext {
  readonly db: Db;
  readonly idRewriters: IdRewriters;
}

/** Every UUID-shaped string inside a JSON value. */
export function collectIds(value: unknown, out = new Set<string>()): Set<string> {
  if (typeof value === 'string') {
    if (value.length === 36 && UUID.test(value)) out.add(value);
  } else if (Array.isArray(value)) {
    for (const v of value) collectIds(v, out);
  } else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) collectIds(v, out);
  }
  return out;
}

/** A copy of `value` with strings replaced through `map` (the same object when nothing matches). */
export function replaceIds<T>(value: T, map: ReadonlyMap<string, string>): T {
  if (map.size === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return map.get(v) ?? v;
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/**
 * What the id map says of the ids in `value`, in one query: which await their create (with the entry that creates
 * each) and which the remote knows by another id.
 */
export function idStates(db: Db, value: unknown): { unmapped: { localId: string; createdBySeq: number }[]; mapped: Map<string, string> } {
  const ids = collectIds(value);
  const unmapped: { localId: string; createdBySeq: number }[] = [];
  const mapped = new Map<string, string>();
  if (ids.size === 0) return { unmapped, mapped };
  for (const r of db.all<{ local_id: string; remote_id: string | null; created_by_seq: number }>(
    'SELECT local_id, remote_id, created_by_seq FROM sync_id_map WHERE local_id IN (SELECT value FROM json_each(?))',
    [JSON.stringify([...ids])],
  )) {
    if (r.remote_id === null) unmapped.push({ localId: r.local_id, createdBySeq: r.created_by_seq });
    else if (r.remote_id !== r.local_id) mapped.set(r.local_id, r.remote_id);
  }
  return { unmapped, mapped };
}

/** remote id -> local id, for the ids among `ids` that are the remote ids of records created here. */
export function localIdsOf(db: Db, ids: Iterable<string>): Map<string, string> {
  const rows = db.all<{ local_id: string; remote_id: string }>(
    'SELECT local_id, remote_id FROM sync_id_map WHERE remote_id IN (SELECT value FROM json_each(?))',
    [JSON.stringify([...ids])],
  );
  return new Map(rows.map((r) => [r.remote_id, r.local_id]));
}

/** Replaces ids of records the remote has since created with their remote ids. */
export function translateIds<T>(db: Db, value: T): T {
  return replaceIds(value, idStates(db, value).mapped);
}

/** Local ids in `value` whose create has not reached the remote yet, with the entry that creates each. */
export const unmappedIds = (db: Db, value: unknown) => idStates(db, value).unmapped;

/** A remote record no local one stands for yet (held under its id, or mapped to it): one an earlier attempt may have made. */
export const unclaimed = (db: Db, table: string, id: string) =>
  !db.get(`SELECT 1 FROM ${table} WHERE id = ?`, [id]) && !db.get('SELECT 1 FROM sync_id_map WHERE remote_id = ?', [id]);

export function isUnmappedLocalId(db: Db, id: string): boolean {
  return !!db.get('SELECT 1 FROM sync_id_map WHERE local_id = ? AND remote_id IS NULL', [id]);
}

/** Whether entry `seq` created record `localId` and the remote has none for it yet. */
export function createdOnlyHere(db: Db, localId: string, seq: number): boolean {
  return !!db.get('SELECT 1 FROM sync_id_map WHERE local_id = ? AND created_by_seq = ? AND remote_id IS NULL', [localId, seq]);
}

/** Forgets the mappings of records given up here (a discarded create: they will never exist on the remote). */
export function forgetLocalIds(db: Db, localIds: readonly string[]): void {
  db.run('DELETE FROM sync_id_map WHERE local_id IN (SELECT value FROM json_each(?))', [JSON.stringify(localIds)]);
}

export function remoteIdOf(db: Db, localId: string): string | undefined {
  return db.get<{ remote_id: string | null }>('SELECT remote_id FROM sync_id_map WHERE local_id = ?', [localId])?.remote_id ?? undefined;
}

/** Records that the remote created `localId` as `remoteId`, and rewrites every local reference. Idempotent. */
export function mapLocalId(ctx: IdMapContext, resource: string, localId: string, remoteId: string): void {
  const { db } = ctx;
  db.tx(() => {
    const row = db.get<{ remote_id: string | null }>('SELECT remote_id FROM sync_id_map WHERE local_id = ?', [localId]);
    if (row?.remote_id === remoteId) return;
    if (row) db.run('UPDATE sync_id_map SET remote_id = ?, mapped_date = ? WHERE local_id = ?', [remoteId, nowMicros(), localId]);
    if (localId === remoteId) return;
    ctx.idRewriters.rewriteId(db, resource, localId, remoteId);
    const seqs = db
      .all<{ seq: number }>('SELECT seq FROM sync_outbox_targets WHERE resource = ? AND record_id = ?', [resource, localId])
      .map((r) => r.seq);
    db.run('UPDATE sync_outbox_targets SET record_id = ? WHERE resource = ? AND record_id = ?', [remoteId, resource, localId]);
    // Requests of unsent entries that target the record (or reference it) now carry the remote id.
    const map = new Map([[localId, remoteId]]);
    const creator = db.get<{ created_by_seq: number }>('SELECT created_by_seq FROM sync_id_map WHERE local_id = ?', [
      localId,
    ])?.created_by_seq;
    for (const seq of new Set(creator === undefined ? seqs : [...seqs, creator])) {
      const e = db.get<{ seq: number; request: string }>(
        "SELECT seq, request FROM sync_outbox WHERE seq = ? AND state IN ('pending', 'inflight', 'failed')",
        [seq],
      );
      if (!e || !e.request.includes(localId)) continue;
      db.run('UPDATE sync_outbox SET request = ? WHERE seq = ?', [JSON.stringify(replaceIds(JSON.parse(e.request), map)), e.seq]);
    }
    db.run('UPDATE sync_base SET record_id = ? WHERE resource = ? AND record_id = ?', [remoteId, resource, localId]);
    db.run('UPDATE sync_conflicts SET record_id = ? WHERE resource = ? AND record_id = ?', [remoteId, resource, localId]);
    // A record made here now goes by its remote id: a view showing it by the old one reloads it.
    changeFeedFor(db).publish({ resource: ctx.idRewriters.tableOf(resource) ?? resource, ids: [localId, remoteId], reason: 'sync' });
  });
}
