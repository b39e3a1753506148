// The rows of test reports, steps and measurements a caller may list or count:
// those of every organization the caller belongs to (these list requests carry
// no organization_id), except a report still being imported (and everything
// under it): importTestReport.ts copies it in several transactions and marks
// it in test_report_imports until the last one.
import type { SqlValue } from '../../db/database';
import type { RequestContext } from '../../engine';
import { visibleTo } from '../../auth/caller';
import { compileFilter } from '../../filter/compileFilter';
import { gateOfList } from '../../filter/listGate';
import type { Scope } from '../../filter/listQuery';
import type { ListSpec } from '../../filter/resource';

/** `reportPk`: the SQL of the row's report pk (t.pk for reports, t.report_pk for steps and measurements). */
export function callerScope(ctx: RequestContext, reportPk: string): Scope {
  const v = visibleTo(ctx.caller, 't.organization_id');
  // Only while an import runs, so the usual query (and its plan: covering index scans for counts) stays as it was.
  const pending = ctx.db.get('SELECT 1 FROM test_report_imports LIMIT 1')
    ? ` AND ${reportPk} NOT IN (SELECT report_pk FROM test_report_imports)`
    : '';
  return { sql: `(${v.sql})${pending}`, params: v.params, fingerprint: v.params, gate: ctx.rowGate };
}

/** Count*: the rows a List with the same filter would page through. */
export function countRows(ctx: RequestContext, spec: ListSpec, filter: string | undefined, reportPk: string): string {
  const scope = callerScope(ctx, reportPk);
  const f = compileFilter(spec.filterFields, filter);
  const where = `(${scope.sql}) AND (${f.sql})`;
  const params = [...scope.params, ...(f.params as SqlValue[])];
  const gate = scope.gate && gateOfList(ctx.db, spec, scope.gate);
  if (gate && !gate.sql) {
    // Policies that do not compile to SQL decide each counted row, as a list's page would.
    const pks = ctx.db.all<{ pk: number }>(`SELECT t.pk AS pk FROM ${spec.from} WHERE ${where}`, params).map((r) => r.pk);
    return String(gate.keep(pks).filter(Boolean).length);
  }
  const gated = gate?.sql ? ` AND (${gate.sql.sql})` : '';
  const row = ctx.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${spec.from} WHERE ${where}${gated}`, [
    ...params,
    ...(gate?.sql?.params ?? []),
  ]);
  return String(row?.n ?? 0);
}
