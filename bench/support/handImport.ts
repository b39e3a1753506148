// The bulk path's floor (#33 goal 3): the rows an initial sync wrote, imported
// by hand into an empty database of the same schema: one prepared INSERT per
// table, every row in one transaction, the same secondary indexes built
// after. No wire records, no mapping, no per-page transactions: what SQLite
// alone needs to hold these rows, indexed.
import { performance } from 'node:perf_hooks';
import { withoutCommitSync, withoutForeignKeyChecks, type Db, type SqlValue } from '../../src-main/db/database';

interface TableRows {
  readonly name: string;
  readonly columns: string[];
  readonly rows: SqlValue[][];
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Reads every table `source` holds rows in and `target` holds none in (the rows the sync brought), drops those tables'
 * secondary indexes in `target` (unique ones too, as the bulk path defers them), then times the import. Reading and
 * dropping are not timed.
 */
export function handImport(source: Db, target: Db): { ms: number; cpuMs: number; tables: number; rows: number; indexes: number } {
  const names = source
    .all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .map((t) => t.name)
    .filter((n) => source.get(`SELECT 1 FROM ${quote(n)} LIMIT 1`) && !target.get(`SELECT 1 FROM ${quote(n)} LIMIT 1`));
  const tables: TableRows[] = names.map((name) => {
    const stmt = source.raw.prepare(`SELECT * FROM ${quote(name)}`).raw(true);
    return { name, columns: stmt.columns().map((c) => c.name), rows: stmt.all() as SqlValue[][] };
  });
  const indexes = target.all<{ name: string; sql: string }>(
    "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (SELECT value FROM json_each(?))",
    [JSON.stringify(names)],
  );
  target.tx(() => indexes.forEach((ix) => target.raw.exec(`DROP INDEX ${quote(ix.name)}`)));

  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  // The same connection settings the bulk path writes under: no foreign key checks, a commit without fsync.
  withoutForeignKeyChecks(target.raw, () =>
    withoutCommitSync(target.raw, () =>
      target.tx(() => {
        for (const t of tables) {
          const insert = target.raw.prepare(
            `INSERT INTO ${quote(t.name)} (${t.columns.map(quote).join(', ')}) VALUES (${t.columns.map(() => '?').join(', ')})`,
          );
          for (const row of t.rows) insert.run(row);
        }
        for (const ix of indexes) target.raw.exec(ix.sql);
      }),
    ),
  );
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return {
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    tables: tables.length,
    rows: tables.reduce((n, t) => n + t.rows.length, 0),
    indexes: indexes.length,
  };
}
