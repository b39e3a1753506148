// Evaluating a policy's Cedar text against one request (Cedar's isAuthorized).
// Outpost does not enforce policies on API requests yet; this is the building
// block for that work (and for a "test this policy" view).
import type { Context, EntityJson, EntityUid } from '@cedar-policy/cedar-wasm/nodejs';
import { isAuthorized } from '../../auth/cedar/cedarWasm';
import { ApiError } from '../../../src-shared/errors';

export interface CedarRequest {
  readonly principal: EntityUid;
  readonly action: EntityUid;
  readonly resource: EntityUid;
  readonly context?: Context;
}

export interface PolicyDecision {
  readonly decision: 'allow' | 'deny';
  readonly allowed: boolean;
  /** Ids (`policy0`, `policy1`..., in text order) of the policies that determined the decision. */
  readonly reasons: readonly string[];
  /** Policies whose evaluation failed (they are skipped, as Cedar does). */
  readonly errors: readonly string[];
}

/** Default-deny: allow only when some permit applies and no forbid does. Malformed input is INVALID_ARGUMENT. */
export function evaluatePolicy(cedarText: string, request: CedarRequest, entities: readonly EntityJson[] = []): PolicyDecision {
  const answer = isAuthorized({
    principal: request.principal,
    action: request.action,
    resource: request.resource,
    context: request.context ?? {},
    policies: { staticPolicies: cedarText },
    entities: [...entities],
  });
  if (answer.type === 'failure') {
    throw ApiError.invalid('cedar_policy', answer.errors.map((e) => e.message).join('; ') || 'Cedar could not evaluate the request');
  }
  const { decision, diagnostics } = answer.response;
  return {
    decision,
    allowed: decision === 'allow',
    reasons: diagnostics.reason,
    errors: diagnostics.errors.map((e) => `${e.policyId}: ${e.error.message}`),
  };
}
