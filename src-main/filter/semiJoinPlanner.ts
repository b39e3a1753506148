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
import type { ListSpec } from './resource';

/**
 * How many matching child rows make the correlated EXISTS the better form.
 * Walking the order costs about (pageSize + 1) * rows / matches probes of the
 * child index; driving from the child index costs `matches` row lookups plus
 * a sort, about three probes each. They cross at sqrt((pageSize + 1) * rows / 3):
 * about 1,300 at 100k rows and 4,100 at 1M for a page of 50. Every other
 * top-level condition makes the walk longer; like SQLite's own planner
 * without statistics, assume each keeps a third of the rows.
 */
export function driveLimit(pageSize: number, rows: number, otherConditions: number): number {
  return Math.max(200, Math.ceil(Math.sqrt(((pageSize + 1) * rows * 3 ** Math.min(otherConditions, 6)) / 3)));
}

/** The filter's SQL with each top-level semi-join in its faster form for the current data. */
export function planSemiJoins(db: Db, compiled: CompiledFilter, spec: ListSpec, pageSize: number): string {
  const choices = compiled.semiJoins ?? [];
  if (choices.length === 0) return compiled.sql;
  // The largest tie-break key approximates the table's size (an index lookup, not a count).
  const rows = db.get<{ n: number | null }>(`SELECT max(${spec.tieBreak}) AS n FROM ${spec.from}`)?.n ?? 0;
  let sql = compiled.sql;
  for (const choice of choices) {
    const limit = driveLimit(pageSize, rows, choice.otherConditions);
    const row = db.get<{ n: number }>(choice.probe.sql, [...(choice.probe.params as SqlValue[]), limit + 1]);
    if ((row?.n ?? 0) > limit) sql = sql.replace(choice.semiJoin, () => choice.exists);
  }
  return sql;
}
