// Bulk loads into empty tables (the sync's initial pull, the demo seed):
// secondary indexes are dropped first and rebuilt once at the end (one sort per index instead of a random B-tree
// insert per row and index). Unique and primary keys stay, so upserts and
// lookups by id keep working. The dropped definitions are recorded in the
// same transaction as the drop, so an interrupted load (crash, kill -9) is
// repaired at the next open (openDatabase calls restoreIndexes).
import type { Db } from '../db/database';

// The setting's name predates the move out of sync/; kept so interrupted loads still repair.
const SETTING = 'sync.deferred_indexes';

interface Deferred {
  name: string;
  sql: string;
}

function deferred(db: Db): Deferred[] {
  const text = db.setting(SETTING);
  return text ? (JSON.parse(text) as Deferred[]) : [];
}

/** Drops the secondary indexes of `tables` when the first one is empty; returns whether it did. */
export function beginBulkLoad(db: Db, tables: readonly string[]): boolean {
  if (db.get(`SELECT 1 FROM ${tables[0]} LIMIT 1`)) return false;
  return db.tx(() => {
    const list = db.all<Deferred>(
      `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (SELECT value FROM json_each(?))`,
      [JSON.stringify(tables)],
    );
    if (list.length === 0) return false;
    db.setSetting(SETTING, JSON.stringify([...deferred(db), ...list]));
    for (const ix of list) db.raw.exec(`DROP INDEX "${ix.name.replace(/"/g, '""')}"`);
    return true;
  });
}

/** Rebuilds every index a bulk load dropped (idempotent). */
export function restoreIndexes(db: Db): number {
  const list = deferred(db);
  if (list.length === 0) return 0;
  db.tx(() => {
    for (const ix of list) {
      if (!db.get("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?", [ix.name])) db.raw.exec(ix.sql);
    }
    db.run('DELETE FROM settings WHERE key = ?', [SETTING]);
  });
  return list.length;
}
