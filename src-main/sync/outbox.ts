// The outbox: every replicated local write appends an entry (operation,
// validated request, the records and fields it changed, their base remote
// version) in the write's own transaction, through the WriteRecorder that
// invoke() calls on a sync replica (recorder.ts). Pull-applied changes are
// written with SQL by the sync modules, never through invoke, so they create
// no entries. This module is the entry store.
import type { Db } from '../db/database';
import { entryFromRow, type EntryState, type OutboxEntry, type OutboxRow, type Target } from './types';

/** Wall clock in epoch micros (conflict ordering only; never a pull cursor). */
export const localClock = () => Date.now() * 1000;

export const OPEN_STATES = "('pending', 'inflight')";

/** Whether an entry (or its row) is still open: pending or in flight (OPEN_STATES, in code). */
export const isOpen = <E extends { readonly state: string }>(e: E | undefined): e is E =>
  e !== undefined && (e.state === 'pending' || e.state === 'inflight');

export function openEntries(db: Db, afterSeq = 0, limit = 500): OutboxEntry[] {
  return db
    .all<OutboxRow>(`SELECT * FROM sync_outbox WHERE state IN ${OPEN_STATES} AND seq > ? ORDER BY seq LIMIT ?`, [afterSeq, limit])
    .map(entryFromRow);
}

export function loadEntry(db: Db, seq: number): OutboxEntry | undefined {
  const row = db.get<OutboxRow>('SELECT * FROM sync_outbox WHERE seq = ?', [seq]);
  return row && entryFromRow(row);
}

/** The resources whose records open entries write. */
export function openTargetResources(db: Db): Set<string> {
  const rows = db.all<{ resource: string }>(
    `SELECT DISTINCT t.resource FROM sync_outbox o CROSS JOIN sync_outbox_targets t ON t.seq = o.seq WHERE o.state IN ${OPEN_STATES}`,
  );
  return new Set(rows.map((r) => r.resource));
}

/** Of `seqs`, those still open (pending or in flight). */
export function openAmong(db: Db, seqs: readonly number[]): Set<number> {
  const rows = db.all<{ seq: number }>(
    `SELECT seq FROM sync_outbox WHERE seq IN (SELECT value FROM json_each(?)) AND state IN ${OPEN_STATES}`,
    [JSON.stringify(seqs)],
  );
  return new Set(rows.map((r) => r.seq));
}

export function countOpen(db: Db): number {
  return db.get<{ n: number }>(`SELECT count(*) AS n FROM sync_outbox WHERE state IN ${OPEN_STATES}`)!.n;
}

export function countFailed(db: Db): number {
  return db.get<{ n: number }>("SELECT count(*) AS n FROM sync_outbox WHERE state = 'failed'")!.n;
}

/** The failed entries that match `where` (one parameter: `JSON(values)`), back in the queue; returns them. */
const requeue = (db: Db, where: string, values: readonly number[]): number[] =>
  db
    .all<{ seq: number }>(
      `UPDATE sync_outbox SET state = 'pending', error_code = NULL, last_error = NULL, done_date = NULL
       WHERE state = 'failed' AND ${where} RETURNING seq`,
      [JSON.stringify(values)],
    )
    .map((r) => r.seq);

/** Puts failed entries back in the queue (RetrySyncEntry); returns those that were failed. */
export const requeueFailed = (db: Db, seqs: readonly number[]): number[] => requeue(db, 'seq IN (SELECT value FROM json_each(?))', seqs);

/**
 * Puts back in the queue the failed entries whose requests name a record one of `creators` creates that the remote
 * does not have yet (they failed because it did); returns them.
 */
export const requeueFailedDependents = (db: Db, creators: readonly number[]): number[] =>
  requeue(
    db,
    `EXISTS (SELECT 1 FROM sync_id_map m WHERE m.created_by_seq IN (SELECT value FROM json_each(?)) AND m.remote_id IS NULL
       AND instr(sync_outbox.request, m.local_id) > 0)`,
    creators,
  );

/** Sets entries aside for good (DismissSyncEntry): never sent. */
export function dismissEntries(db: Db, seqs: readonly number[]): void {
  db.run("UPDATE sync_outbox SET state = 'dismissed', done_date = ? WHERE seq IN (SELECT value FROM json_each(?))", [
    localClock(),
    JSON.stringify(seqs),
  ]);
}

export function hasPending(db: Db, resource: string, recordId: string, excludeSeq = 0): boolean {
  return !!db.get(
    // CROSS JOIN keeps the record's targets as the outer loop (never a scan of every open entry).
    `SELECT 1 FROM sync_outbox_targets t CROSS JOIN sync_outbox o ON o.seq = t.seq
     WHERE t.resource = ? AND t.record_id = ? AND o.state IN ${OPEN_STATES} AND o.seq != ? LIMIT 1`,
    [resource, recordId, excludeSeq],
  );
}

export interface PendingField {
  /** Latest local edit time of the field among open entries. */
  localTime: number;
  seqs: number[];
}

/** field -> open entries changing it, for one record. */
export function pendingFields(db: Db, resource: string, recordId: string, excludeSeq = 0): Map<string, PendingField> {
  const out = new Map<string, PendingField>();
  const rows = db.all<{ seq: number; fields: string; local_time: number }>(
    `SELECT o.seq, t.fields, o.local_time FROM sync_outbox_targets t CROSS JOIN sync_outbox o ON o.seq = t.seq
     WHERE t.resource = ? AND t.record_id = ? AND o.state IN ${OPEN_STATES} AND o.seq != ? ORDER BY o.seq`,
    [resource, recordId, excludeSeq],
  );
  for (const r of rows) {
    for (const f of JSON.parse(r.fields) as string[]) {
      const p = out.get(f) ?? { localTime: 0, seqs: [] };
      p.localTime = Math.max(p.localTime, r.local_time);
      p.seqs.push(r.seq);
      out.set(f, p);
    }
  }
  return out;
}

/** The fields entry `seq` writes on a record (undefined: it does not target it). */
function targetFields(db: Db, seq: number, resource: string, recordId: string): string[] | undefined {
  const row = db.get<{ fields: string }>('SELECT fields FROM sync_outbox_targets WHERE seq = ? AND resource = ? AND record_id = ?', [
    seq,
    resource,
    recordId,
  ]);
  return row && (JSON.parse(row.fields) as string[]);
}

/** The fields the entry whose result is being applied wrote on a record (empty outside push results). */
export function ownFields(ctx: { db: Db; excludeSeq?: number }, resource: string, recordId: string): Set<string> {
  return new Set(ctx.excludeSeq === undefined ? [] : targetFields(ctx.db, ctx.excludeSeq, resource, recordId));
}

export function setRequest(db: Db, seq: number, request: unknown): void {
  db.run('UPDATE sync_outbox SET request = ? WHERE seq = ?', [JSON.stringify(request), seq]);
}

/** Removes a field from an entry's target (the remote won it). */
export function dropTargetField(db: Db, seq: number, resource: string, recordId: string, field: string): void {
  const fields = targetFields(db, seq, resource, recordId)?.filter((f) => f !== field);
  if (!fields) return;
  db.run('UPDATE sync_outbox_targets SET fields = ? WHERE seq = ? AND resource = ? AND record_id = ?', [
    JSON.stringify(fields),
    seq,
    resource,
    recordId,
  ]);
}

export function removeTarget(db: Db, seq: number, resource: string, recordId: string): void {
  db.run('DELETE FROM sync_outbox_targets WHERE seq = ? AND resource = ? AND record_id = ?', [seq, resource, recordId]);
}

export const targetsOf = (db: Db, seq: number): Target[] => targetsOfMany(db, [seq]).get(seq)!;

/** targetsOf for many entries in one query (the push scheduler reads them for every entry it considers). */
export function targetsOfMany(db: Db, seqs: readonly number[]): Map<number, Target[]> {
  const out = new Map<number, Target[]>(seqs.map((seq) => [seq, []]));
  for (const r of db.all<{ seq: number; resource: string; record_id: string; fields: string }>(
    'SELECT seq, resource, record_id, fields FROM sync_outbox_targets WHERE seq IN (SELECT value FROM json_each(?))',
    [JSON.stringify(seqs)],
  )) {
    out.get(r.seq)?.push({ resource: r.resource, recordId: r.record_id, fields: JSON.parse(r.fields) as string[] });
  }
  return out;
}

/** Drops the merge base of records whose edits have all drained. */
function releaseBases(db: Db, targets: readonly Target[]): void {
  for (const t of targets) {
    if (!hasPending(db, t.resource, t.recordId))
      db.run('DELETE FROM sync_base WHERE resource = ? AND record_id = ?', [t.resource, t.recordId]);
  }
}

/** Drops the merge bases of records given up here (a discarded create and what was made with it). */
export function dropBases(db: Db, recordIds: readonly string[]): void {
  db.run('DELETE FROM sync_base WHERE record_id IN (SELECT value FROM json_each(?))', [JSON.stringify(recordIds)]);
}

export function finishEntry(
  db: Db,
  seq: number,
  state: Exclude<EntryState, 'pending' | 'inflight'>,
  detail: { code?: number; message?: string; result?: unknown } = {},
): void {
  const targets = targetsOf(db, seq);
  db.run('UPDATE sync_outbox SET state = ?, error_code = ?, last_error = ?, result = ?, done_date = ? WHERE seq = ?', [
    state,
    detail.code ?? null,
    detail.message ?? null,
    detail.result === undefined ? null : JSON.stringify(detail.result),
    localClock(),
    seq,
  ]);
  releaseBases(db, targets);
}

/**
 * Marks a create as sent. While in flight, `result` holds when it last left (local clock: it bounds network delay, it
 * is no cursor) and until when, in server time, its copy may be made on the remote (`quietMs`: how long a request may
 * take to land; see SendWindow).
 */
export function markInflight(db: Db, seq: number, serverTime: number, quietMs: number): void {
  db.run(
    `UPDATE sync_outbox SET state = 'inflight', attempts = attempts + 1, first_sent_server_time = COALESCE(first_sent_server_time, ?),
       result = json_object('lastSentAt', ?, 'sentUntil', ?) WHERE seq = ?`,
    [serverTime, Date.now(), serverTime + quietMs * 1000, seq],
  );
}

/** When a create's copy may have been made on the remote (server micros): from its first send to its last plus the time to land. */
export interface SendWindow {
  readonly from: number | null;
  readonly until: number | null;
}

/** The send window of an entry's row (an entry marked before windows were kept has no end: unknown). */
export function windowOf(row: { first_sent_server_time: number | null; result: string | null }): SendWindow {
  const until = row.result ? (JSON.parse(row.result) as { sentUntil?: number }).sentUntil : undefined;
  return { from: row.first_sent_server_time, until: until ?? null };
}

/** When an in-flight create last left this machine (epoch ms), if known. */
export function lastSentAt(db: Db, seq: number): number | undefined {
  const row = db.get<{ result: string | null; state: string }>('SELECT result, state FROM sync_outbox WHERE seq = ?', [seq]);
  if (!row || row.state !== 'inflight' || !row.result) return undefined;
  const at = (JSON.parse(row.result) as { lastSentAt?: number }).lastSentAt;
  return typeof at === 'number' ? at : undefined;
}

export function noteError(db: Db, seq: number, code: number | null, message: string): void {
  db.run('UPDATE sync_outbox SET error_code = ?, last_error = ? WHERE seq = ?', [code, message, seq]);
}

/** The side-effect records (history logs) open entries' writes appended here: on their way, like the entries. */
export function openSideEffectIds(db: Db): Set<string> {
  const ids = new Set<string>();
  for (const e of db.all<{ side_effect_log_ids: string }>(`SELECT side_effect_log_ids FROM sync_outbox WHERE state IN ${OPEN_STATES}`)) {
    for (const id of JSON.parse(e.side_effect_log_ids) as string[]) ids.add(id);
  }
  return ids;
}
