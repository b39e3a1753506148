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
import { isRowidAlias } from '../db/schemaFacts';
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

/**
 * Whether the probe (`SELECT count(*) AS n FROM (... LIMIT ?)`, the bound appended) counts more than `limit` rows.
 * Also used for authorization's membership forms (auth/cedar/residualSql.ts).
 */
export function countExceeds(db: Db, probe: { sql: string; params: readonly unknown[] }, limit: number): boolean {
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

export interface PlannedFilter {
  /** The filter's SQL with each top-level semi-join in its faster form. */
  readonly sql: string;
  /** The FROM clause to run it with: the spec's, or the spec's with `NOT INDEXED` (see below). */
  readonly from: string;
}

/**
 * `artifacts t` -> `artifacts AS t NOT INDEXED`, when `key` is that table's
 * rowid (`t.pk` declared INTEGER PRIMARY KEY) and it has no statistics (or
 * stale ones: counted when it had far fewer than its `rows`); otherwise undefined.
 *
 * Without statistics SQLite assumes an equality on an index's first column
 * (`t.organization_id = ?`) keeps about ten rows, so it walks the requested
 * order's index (artifacts_org_created) through the whole organization,
 * testing each row against the semi-join's list, rather than looking up the
 * handful of rows the list holds: 12 ms instead of 0.1 ms at 100k artifacts.
 * The probe has just counted the list (few rows, or the semi-join would have
 * become EXISTS), so the lookups are the plan: NOT INDEXED leaves SQLite only
 * rowid lookups from the list or a full scan, and it picks the lookups. With
 * statistics (ANALYZE, `PRAGMA optimize`) SQLite knows better and chooses.
 */
function drivenFrom(db: Db, from: string, key: string, rows: number): string | undefined {
  const m = /^\s*(\w+)\s+(?:AS\s+)?(\w+)\s*$/i.exec(from);
  const k = /^(\w+)\.(\w+)$/.exec(key);
  if (!m || !k || k[1] !== m[2]) return undefined;
  const [, table, alias] = m;
  if (!isRowidAlias(db, table, k[2]) || (statisticsRows(db, table) ?? 0) * 4 >= rows) return undefined;
  return `${table} AS ${alias} NOT INDEXED`;
}

/** How many rows the table had when ANALYZE last counted it (the first number of its sqlite_stat1 rows), if ever. */
function statisticsRows(db: Db, table: string): number | undefined {
  if (!db.get("SELECT 1 AS x FROM sqlite_schema WHERE type = 'table' AND name = 'sqlite_stat1'")) return undefined;
  const row = db.get<{ n: number | null }>('SELECT max(CAST(stat AS INTEGER)) AS n FROM sqlite_stat1 WHERE tbl = ?', [table]);
  return row?.n ?? undefined;
}

/** The filter's SQL with each top-level semi-join in its faster form for the current data, and the FROM clause to run it with. */
export function planSemiJoins(db: Db, compiled: CompiledFilter, spec: ListSpec, pageSize: number): PlannedFilter {
  const choices = compiled.semiJoins ?? [];
  if (choices.length === 0) return { sql: compiled.sql, from: spec.from };
  // The largest tie-break key approximates the table's size (an index lookup, not a count).
  const rows = db.get<{ n: number | null }>(`SELECT max(${spec.tieBreak}) AS n FROM ${spec.from}`)?.n ?? 0;
  let sql = compiled.sql;
  let from = spec.from;
  for (const choice of choices) {
    if (countExceeds(db, choice.probe, driveLimit(pageSize, rows, choice.otherConditions)))
      sql = sql.replace(choice.semiJoin, () => choice.exists);
    else if (from === spec.from) from = drivenFrom(db, spec.from, choice.parentKey, rows) ?? from;
  }
  return { sql, from };
}
