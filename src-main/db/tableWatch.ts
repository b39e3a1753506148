// Whether some tables may have changed since a moment, for caches of what is
// read from them (callers, authorization). Per connection:
// - writes on this connection bump a counter through TEMP triggers (every
//   writer, whatever store or migration it is, is seen);
// - writes by other connections or processes change `PRAGMA data_version`.
// A rolled-back write still bumps the counter: at worst one extra read.
import type { Statement } from 'better-sqlite3';
import type { Db } from './database';

/** What a cached value was read under; equal stamps mean none of the watched tables changed in between. */
export type Stamp = readonly [generation: number, dataVersion: number];

export interface TableWatch {
  stamp(): Stamp;
}

interface Watches {
  readonly dataVersion: Statement;
  readonly generations: Map<string, number>;
  readonly byName: Map<string, TableWatch>;
}

const perDb = new WeakMap<Db, Watches>();

function watchesOf(db: Db): Watches {
  let w = perDb.get(db);
  if (w) return w;
  const generations = new Map<string, number>();
  w = { dataVersion: db.raw.prepare('PRAGMA data_version').pluck(), generations, byName: new Map() };
  db.raw.function('outpost_watch_changed', { deterministic: false }, (name: unknown) => {
    generations.set(String(name), (generations.get(String(name)) ?? 0) + 1);
    return null;
  });
  perDb.set(db, w);
  return w;
}

/**
 * A watch named `name` over `tables` of the main schema (one per name and connection; the same name must always watch
 * the same tables). Undefined where TEMP triggers cannot be made (a read-only connection): cache nothing then.
 */
export function watchTables(db: Db, name: string, tables: readonly string[]): TableWatch | undefined {
  let watches: Watches;
  try {
    watches = watchesOf(db);
  } catch {
    return undefined;
  }
  const known = watches.byName.get(name);
  if (known) return known;
  // Triggers made inside a transaction would vanish with its rollback while the watch stayed: wait for a moment outside.
  if (db.raw.inTransaction) return undefined;
  try {
    for (const table of tables) {
      for (const op of ['INSERT', 'UPDATE', 'DELETE']) {
        db.raw.exec(
          `CREATE TEMP TRIGGER IF NOT EXISTS outpost_watch_${name}_${table}_${op.toLowerCase()} AFTER ${op} ON main.${table} BEGIN SELECT outpost_watch_changed('${name}'); END`,
        );
      }
    }
  } catch {
    return undefined;
  }
  const watch: TableWatch = {
    stamp: () => [watches.generations.get(name) ?? 0, watches.dataVersion.get() as number],
  };
  watches.byName.set(name, watch);
  return watch;
}

export const sameStamp = (a: Stamp, b: Stamp): boolean => a[0] === b[0] && a[1] === b[1];
