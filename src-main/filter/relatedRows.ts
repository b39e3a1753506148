// Subqueries over child rows (tags, assets, metadata, links), correlated to
// the filtered row. Declarations name their aliases with `{placeholders}`;
// each use gets fresh aliases so nested subqueries never capture each other.
import type { RelatedRows } from './fields';
import { raw, Sql, sql } from './sql';

export type Aliases = ReadonlyMap<string, string>;

const PLACEHOLDER = /\{(\w+)\}/g;

export class AliasAllocator {
  private next = 0;

  /** Fresh aliases for every placeholder in the declaration's FROM clause. */
  allocate(from: string): Aliases {
    const out = new Map<string, string>();
    for (const m of from.matchAll(PLACEHOLDER)) {
      if (!out.has(m[1])) out.set(m[1], `${m[1]}${++this.next}`);
    }
    return out;
  }
}

/** Declaration SQL with its placeholders replaced by the allocated aliases. */
export function withAliases(text: string, aliases: Aliases): Sql {
  return raw(
    text.replace(PLACEHOLDER, (whole, name: string) => {
      const alias = aliases.get(name);
      if (alias === undefined) throw new Error(`field declaration uses undeclared alias ${whole}`);
      return alias;
    }),
  );
}

/** The FROM clause of a subquery correlated to one parent row. */
function byParent(rows: RelatedRows, aliases: Aliases): Sql {
  return withAliases(rows.fromByParent ?? rows.from, aliases);
}

/**
 * Rows of `t` with at least one related row satisfying `where`, as a
 * semi-join SQLite can drive from the child index, remembering the
 * equivalent correlated EXISTS (better when many child rows match).
 */
export function someRelated(rows: RelatedRows, aliases: Aliases, where: Sql): Sql {
  const from = withAliases(rows.from, aliases);
  const semiJoin = sql`${raw(rows.parentKey)} IN (SELECT ${withAliases(rows.childKey, aliases)} FROM ${from} WHERE ${where})`;
  // The child rows can only be counted on their own when `where` reads nothing outside them.
  if (readsOutside(where, aliases)) return semiJoin;
  const exists = sql`EXISTS (SELECT 1 FROM ${byParent(rows, aliases)} WHERE ${withAliases(rows.childKey, aliases)} = ${raw(rows.parentKey)} AND (${where}))`;
  const probe = sql`SELECT count(*) AS n FROM (SELECT 1 FROM ${from} WHERE ${where} LIMIT ?)`;
  return new Sql(semiJoin.text, semiJoin.params, { exists, probe, parentKey: rows.parentKey });
}

/** Whether the SQL qualifies a column with a table alias other than the given ones (`t.name`, an outer relation's alias). */
function readsOutside(s: Sql, aliases: Aliases): boolean {
  const own = new Set(aliases.values());
  for (const m of s.text.matchAll(/\b([A-Za-z_]\w*)\./g)) if (!own.has(m[1])) return true;
  return false;
}

/** Rows of `t` with no related row satisfying `where` (including rows with no related rows at all). */
export function noRelated(rows: RelatedRows, aliases: Aliases, where: Sql): Sql {
  return sql`NOT EXISTS (SELECT 1 FROM ${byParent(rows, aliases)} WHERE ${withAliases(rows.childKey, aliases)} = ${raw(rows.parentKey)} AND (${where}))`;
}

/** How many related rows satisfy `where`. */
export function countRelated(rows: RelatedRows, aliases: Aliases, where: Sql): Sql {
  return sql`(SELECT count(*) FROM ${byParent(rows, aliases)} WHERE ${withAliases(rows.childKey, aliases)} = ${raw(rows.parentKey)} AND (${where}))`;
}
