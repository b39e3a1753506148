// SQLite checkpoints automatically inside the COMMIT that pushes the WAL past
// `wal_autocheckpoint` pages (default 1000, 4 MB), copying every page the WAL
// holds back into the database file (plus two fsyncs). A sync writes in many
// small transactions that each dirty scattered pages (a pull page: ~1000
// random leaves of the unique id indexes; a push completion group: outbox
// rows, merge bases, id rewrites), so with the default nearly every few
// commits pays a checkpoint that copies the same hot pages again. Measured in
// bench/sync.ts: about a third of the annotation logs' apply time and of the
// push's commit time. For the duration of a sync the threshold is widened, so
// each page is copied once per 40 MB of WAL; durability is unchanged (a
// checkpoint moves committed pages only; commits sync the WAL at the connection's level).
import type { Db } from '../db/database';

export const SYNC_WAL_AUTOCHECKPOINT_PAGES = 10_000;

/** Widens the connection's checkpoint threshold; returns the function that puts the previous one back. */
export function widenCheckpoints(db: Db): () => void {
  const previous = db.raw.pragma('wal_autocheckpoint', { simple: true }) as number;
  if (previous <= 0 || previous >= SYNC_WAL_AUTOCHECKPOINT_PAGES) return () => {};
  db.raw.pragma(`wal_autocheckpoint = ${SYNC_WAL_AUTOCHECKPOINT_PAGES}`);
  return () => db.raw.pragma(`wal_autocheckpoint = ${previous}`);
}

/**
 * An initial bulk load commits a page at a time with its cursor, so a page lost to a power cut is pulled again
 * from the cursor that was lost with it: the load needs consistency, not durability per page. synchronous=NORMAL
 * (WAL mode: consistent after a power cut, the WAL synced at checkpoints only) spares an fsync per page (~1/4 of an
 * initial pull's apply time here, bench/sync.ts). Returns the function that puts the previous level back; the next
 * commit at FULL syncs the WAL with every page before it.
 */
export function relaxSyncForBulkLoad(db: Db): () => void {
  const previous = db.raw.pragma('synchronous', { simple: true }) as number;
  if (previous <= 1) return () => {};
  db.raw.pragma('synchronous = NORMAL');
  return () => db.raw.pragma(`synchronous = ${previous}`);
}
