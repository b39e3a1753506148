// WAL checkpoint policy of a serving connection. SQLite checkpoints
// automatically inside the COMMIT that pushes the WAL past
// `wal_autocheckpoint` pages (default 1000, 4 MB): a stream of small writes
// (a client pushing thousands of edits, each its own transaction) then pays a
// checkpoint, copying ~1000 pages into the database file plus two fsyncs,
// every ~125 requests. Measured on `outpost serve` (bench/sync.ts push): about
// a third of an UpdateAnnotation's system time. A larger threshold copies each
// hot page (the modified_date index leaves, the table's last pages) once per
// checkpoint instead of once per 4 MB of WAL, at the price of a WAL file of up
// to ~40 MB. Durability is unchanged (a checkpoint only moves committed pages;
// every commit syncs the WAL either way, database.ts).
import type { Db } from '../db/database';

export const SERVE_WAL_AUTOCHECKPOINT_PAGES = 10_000;

export function useServingCheckpoints(db: Db): void {
  db.raw.pragma(`wal_autocheckpoint = ${SERVE_WAL_AUTOCHECKPOINT_PAGES}`);
}
