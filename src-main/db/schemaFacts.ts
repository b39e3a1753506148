// Facts about a table's schema that query planning asks for on every list
// page (is this column the rowid? does an index start with it?), read once
// per connection: schemas do not change under a connection's lists.
import type { Db } from './database';

const facts = new WeakMap<Db, Map<string, boolean>>();

function known(db: Db, key: string, read: () => boolean): boolean {
  let byKey = facts.get(db);
  if (!byKey) facts.set(db, (byKey = new Map()));
  let yes = byKey.get(key);
  if (yes === undefined) byKey.set(key, (yes = read()));
  return yes;
}

/** Whether `column` is the table's INTEGER PRIMARY KEY (an alias of the rowid). */
export function isRowidAlias(db: Db, table: string, column: string): boolean {
  return known(db, `rowid ${table}.${column}`, () => {
    const pk = db.all<{ name: string; type: string }>('SELECT name, type FROM pragma_table_info(?) WHERE pk > 0', [table]);
    // A WITHOUT ROWID table's primary key is an index (origin 'pk'); a rowid alias is not.
    const pkIndex = db.get<{ n: number }>("SELECT count(*) AS n FROM pragma_index_list(?) WHERE origin = 'pk'", [table])?.n ?? 0;
    return pk.length === 1 && pk[0].name.toLowerCase() === column.toLowerCase() && pk[0].type.toUpperCase() === 'INTEGER' && pkIndex === 0;
  });
}

/** Whether an index of `table` starts with `column`. */
export function leadsAnIndex(db: Db, table: string, column: string): boolean {
  return known(
    db,
    `leads ${table}.${column}`,
    () =>
      db.get('SELECT 1 AS x FROM pragma_index_list(?) l JOIN pragma_index_info(l.name) i WHERE i.seqno = 0 AND i.name = ?', [
        table,
        column,
      ]) !== undefined,
  );
}
