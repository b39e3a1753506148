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

/**
 * Recent decisions, per connection: paging repeats the same filter, and a
 * probe of a common value reads thousands of index entries. A stale decision
 * only costs speed, never correctness, so entries simply expire.
 */
const DECISION_TTL_MS = 30_000;
const DECISION_CACHE_SIZE = 500;
const decisions = new WeakMap<Db, Map<string, { useExists: boolean; at: number }>>();

function useExists(db: Db, probe: { sql: string; params: readonly unknown[] }, limit: number): boolean {
  let cache = decisions.get(db);
  if (!cache) decisions.set(db, (cache = new Map()));
  const key = `${limit}\u0000${probe.sql}\u0000${JSON.stringify(probe.params, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))}`;
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && now - hit.at < DECISION_TTL_MS) return hit.useExists;
  const row = db.get<{ n: number }>(probe.sql, [...(probe.params as SqlValue[]), limit + 1]);
  const decision = (row?.n ?? 0) > limit;
  cache.delete(key);
  if (cache.size >= DECISION_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(key, { useExists: decision, at: now });
  return decision;
}

/** The filter's SQL with each top-level semi-join in its faster form for the current data. */
export function planSemiJoins(db: Db, compiled: CompiledFilter, spec: ListSpec, pageSize: number): string {
  const choices = compiled.semiJoins ?? [];
  if (choices.length === 0) return compiled.sql;
  // The largest tie-break key approximates the table's size (an index lookup, not a count).
  const rows = db.get<{ n: number | null }>(`SELECT max(${spec.tieBreak}) AS n FROM ${spec.from}`)?.n ?? 0;
  let sql = compiled.sql;
  for (const choice of choices) {
    if (useExists(db, choice.probe, driveLimit(pageSize, rows, choice.otherConditions))) sql = sql.replace(choice.semiJoin, () => choice.exists);
  }
  return sql;
}
