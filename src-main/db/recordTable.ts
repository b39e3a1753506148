// A table of records keyed by a UUID `id`, as its one store hands it to code
// outside the store (sync): the table's name to read a record by id, and the
// only two writes sync makes to rows it does not apply itself. A store makes
// its table's with `recordTable('<table>')` (the architecture test reads that
// call as the store writing the table), and passes its own rename when giving a
// record another id moves more than the `id` column (ids held by its children).
import type { Db } from './database';

export interface RecordTable {
  readonly table: string;
  /** A record takes another id: an offline create that the remote made under its own id. */
  rename(db: Db, fromId: string, toId: string): void;
  /** Deletes records by id; what hangs from them goes by ON DELETE CASCADE. */
  deleteByIds(db: Db, ids: readonly string[]): void;
}

export function recordTable(table: string, rename?: RecordTable['rename']): RecordTable {
  return {
    table,
    rename: rename ?? ((db, fromId, toId) => db.run(`UPDATE ${table} SET id = ? WHERE id = ?`, [toId, fromId])),
    deleteByIds(db, ids) {
      if (ids.length) db.run(`DELETE FROM ${table} WHERE id IN (SELECT value FROM json_each(?))`, [JSON.stringify(ids)]);
    },
  };
}
