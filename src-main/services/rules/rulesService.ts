// RuleService reads, lists, versions, archive state and batch updates.
// (CreateRule / UpdateRule themselves live in ruleWrites.ts.)
import type { BatchUpdateRulesResult, Rule, RuleVersion, UpdateRuleInput, ValidationResult } from '../../../src-shared/api/rules';
import { nowMicros } from '../../../src-shared/api/time';
import { ApiError, Code } from '../../../src-shared/errors';
import { resolveOrganization, visibleTo } from '../../auth/caller';
import { loadByPks } from '../../db/childRows';
import type { RequestContext } from '../../engine';
import { listPage, type ListParams } from '../../filter/listQuery';
import { findVisibleRule, identifyRule, resolveRuleBatch } from './ruleLookup';
import { ruleListSpec, ruleVersionListSpec } from './ruleListSpecs';
import { loadRules, versionToWire, type RuleRow, type VersionRow } from './ruleRows';
import { setRuleColumns } from './ruleStore';
import { upsertRule } from './ruleWrites';

const IN_JSON = '(SELECT value FROM json_each(?))';

export function createRule(ctx: RequestContext, req: UpdateRuleInput): { ruleId: string } {
  return { ruleId: upsertRule(ctx, req, { mode: 'create', prefix: 'update.' }).ruleId };
}

export function updateRule(ctx: RequestContext, req: UpdateRuleInput): { ruleId: string } {
  return { ruleId: upsertRule(ctx, req, { mode: 'upsert', prefix: '' }).ruleId };
}

export function getRule(ctx: RequestContext, req: { ruleId?: string; clientKey?: string }): { rule: Rule } {
  return { rule: loadRules(ctx.db, [identifyRule(ctx, req.ruleId, req.clientKey).pk])[0] };
}

export function batchGetRules(ctx: RequestContext, req: { ruleIds?: string[]; clientKeys?: string[] }): { rules: Rule[] } {
  return {
    rules: loadRules(
      ctx.db,
      resolveRuleBatch(ctx, req.ruleIds, req.clientKeys).map((r) => r.pk),
    ),
  };
}

/**
 * ListRulesRequest has no organization_id; Outpost accepts one, and without
 * it lists the rules of every organization the caller belongs to.
 */
export function listRules(ctx: RequestContext, req: ListParams & { organizationId?: string }): { rules: Rule[]; nextPageToken: string } {
  const scope = req.organizationId
    ? { sql: 't.organization_id = ?', params: [resolveOrganization(ctx.caller, req.organizationId)] }
    : visibleTo(ctx.caller, 't.organization_id');
  const page = listPage(ctx.db, ruleListSpec, req, { ...scope, fingerprint: scope.params, gate: ctx.rowGate }, ctx.engine.pageTokenSecret);
  return { rules: loadRules(ctx.db, page.keys), nextPageToken: page.nextPageToken };
}

// -------------------------------------------------------------- archive

function setArchived(ctx: RequestContext, rows: readonly RuleRow[], archived: boolean): Record<string, never> {
  ctx.db.tx(() => {
    const now = nowMicros();
    for (const r of rows) {
      if ((r.archived_date !== null) === archived) continue;
      setRuleColumns(ctx.db, r.pk, { archived_date: archived ? now : null, modified_date: now, modified_by_user_id: ctx.caller.userId });
    }
  });
  return {};
}

type Identifier = { ruleId?: string; clientKey?: string };
type Identifiers = { ruleIds?: string[]; clientKeys?: string[] };

export const archiveRule = (ctx: RequestContext, req: Identifier) => setArchived(ctx, [identifyRule(ctx, req.ruleId, req.clientKey)], true);
export const unarchiveRule = (ctx: RequestContext, req: Identifier) =>
  setArchived(ctx, [identifyRule(ctx, req.ruleId, req.clientKey)], false);
export const batchArchiveRules = (ctx: RequestContext, req: Identifiers) =>
  setArchived(ctx, resolveRuleBatch(ctx, req.ruleIds, req.clientKeys), true);
export const batchUnarchiveRules = (ctx: RequestContext, req: Identifiers) =>
  setArchived(ctx, resolveRuleBatch(ctx, req.ruleIds, req.clientKeys), false);

// ------------------------------------------------------------- versions

export function listRuleVersions(
  ctx: RequestContext,
  req: ListParams & { ruleId: string },
): { ruleVersions: RuleVersion[]; nextPageToken: string } {
  const rule = findVisibleRule(ctx, req.ruleId);
  const page = listPage(
    ctx.db,
    ruleVersionListSpec,
    { pageSize: req.pageSize, pageToken: req.pageToken, filter: req.filter },
    { sql: 't.rule_pk = ?', params: [rule.pk], fingerprint: [rule.id] },
    ctx.engine.pageTokenSecret,
  );
  const versions = loadByPks<VersionRow>(ctx.db, 'rule_versions', page.keys);
  return { ruleVersions: versions.map((v) => versionToWire(v, rule.id, rule.archived_date)), nextPageToken: page.nextPageToken };
}

/** The stored snapshots (the Rule as of each version), in request order. */
function snapshots(ctx: RequestContext, versionIds: readonly string[]): Rule[] {
  const ids = [...new Set(versionIds)];
  const scope = visibleTo(ctx.caller, 'r.organization_id');
  const rows = ctx.db.all<{ id: string; snapshot: string }>(
    `SELECT v.id, v.snapshot FROM rule_versions v JOIN rules r ON r.pk = v.rule_pk WHERE v.id IN ${IN_JSON} AND ${scope.sql}`,
    [JSON.stringify(ids), ...scope.params],
  );
  const byId = new Map(rows.map((r) => [r.id, r.snapshot]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length) throw ApiError.notFound('rule version', missing.join(', '));
  return ids.map((id) => JSON.parse(byId.get(id)!) as Rule);
}

export const getRuleVersion = (ctx: RequestContext, req: { ruleVersionId: string }) => ({ rule: snapshots(ctx, [req.ruleVersionId])[0] });
export const batchGetRuleVersions = (ctx: RequestContext, req: { ruleVersionIds: string[] }) => ({
  rules: snapshots(ctx, req.ruleVersionIds),
});

// --------------------------------------------------------- batch update

/** Thrown to roll back a batch that only validates or has failures. */
class Rollback {
  constructor(readonly result: BatchUpdateRulesResult) {}
}

/**
 * BatchUpdateRules: every rule is saved in one transaction, or none is. Each
 * rule runs in its own savepoint so all failures are reported (one
 * ValidationResult per input rule); validate_only rolls everything back.
 */
export function batchUpdateRules(ctx: RequestContext, req: { rules: UpdateRuleInput[]; validateOnly?: boolean }): BatchUpdateRulesResult {
  const validateOnly = req.validateOnly === true;
  try {
    return ctx.db.tx(() => {
      const result: BatchUpdateRulesResult = {
        success: true,
        rulesCreatedCount: 0,
        rulesUpdatedCount: 0,
        validateOnly,
        validationResults: [],
        createdRuleIdentifiers: [],
      };
      const wouldCreate: number[] = [];
      req.rules.forEach((rule, i) => {
        const validation: ValidationResult = {
          ruleId: rule.ruleId ?? '',
          clientKey: rule.clientKey ?? '',
          assetExpressionValidationResults: [],
          ruleName: rule.name,
        };
        try {
          const r = upsertRule(ctx, rule, { mode: 'upsert', prefix: `rules[${i}].` });
          validation.ruleId = r.ruleId;
          if (r.created) {
            wouldCreate.push(i);
            result.rulesCreatedCount++;
            const id: BatchUpdateRulesResult['createdRuleIdentifiers'][number] = { ruleId: r.ruleId, name: r.name };
            if (r.clientKey) id.clientKey = r.clientKey;
            result.createdRuleIdentifiers.push(id);
          } else result.rulesUpdatedCount++;
        } catch (e) {
          if (!(e instanceof ApiError) || e.code === Code.INTERNAL) throw e;
          validation.error = e.message;
          result.success = false;
        }
        result.validationResults.push(validation);
      });
      if (validateOnly || !result.success) {
        // Rolled back: the ids of rules that would have been created do not exist.
        result.createdRuleIdentifiers = [];
        for (const i of wouldCreate) result.validationResults[i].ruleId = '';
        // A failed batch saves nothing; a clean validate-only run reports what it would save.
        if (!result.success) Object.assign(result, { rulesCreatedCount: 0, rulesUpdatedCount: 0 });
        throw new Rollback(result);
      }
      return result;
    });
  } catch (e) {
    if (e instanceof Rollback) return e.result;
    throw e;
  }
}
