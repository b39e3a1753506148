// The three-way, per-field merge of a remote version into a local record with
// pending local edits, for any resource whose synced fields are a flat record
// of JSON values (recordShape.ts mergeRecord gives it a kind's fields).
//   - a field changed only remotely takes the remote value;
//   - changed only locally keeps the local value (the outbox sends it);
//   - changed on both: the later write wins (local edit time, corrected by the
//     measured clock offset, against the remote's modified_date); the losing
//     value goes to the conflict log; a losing local field is dropped from the
//     pending entries.
import { sameValue } from './canonical';
import { recordConflict } from './conflicts';
import { hasPending, ownFields, pendingFields } from './outbox';
import type { ApplyContext } from './apply';
import type { Db } from '../db/database';

export interface MergeInput {
  readonly resource: string;
  readonly recordId: string;
  readonly local: Record<string, unknown>;
  readonly remote: Record<string, unknown>;
  /** Remote modified_date (micros). */
  readonly remoteTime: number;
  write(field: string, value: unknown): void;
}

/** The merge base kept for a record (its remote state when the first pending edit was made), if any. */
export function baseFields(db: Db, resource: string, recordId: string): Record<string, unknown> | undefined {
  const row = db.get<{ fields: string }>('SELECT fields FROM sync_base WHERE resource = ? AND record_id = ?', [resource, recordId]);
  return row && (JSON.parse(row.fields) as Record<string, unknown>);
}

/** Forgets a record's merge base: nothing of ours is pending on it any more. */
export function forgetBase(db: Db, resource: string, recordId: string): void {
  db.run('DELETE FROM sync_base WHERE resource = ? AND record_id = ?', [resource, recordId]);
}

/** Merges and maintains the base; returns whether local edits are still pending. */
export function mergeFields(ctx: ApplyContext, m: MergeInput): boolean {
  const { db } = ctx;
  const base = baseFields(db, m.resource, m.recordId);
  const pending = pendingFields(db, m.resource, m.recordId, ctx.excludeSeq);
  // Fields the entry being completed wrote: their remote change is ours.
  const own = ownFields(ctx, m.resource, m.recordId);
  for (const f of Object.keys(m.remote)) {
    if (sameValue(m.local[f], m.remote[f])) continue;
    const p = pending.get(f);
    if (!p) {
      m.write(f, m.remote[f]);
      continue;
    }
    if (!base || own.has(f) || sameValue(m.remote[f], base[f])) continue;
    const localTime = p.localTime + ctx.clockOffset;
    const remoteWins = m.remoteTime > localTime;
    if (remoteWins) {
      m.write(f, m.remote[f]);
      for (const seq of p.seqs) ctx.dropField(seq, m.resource, m.recordId, f);
    }
    recordConflict(db, {
      kind: 'field',
      resource: m.resource,
      recordId: m.recordId,
      field: f,
      winner: remoteWins ? 'remote' : 'local',
      localValue: m.local[f],
      remoteValue: m.remote[f],
      localTime,
      remoteTime: m.remoteTime,
    });
    ctx.stats.conflicts++;
  }
  const stillPending = hasPending(db, m.resource, m.recordId, ctx.excludeSeq);
  if (stillPending) {
    db.run(
      `INSERT INTO sync_base(resource, record_id, remote_version, fields) VALUES (?, ?, ?, ?)
       ON CONFLICT(resource, record_id) DO UPDATE SET remote_version = excluded.remote_version, fields = excluded.fields`,
      [m.resource, m.recordId, m.remoteTime, JSON.stringify(m.remote)],
    );
  } else {
    forgetBase(db, m.resource, m.recordId);
  }
  return stillPending;
}
