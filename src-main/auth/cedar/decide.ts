// One Cedar decision against an organization's preparsed policy set, and the
// "may every record be seen" shortcut for lists (partial evaluation with the
// resource unknown), cached per policy version set, principal and action.
import type { EntityJson, EntityUid, Policy, PolicyJson } from '@cedar-policy/cedar-wasm/nodejs';
import { isAuthorizedPartial, statefulIsAuthorized } from './cedarWasm';
import type { CedarAction } from './actions';
import type { OrganizationPolicySet } from './policySets';

export interface Decision {
  readonly allowed: boolean;
  /** The policies (`<name> #<statement> (policy <pk>)`) that decided: the permits that allowed, or the forbids that denied. */
  readonly reasons: readonly string[];
  /** Policies whose evaluation failed (Cedar skips them). */
  readonly errors: readonly string[];
}

export const actionUid = (action: CedarAction): EntityUid => ({ type: 'Action', id: action.name });

/** The action entity with its group, so `action in Action::"read"` holds without loading the schema per request. */
export const actionEntity = (action: CedarAction): EntityJson => ({
  uid: actionUid(action),
  attrs: {},
  parents: [{ type: 'Action', id: action.group }],
});

export function decide(set: OrganizationPolicySet, action: CedarAction, principal: EntityJson, resource: EntityJson): Decision {
  const answer = statefulIsAuthorized({
    principal: principal.uid as EntityUid,
    action: actionUid(action),
    resource: resource.uid as EntityUid,
    context: {},
    preparsedPolicySetId: set.id,
    entities: [principal, resource, actionEntity(action)],
  });
  if (answer.type === 'failure')
    throw new Error(`Cedar could not decide ${action.name}: ${answer.errors.map((e) => e.message).join('; ')}`);
  const { decision, diagnostics } = answer.response;
  return {
    allowed: decision === 'allow',
    reasons: diagnostics.reason,
    errors: diagnostics.errors.map((e) => `${e.policyId}: ${e.error.message}`),
  };
}

const MAX_CACHED = 1024;

export interface AnyRecordDecision {
  readonly answer: 'allow' | 'deny' | 'depends';
  /** When it depends: each policy still undecided, as a condition on the unknown resource (Cedar's residuals). */
  readonly residuals?: Readonly<Record<string, PolicyJson>>;
}

const uniform = new Map<string, AnyRecordDecision>();

/**
 * Whether the policies decide `action` the same way for every resource (allow or deny) or depend on it, by Cedar's
 * partial evaluation with the resource unknown. Cached: the key holds every input of the answer.
 */
export function decisionForAnyRecord(set: OrganizationPolicySet, action: CedarAction, principal: EntityJson): AnyRecordDecision {
  const key = JSON.stringify([set.id, set.versions, action.name, principal]);
  const cached = uniform.get(key);
  if (cached) return cached;
  const answer = isAuthorizedPartial({
    principal: principal.uid as EntityUid,
    action: actionUid(action),
    resource: null,
    context: {},
    policies: { staticPolicies: set.statements as Record<string, Policy> },
    entities: [principal, actionEntity(action)],
  });
  let result: AnyRecordDecision = { answer: 'depends' };
  if (answer.type === 'residuals') {
    const { decision, nontrivialResiduals, residuals, errored } = answer.response;
    if (decision !== null && nontrivialResiduals.length === 0) result = { answer: decision };
    else {
      // A policy whose evaluation failed does not apply (Cedar's rule), so it is no condition on the rows either.
      const live = Object.fromEntries(Object.entries(residuals).filter(([id]) => !errored.includes(id)));
      result = { answer: 'depends', residuals: live };
    }
  }
  if (uniform.size >= MAX_CACHED) uniform.delete(uniform.keys().next().value!);
  uniform.set(key, result);
  return result;
}

const onOrganization = new Map<string, Decision>();

/**
 * The decision on the organization itself (lists, creates): an entity without attributes, so the answer depends only
 * on the policy versions, the principal and the action, and is cached like the partial evaluation.
 */
export function decideOnOrganization(
  set: OrganizationPolicySet,
  action: CedarAction,
  principal: EntityJson,
  organizationId: string,
): Decision {
  const key = JSON.stringify([set.id, set.versions, action.name, principal, organizationId]);
  let decision = onOrganization.get(key);
  if (!decision) {
    decision = decide(set, action, principal, { uid: { type: 'Organization', id: organizationId }, attrs: {}, parents: [] });
    if (onOrganization.size >= MAX_CACHED) onOrganization.delete(onOrganization.keys().next().value!);
    onOrganization.set(key, decision);
  }
  return decision;
}
