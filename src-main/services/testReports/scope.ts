// The rows of test reports, steps and measurements a caller may list or count:
// those of every organization the caller belongs to (these list requests carry
// no organization_id).
import type { SqlValue } from '../../db/database';
import type { RequestContext } from '../../engine';
import { visibleTo } from '../../auth/caller';
import { compileFilter } from '../../filter/compileFilter';
import type { Scope } from '../../filter/listQuery';
import type { ListSpec } from '../../filter/resource';

export function callerScope(ctx: RequestContext): Scope {
  const v = visibleTo(ctx.caller, 't.organization_id');
  return { sql: v.sql, params: v.params, fingerprint: v.params };
}

/** Count*: the rows a List with the same filter would page through. */
export function countRows(ctx: RequestContext, spec: ListSpec, filter: string | undefined): string {
  const scope = callerScope(ctx);
  const f = compileFilter(spec.filterFields, filter);
  const row = ctx.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${spec.from} WHERE (${scope.sql}) AND (${f.sql})`, [...scope.params, ...(f.params as SqlValue[])]);
  return String(row?.n ?? 0);
}
