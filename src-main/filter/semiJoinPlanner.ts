// Chooses, per request, how each top-level relation condition is executed.
//
// `t.pk IN (SELECT annotation_pk FROM annotation_tags WHERE tag_name = ?)`
// lets SQLite drive the query from the tag index: ideal when few rows match.
// But SQLite assumes such a list has about 25 rows, so it also drives from it
// when the tag is on a third of the table, then sorts everything to return a
// page of 50. A correlated EXISTS instead walks the requested order and stops
// after a page: ideal when many rows match, a full scan when few do. Neither
// form is right for every value, so a probe counts the matching child rows
// (through the same index, stopping at the limit) and picks the form.
import type { Db, SqlValue } from '../db/database';
import type { CompiledFilter } from './compileFilter';

/**
 * More matching child rows than this and the correlated EXISTS is used.
 * Walking the order costs about pageSize * rows / matches probes, driving from
 * the child index about `matches` lookups plus a sort; they cross near
 * sqrt(pageSize * rows): about 2,000 to 7,000 for 100k to 1M rows and a page of 50.
 */
export const SEMI_JOIN_DRIVE_LIMIT = 2_000;

/** The filter's SQL with each top-level semi-join in its faster form for the current data. */
export function planSemiJoins(db: Db, compiled: CompiledFilter): string {
  let sql = compiled.sql;
  for (const choice of compiled.semiJoins ?? []) {
    const row = db.get<{ n: number }>(choice.probe.sql, [...(choice.probe.params as SqlValue[]), SEMI_JOIN_DRIVE_LIMIT + 1]);
    if ((row?.n ?? 0) > SEMI_JOIN_DRIVE_LIMIT) sql = sql.replace(choice.semiJoin, () => choice.exists);
  }
  return sql;
}
