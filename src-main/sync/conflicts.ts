// The conflict log: the losing value of every per-field conflict (and records
// found gone on the remote), kept for the user to list and undo. Listing and
// undo are service operations (operations/syncService.ts).
import { randomUUID } from 'node:crypto';
import { nowMicros } from '../../src-shared/api/time';
import type { Db } from '../db/database';
import { isUnmappedLocalId } from './idMap';
import { hasPending } from './outbox';

/**
 * field: both sides changed it; remote_missing: gone from the remote; duplicate: a replayed create made a second copy;
 * id_collision: the remote sent another record under the id of one made here (collisions.ts).
 */
export type ConflictKind = 'field' | 'remote_missing' | 'duplicate' | 'id_collision';

export interface NewConflict {
  readonly kind: ConflictKind;
  readonly resource: string;
  readonly recordId: string;
  /** Synced field name (snake_case), or '*' for the whole record. */
  readonly field: string;
  readonly winner: 'local' | 'remote';
  readonly localValue: unknown;
  readonly remoteValue: unknown;
  readonly localTime?: number | null;
  readonly remoteTime?: number | null;
  readonly message?: string;
}

export function countOpenConflicts(db: Db): number {
  return db.get<{ n: number }>("SELECT count(*) AS n FROM sync_conflicts WHERE state = 'open'")!.n;
}

export function recordConflict(db: Db, c: NewConflict): string {
  const id = randomUUID();
  db.run(
    `INSERT INTO sync_conflicts(id, kind, resource, record_id, field, winner, local_value, remote_value, local_time, remote_time, message, created_date)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      id,
      c.kind,
      c.resource,
      c.recordId,
      c.field,
      c.winner,
      c.localValue === undefined ? null : JSON.stringify(c.localValue),
      c.remoteValue === undefined ? null : JSON.stringify(c.remoteValue),
      c.localTime ?? null,
      c.remoteTime ?? null,
      c.message ?? '',
      nowMicros(),
    ],
  );
  return id;
}

/**
 * Records the remote no longer has that are kept here all the same: an edit of them was pushed and found them gone
 * (an open `remote_missing` conflict, push.ts). The pulls that remove what the remote deleted leave these alone
 * until the user dismisses the conflict; the copy here is what the user still has of their edit.
 */
export function keptAfterRemoteDeletion(db: Db, resource: string): Set<string> {
  return new Set(
    db
      .all<{ record_id: string }>(
        "SELECT record_id FROM sync_conflicts WHERE state = 'open' AND kind = 'remote_missing' AND resource = ?",
        [resource],
      )
      .map((r) => r.record_id),
  );
}

/**
 * What the pulls that remove remote deletions ask of a record the remote no longer lists: whether it stays here all
 * the same. It does while it is on its way (made here and not sent yet: an unmapped local id; or edited here, the
 * edit still open) or kept after an edit found it deleted there (keptAfterRemoteDeletion). One checker per
 * reconcile: it reads each resource's kept records once.
 */
export function remoteDeletionStays(db: Db): (resource: string, id: string) => boolean {
  const kept = new Map<string, Set<string>>();
  const isKept = (resource: string, id: string) => {
    let ids = kept.get(resource);
    if (!ids) kept.set(resource, (ids = keptAfterRemoteDeletion(db, resource)));
    return ids.has(id);
  };
  return (resource, id) => isUnmappedLocalId(db, id) || hasPending(db, resource, id) || isKept(resource, id);
}
