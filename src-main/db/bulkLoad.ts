// Bulk loads into empty tables (the sync's initial pull, the demo seed):
// secondary indexes are dropped first and rebuilt once at the end (one sort per index instead of a random B-tree
// insert per row and index). Unique and primary keys stay, so upserts and
// lookups by id keep working. The dropped definitions are recorded in the
// same transaction as the drop, so an interrupted load (crash, kill -9) is
// repaired at the next open (openDatabase calls restoreIndexes).
import type { Database as RawDatabase } from 'better-sqlite3';

/**
 * What a bulk load uses of the database (database.ts Db). Structural, because openDatabase itself repairs an
 * interrupted load (restoreIndexes): importing Db here would tie the two modules in an import cycle.
 */
interface Db {
  readonly raw: Pick<RawDatabase, 'exec'>;
  all<T>(sql: string, params?: readonly (string | number | null)[]): T[];
  get<T>(sql: string, params?: readonly (string | number | null)[]): T | undefined;
  run(sql: string, params?: readonly (string | number | null)[]): unknown;
  tx<T>(fn: () => T): T;
  setting(key: string): string | undefined;
  setSetting(key: string, value: string): void;
}

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

export interface BulkLoadOptions {
  /**
   * Also defer unique indexes (annotations_id, annotation_logs_id). Only for a loader that never inserts an id
   * twice and looks nothing up by id in the meantime (both would need the index): it keeps its own record of
   * the ids it inserted (sync/pull.ts BulkLoad).
   */
  readonly deferUnique?: boolean;
}

/** Drops the secondary indexes of `tables` when the first one is empty; returns whether it did. */
export function beginBulkLoad(db: Db, tables: readonly string[], options: BulkLoadOptions = {}): boolean {
  if (db.get(`SELECT 1 FROM ${tables[0]} LIMIT 1`)) return false;
  return db.tx(() => {
    const list = db.all<Deferred>(
      `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (SELECT value FROM json_each(?))
         AND (? OR sql NOT LIKE 'CREATE UNIQUE INDEX%')`,
      [JSON.stringify(tables), options.deferUnique ? 1 : 0],
    );
    if (list.length === 0) return false;
    db.setSetting(SETTING, JSON.stringify([...deferred(db), ...list]));
    for (const ix of list) db.raw.exec(`DROP INDEX "${ix.name.replace(/"/g, '""')}"`);
    return true;
  });
}

/** Creates one deferred index (part of the caller's transaction). */
function createDeferred(db: Db, ix: Deferred): void {
  if (db.get("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?", [ix.name])) return;
  try {
    db.raw.exec(ix.sql);
  } catch (e) {
    const idIndex = /^CREATE UNIQUE INDEX \w+ ON (\w+)\(id\)$/.exec(ix.sql);
    if (!idIndex || (e as { code?: string }).code !== 'SQLITE_CONSTRAINT_UNIQUE') throw e;
    // A loader inserted an id twice (a bug): keep each id's latest copy rather than leave a database that
    // cannot open (this runs at every open until it succeeds). Their child rows go with the older copies.
    db.run(`DELETE FROM ${idIndex[1]} WHERE pk NOT IN (SELECT max(pk) FROM ${idIndex[1]} GROUP BY id)`);
    db.raw.exec(ix.sql);
  }
}

/** Rebuilds every index a bulk load dropped (idempotent). */
export function restoreIndexes(db: Db): number {
  const list = deferred(db);
  if (list.length === 0) return 0;
  db.tx(() => {
    for (const ix of list) createDeferred(db, ix);
    db.run('DELETE FROM settings WHERE key = ?', [SETTING]);
  });
  return list.length;
}

/**
 * restoreIndexes one index per transaction, calling `pause` between them. The annotations' 16 indexes took
 * 1.1 s for 100k rows here (bench/sync.ts), so about ten times that for a million, which would otherwise hold
 * the process (the desktop's IPC, the served API) in one stretch. Each index leaves the deferred list as it commits.
 */
export async function restoreIndexesGradually(db: Db, pause: () => Promise<void>): Promise<number> {
  let done = 0;
  for (let list = deferred(db); list.length > 0; list = deferred(db)) {
    const [ix, ...rest] = list;
    db.tx(() => {
      createDeferred(db, ix);
      if (rest.length) db.setSetting(SETTING, JSON.stringify(rest));
      else db.run('DELETE FROM settings WHERE key = ?', [SETTING]);
    });
    done++;
    await pause();
  }
  return done;
}

/**
 * The ids a bulk load with deferred unique indexes inserted, with their pks: its stand-in for the id index
 * while that index is absent (a lookup by id would scan the table; an id inserted twice would break the index).
 */
export type LoadedIds = Map<string, number>;
