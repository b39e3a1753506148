// What the policies decide for one user, action and record, and which statements decided: the "try it" of the
// policies view. The same pieces as authorize.ts decide it (the organization's preparsed set, the user as principal,
// the record as the write path loads it, the same checks in the same order), but every check goes to Cedar, whose
// answer names the statements; the write path's shortcuts (the partial evaluation, the compiled residuals) give the
// same allow or deny without names.
import type { CedarAction } from './actions';
import { recordActions, type AuthorizationScope } from './authorize';
import { decide, decideOnOrganization, type Decision } from './decide';
import { principalEntity, recordEntities, type NamedRecord } from './entities';
import { organizationPolicySet, type StatementSource } from './policySets';
import type { RecordType } from './recordTypes';

export interface ExplainedStatement extends StatementSource {
  readonly text: string;
}

export interface ExplainedCheck {
  readonly action: CedarAction;
  readonly allowed: boolean;
  /** The permits that allowed or the forbids that denied; none on a denial: nothing permitted it. */
  readonly decidedBy: readonly ExplainedStatement[];
  readonly errors: readonly string[];
}

export interface Explanation {
  readonly allowed: boolean;
  readonly checks: readonly ExplainedCheck[];
  /** A replica's organization none of whose policies has been pulled: allowed here, decided by the remote. */
  readonly leftToRemote: boolean;
}

/** What the record is: one of `type` (the action's), or the organization (lists, creates). */
export type ExplainedResource = { readonly type: RecordType; readonly record: NamedRecord } | { readonly organizationId: string };

/**
 * The decisions `action` needs for `user` on the resource, in the organization's active policies. `scope.caller` is
 * the user asked about (a member's key: the data directory owner's key may also always mend the policies).
 */
export function explainDecision(scope: AuthorizationScope, action: CedarAction, resource: ExplainedResource): Explanation {
  const organizationId = 'record' in resource ? resource.record.organizationId : resource.organizationId;
  const set = organizationPolicySet(scope.db, organizationId);
  const actions = 'record' in resource ? recordActions(action.name, action, resource.type, {}) : [action];
  if (set.empty && scope.replica) {
    return { allowed: true, leftToRemote: true, checks: actions.map((a) => ({ action: a, allowed: true, decidedBy: [], errors: [] })) };
  }
  const principal = principalEntity(scope.db, scope.caller, organizationId);
  const entity = 'record' in resource ? recordEntities(scope.db, resource.type, [resource.record.pk])[0].entity : undefined;
  const checks = actions.map((a): ExplainedCheck => {
    const decision: Decision = entity ? decide(set, a, principal, entity) : decideOnOrganization(set, a, principal, organizationId);
    return {
      action: a,
      allowed: decision.allowed,
      decidedBy: decision.reasons.flatMap((id) => (set.sources[id] ? [{ ...set.sources[id], text: set.statements[id] }] : [])),
      errors: decision.errors,
    };
  });
  return { allowed: checks.every((c) => c.allowed), leftToRemote: false, checks };
}
