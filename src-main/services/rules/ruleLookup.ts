// Finding rules the caller may see: by id, by client key (unique per
// organization), or by both lists of a batch request. Another organization's
// rule is NOT_FOUND.
import { ApiError, Code } from '../../../src-shared/errors';
import { MAX_RULE_BATCH } from '../../../src-shared/api/rules';
import { visibleTo } from '../../auth/caller';
import type { Db } from '../../db/database';
import type { RequestContext } from '../../engine';
import type { RuleRow } from './ruleRows';

const IN_JSON = '(SELECT value FROM json_each(?))';

export function findVisibleRule(ctx: RequestContext, ruleId: string): RuleRow {
  const scope = visibleTo(ctx.caller, 'organization_id');
  const row = ctx.db.get<RuleRow>(`SELECT * FROM rules WHERE id = ? AND ${scope.sql}`, [ruleId, ...scope.params]);
  if (!row) throw ApiError.notFound('rule', ruleId);
  return row;
}

export function findRuleByClientKeyIn(db: Db, organizationId: string, clientKey: string): RuleRow | undefined {
  return db.get<RuleRow>('SELECT * FROM rules WHERE organization_id = ? AND client_key = ?', [organizationId, clientKey]);
}

export function findVisibleRuleByClientKey(ctx: RequestContext, clientKey: string): RuleRow {
  const scope = visibleTo(ctx.caller, 'organization_id');
  const rows = ctx.db.all<RuleRow>(`SELECT * FROM rules WHERE client_key = ? AND ${scope.sql}`, [clientKey, ...scope.params]);
  if (rows.length === 0) throw ApiError.notFound('rule', `client_key '${clientKey}'`);
  if (rows.length > 1)
    throw ApiError.invalid('client_key', `'${clientKey}' names rules in ${rows.length} of your organizations; use rule_id`);
  return rows[0];
}

/** GetRule / ArchiveRule...: rule_id wins when both are given. */
export function identifyRule(ctx: RequestContext, ruleId: string | undefined, clientKey: string | undefined): RuleRow {
  if (ruleId) return findVisibleRule(ctx, ruleId);
  if (clientKey) return findVisibleRuleByClientKey(ctx, clientKey);
  throw ApiError.invalidMany([{ field: 'rule_id', description: 'one of rule_id or client_key is required' }]);
}

/**
 * BatchGetRules / BatchArchiveRules...: rules named by ids and by client keys
 * (both lists used), each rule once, ids first in request order. Any missing
 * id or key fails the whole request with NOT_FOUND naming every missing one.
 */
export function resolveRuleBatch(ctx: RequestContext, ruleIds: readonly string[] = [], clientKeys: readonly string[] = []): RuleRow[] {
  if (ruleIds.length + clientKeys.length > MAX_RULE_BATCH) throw ApiError.invalid('rule_ids', `at most ${MAX_RULE_BATCH} rules per batch`);
  const scope = visibleTo(ctx.caller, 'organization_id');
  const ids = [...new Set(ruleIds)];
  const keys = [...new Set(clientKeys)];
  const byId = new Map(
    ctx.db
      .all<RuleRow>(`SELECT * FROM rules WHERE id IN ${IN_JSON} AND ${scope.sql}`, [JSON.stringify(ids), ...scope.params])
      .map((r) => [r.id, r]),
  );
  const byKey = new Map<string, RuleRow[]>();
  for (const r of ctx.db.all<RuleRow>(`SELECT * FROM rules WHERE client_key IN ${IN_JSON} AND ${scope.sql} ORDER BY created_date, pk`, [
    JSON.stringify(keys),
    ...scope.params,
  ])) {
    const list = byKey.get(r.client_key!) ?? [];
    list.push(r);
    byKey.set(r.client_key!, list);
  }
  const missingIds = ids.filter((id) => !byId.has(id));
  const missingKeys = keys.filter((k) => !byKey.has(k));
  if (missingIds.length || missingKeys.length) {
    const parts = [...missingIds.map((id) => `rule_id '${id}'`), ...missingKeys.map((k) => `client_key '${k}'`)];
    throw new ApiError(
      Code.NOT_FOUND,
      `rule not found: ${parts.join(', ')}`,
      parts.map((name) => ({
        '@type': 'type.googleapis.com/google.rpc.ResourceInfo',
        resourceType: 'rule',
        resourceName: name,
        owner: '',
        description: 'not found',
      })),
    );
  }
  const out: RuleRow[] = [];
  const seen = new Set<number>();
  const add = (r: RuleRow) => !seen.has(r.pk) && (seen.add(r.pk), out.push(r));
  ids.forEach((id) => add(byId.get(id)!));
  keys.forEach((k) => byKey.get(k)!.forEach(add));
  return out;
}
