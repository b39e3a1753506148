// RuleService operations -> rulesService / ruleWrites.
import type { ruleOperations } from '../../../src-shared/api/rules';
import type { HandlerMap } from '../common/handler';
import {
  archiveRule,
  batchArchiveRules,
  batchGetRules,
  batchGetRuleVersions,
  batchUnarchiveRules,
  batchUpdateRules,
  createRule,
  getRule,
  getRuleVersion,
  listRules,
  listRuleVersions,
  unarchiveRule,
  updateRule,
} from './rulesService';

export const ruleHandlers: HandlerMap<typeof ruleOperations> = {
  CreateRule: (ctx, req) => createRule(ctx, req.update),
  UpdateRule: (ctx, req) => updateRule(ctx, req),
  BatchUpdateRules: (ctx, req) => batchUpdateRules(ctx, req),
  GetRule: (ctx, req) => getRule(ctx, req),
  BatchGetRules: (ctx, req) => batchGetRules(ctx, req),
  ListRules: (ctx, req) => listRules(ctx, req),
  ListRuleVersions: (ctx, req) => listRuleVersions(ctx, req),
  GetRuleVersion: (ctx, req) => getRuleVersion(ctx, req),
  BatchGetRuleVersions: (ctx, req) => batchGetRuleVersions(ctx, req),
  ArchiveRule: (ctx, req) => archiveRule(ctx, req),
  UnarchiveRule: (ctx, req) => unarchiveRule(ctx, req),
  BatchArchiveRules: (ctx, req) => batchArchiveRules(ctx, req),
  BatchUnarchiveRules: (ctx, req) => batchUnarchiveRules(ctx, req),
  // Delete/undelete are deprecated aliases of archive/unarchive (reference §6).
  DeleteRule: (ctx, req) => archiveRule(ctx, req),
  UndeleteRule: (ctx, req) => unarchiveRule(ctx, req),
  BatchDeleteRules: (ctx, req) => batchArchiveRules(ctx, req),
  BatchUndeleteRules: (ctx, req) => batchUnarchiveRules(ctx, req),
};
