// Ids never collide silently (issue #30): a pulled record whose id a record
// here already holds, when that record is not one the remote sent (it lives in
// an organization of this profile's own, made before the link; or it was made
// here and its create has never been sent), is another record, not an
// update. (A create that was sent and lost its answer may have made exactly
// this record there: the pull's adoption decides that, not this check.) The
// local one stays as it is; the remote one is not applied, and an open
// `id_collision` conflict names it (once, however often it is pulled).
import type { Db } from '../db/database';
import { recordConflict } from './conflicts';

const ID_COLLISION = 'id_collision';

/** The ids of `ids` held in `table` by records the remote never sent. */
function collidingIds(db: Db, table: string, ids: readonly string[], remoteOrganizations: readonly string[]): Set<string> {
  return new Set(
    db
      .all<{ id: string }>(
        `SELECT id FROM ${table} WHERE id IN (SELECT value FROM json_each(?))
           AND (organization_id NOT IN (SELECT value FROM json_each(?))
                OR id IN (SELECT m.local_id FROM sync_id_map m JOIN sync_outbox o ON o.seq = m.created_by_seq
                          WHERE m.remote_id IS NULL AND o.attempts = 0))`,
        [JSON.stringify(ids), JSON.stringify(remoteOrganizations)],
      )
      .map((r) => r.id),
  );
}

/** Where a puller's records collide: their own table, and (for records that belong to another) their parent's. */
export interface CollisionCheck<T = unknown> {
  readonly table: string;
  readonly kind: string;
  /**
   * The record each item belongs to (a comment's annotation): an item whose parent id is held here by a record the
   * remote never sent belongs to that other record, not to ours; it is not applied (the parent's conflict names it).
   */
  readonly parent?: { readonly table: string; idOf(item: T): string };
}

/** Of a pulled page, the items to apply; each collision is logged as an open conflict (in the page's transaction). */
export function withoutIdCollisions<T>(
  db: Db,
  { table, kind, parent }: CollisionCheck<T>,
  items: T[],
  idOf: (item: T) => string,
  remoteOrganizations: readonly string[],
): T[] {
  if (items.length === 0) return items;
  const colliding = collidingIds(db, table, items.map(idOf), remoteOrganizations);
  const foreignParents = parent ? collidingIds(db, parent.table, [...new Set(items.map(parent.idOf))], remoteOrganizations) : new Set();
  if (colliding.size === 0 && foreignParents.size === 0) return items;
  for (const id of colliding) {
    const logged = db.get("SELECT 1 FROM sync_conflicts WHERE kind = ? AND resource = ? AND record_id = ? AND state = 'open'", [
      ID_COLLISION,
      kind,
      id,
    ]);
    if (logged) continue;
    recordConflict(db, {
      kind: ID_COLLISION,
      resource: kind,
      recordId: id,
      field: '*',
      winner: 'local',
      localValue: null,
      remoteValue: items.find((i) => idOf(i) === id),
      message: `the remote sent a different record with the same id as one made here (${id}); the one here is kept as it is and the remote's is not copied`,
    });
  }
  return items.filter((i) => !colliding.has(idOf(i)) && !(parent && foreignParents.has(parent.idOf(i))));
}
