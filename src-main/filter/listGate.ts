// The authorization gate of a list (auth/cedar/authorize.ts makes it) applied
// to the list's base table: directly when the gate is over that table, through
// the parent key when the list's rows belong to records of the gate's table
// (an annotation's logs, a report's steps). A gate no list can apply is an
// error, never ignored: that would show rows the policies hide.
import { ApiError } from '../../src-shared/errors';
import type { Db, SqlValue } from '../db/database';
import type { ListSpec } from './resource';

export interface ListGate {
  readonly table: string;
  /** The policies as a condition over the gate table's rows `t`, when they compile. */
  readonly sql?: { readonly sql: string; readonly params: readonly SqlValue[] };
  /** Otherwise: decides each row of the gate's table (by pk). */
  keep(pks: readonly number[]): boolean[];
  /** Set once a list or count applied the gate (services/invoke.ts refuses an answer that never did). */
  applied?: boolean;
}

/** The gate as the list's base table sees it: its rows' condition, or a per-row decision over their pks. */
export function gateOfList(db: Db, spec: Pick<ListSpec, 'from' | 'resource' | 'authorizedThrough'>, gate: ListGate): ListGate {
  const base = spec.from.split(/\s+/)[0];
  gate.applied = true;
  if (base === gate.table) return gate;
  const through = spec.authorizedThrough;
  if (!through || through.table !== gate.table) {
    throw ApiError.internal(`the list of ${spec.resource} cannot apply the organization's policies on ${gate.table}`);
  }
  const column = `t.${through.parentColumn}`;
  return {
    table: base,
    // The inner `t` (the parent table) shadows the list's own `t` inside the subquery.
    sql: gate.sql && { sql: `${column} IN (SELECT t.pk FROM ${gate.table} t WHERE ${gate.sql.sql})`, params: gate.sql.params },
    keep(pks) {
      const parents = db.all<{ pk: number; parent: number }>(
        `SELECT t.pk AS pk, ${column} AS parent FROM ${base} t WHERE t.pk IN (SELECT value FROM json_each(?))`,
        [JSON.stringify(pks)],
      );
      const parentOf = new Map(parents.map((r) => [r.pk, r.parent]));
      const distinct = [...new Set(parents.map((r) => r.parent))];
      const kept = gate.keep(distinct);
      const allowed = new Set(distinct.filter((_, i) => kept[i]));
      return pks.map((pk) => allowed.has(parentOf.get(pk) ?? -1));
    },
  };
}
