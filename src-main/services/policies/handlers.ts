// PolicyService operations (+ the ListPolicyVersions extension) -> policiesService; ExplainPolicyDecision -> its own module.
import type { policyOperations } from '../../../src-shared/api/policies';
import type { HandlerMap } from '../common/handler';
import { explainPolicyDecision } from './explainPolicyDecision';
import {
  createPolicy,
  getPolicy,
  listPolicies,
  listPolicyVersions,
  setPolicyArchived,
  updatePolicy,
  validatePolicy,
} from './policiesService';

export const policyHandlers: HandlerMap<typeof policyOperations> = {
  GetPolicy: (ctx, req) => getPolicy(ctx, req.policyId),
  ListPolicies: (ctx, req) => listPolicies(ctx, req),
  CreatePolicy: (ctx, req) => createPolicy(ctx, req),
  UpdatePolicy: (ctx, req) => updatePolicy(ctx, req),
  ValidatePolicy: (_ctx, req) => validatePolicy(req.cedarPolicy),
  ArchivePolicy: (ctx, req) => setPolicyArchived(ctx, req.policyId, true),
  UnarchivePolicy: (ctx, req) => setPolicyArchived(ctx, req.policyId, false),
  ListPolicyVersions: (ctx, req) => listPolicyVersions(ctx, req),
  ExplainPolicyDecision: (ctx, req) => explainPolicyDecision(ctx, req),
};
