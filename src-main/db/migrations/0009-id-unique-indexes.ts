// The `id` uniqueness of annotations and annotation logs moves from an inline
// UNIQUE constraint (an index that cannot be dropped) to named unique indexes
// (annotations_id, annotation_logs_id) that a bulk load into the empty tables
// can defer like any other index (db/bulkLoad.ts). Random UUID keys make that
// index the most expensive part of an initial pull: each page of 1000 rows
// dirties ~1000 random leaves, so it cost about a third of the annotations'
// apply and commit time (bench/sync.ts).
//
// SQLite cannot drop a constraint, so each table is rebuilt with SQLite's
// documented procedure (create the new table, copy, drop the old one, rename),
// with foreign keys off so the drop does not cascade to the child rows; the
// runner checks every foreign key before committing.
import type { Database } from 'better-sqlite3';
import type { Migration } from './types';

function rebuildWithUniqueIndex(db: Database, table: string): void {
  const sql = (db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) as { sql: string }).sql;
  const inline = 'id TEXT NOT NULL UNIQUE';
  if (!sql.includes(inline)) throw new Error(`migration 9: ${table} has no "${inline}" column`);
  const indexes = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL").all(table) as {
    sql: string;
  }[];
  const rebuilt = `${table}_rebuilt`;
  db.exec(sql.replace(/^CREATE TABLE "?\w+"?/, `CREATE TABLE ${rebuilt}`).replace(inline, 'id TEXT NOT NULL'));
  db.exec(`INSERT INTO ${rebuilt} SELECT * FROM ${table}`);
  db.exec(`DROP TABLE ${table}`);
  db.exec(`ALTER TABLE ${rebuilt} RENAME TO ${table}`);
  for (const ix of indexes) db.exec(ix.sql);
  db.exec(`CREATE UNIQUE INDEX ${table}_id ON ${table}(id)`);
}

export const migration0009: Migration = {
  version: 9,
  name: 'id-unique-indexes',
  foreignKeysOff: true,
  up(db) {
    rebuildWithUniqueIndex(db, 'annotations');
    rebuildWithUniqueIndex(db, 'annotation_logs');
  },
};
