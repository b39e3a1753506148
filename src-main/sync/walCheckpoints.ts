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
// checkpoint only moves committed pages; every commit syncs the WAL either way).
import type { Db } from '../db/database';

const SYNC_WAL_AUTOCHECKPOINT_PAGES = 10_000;

/** Widens the connection's checkpoint threshold; returns the function that puts the previous one back. */
export function widenCheckpoints(db: Db): () => void {
  const previous = db.raw.pragma('wal_autocheckpoint', { simple: true }) as number;
  if (previous <= 0 || previous >= SYNC_WAL_AUTOCHECKPOINT_PAGES) return () => {};
  db.raw.pragma(`wal_autocheckpoint = ${SYNC_WAL_AUTOCHECKPOINT_PAGES}`);
  return () => db.raw.pragma(`wal_autocheckpoint = ${previous}`);
}
