// ExplainPolicyDecision (Outpost extension): what the organization's policies decide for a user, an action and a
// record, and which statements decided; the policies view's "try it". Asking about yourself shows only what trying
// the action would; asking about another user shows that user's permissions (their roles and attributes at work),
// so it is for those the policies let change the policies (UpdatePolicy; the data directory owner always may).
import type { ExplainPolicyDecisionInput, PolicyDecisionExplanation } from '../../../src-shared/api/policies';
import { ApiError, Code } from '../../../src-shared/errors';
import { resolveOrganization, type Caller } from '../../auth/caller';
import { ACTION_GROUPS, CEDAR_ACTIONS, type CedarAction } from '../../auth/cedar/actions';
import { authorizeOperation, readableIds } from '../../auth/cedar/authorize';
import { recordPks } from '../../auth/cedar/entities';
import { explainDecision, type ExplainedResource, type ExplainedStatement } from '../../auth/cedar/explain';
import { loadCaller } from '../../auth/identity';
import type { RequestContext } from '../../engine';
import { authorizationScope } from '../common/authorizationScope';

const EXAMPLES = 'GetAnnotation, UpdateAnnotation, ArchiveAnnotation or CreateAnnotationLog';

function actionNamed(name: string): CedarAction {
  const action = CEDAR_ACTIONS.get(name);
  if (action) return action;
  if ((ACTION_GROUPS as readonly string[]).includes(name))
    throw ApiError.invalid('action', `'${name}' is an action group; name one of its actions, such as ${EXAMPLES}`);
  throw ApiError.invalid('action', `'${name}' is not an action of the Cedar schema (an operation's name, such as ${EXAMPLES})`);
}

/** Throws unless the caller may see another user's decisions in the organization. */
function mayAskAboutOthers(ctx: RequestContext, organizationId: string): void {
  try {
    authorizeOperation(authorizationScope(ctx), 'UpdatePolicy', { organizationId });
  } catch (e) {
    if (e instanceof ApiError && e.code === Code.PERMISSION_DENIED)
      throw ApiError.permissionDenied(`Asking what another user may do is for those who may change the policies. ${e.message}`);
    throw e;
  }
}

function userAskedAbout(ctx: RequestContext, userId: string | undefined, organizationId: string): Caller {
  const id = userId?.trim() || ctx.caller.userId;
  const user = loadCaller(ctx.db, id);
  if (!user || !user.organizations.some((o) => o.id === organizationId))
    throw ApiError.invalid('user_id', `no user '${id}' is a member of this organization`);
  if (user.userId !== ctx.caller.userId) mayAskAboutOthers(ctx, organizationId);
  return user;
}

function resourceOf(ctx: RequestContext, action: CedarAction, resourceId: string | undefined, organizationId: string): ExplainedResource {
  // Without a record, the organization: what a list or a create is decided on.
  if (!resourceId) return { organizationId };
  const type = action.recordType;
  if (!type) throw ApiError.invalid('resource_id', `${action.name} acts on the organization, not on a record: leave resource_id unset`);
  const [record] = recordPks(ctx.db, type, [resourceId], [organizationId]);
  if (!record)
    throw ApiError.invalid(
      'resource_id',
      `no ${type.entity} '${resourceId}' in this organization (${action.name} acts on a ${type.entity})`,
    );
  // The answer says things about the record (its tags and attributes at work): only for one the caller may read.
  if (readableIds(authorizationScope(ctx), type, [record.id]).length === 0)
    throw ApiError.permissionDenied(
      `Get${type.entity} on ${type.entity}::"${record.id}" is not allowed by the organization's policies, so what may be done with it is not shown`,
    );
  return { type, record };
}

export function explainPolicyDecision(ctx: RequestContext, req: ExplainPolicyDecisionInput): PolicyDecisionExplanation {
  const action = actionNamed(req.action);
  const organizationId = resolveOrganization(ctx.caller, req.organizationId);
  const user = userAskedAbout(ctx, req.userId, organizationId);
  const resource = resourceOf(ctx, action, req.resourceId, organizationId);
  const explanation = explainDecision(authorizationScope(ctx, user), action, resource);
  const policyIds = new Map(
    ctx.db
      .all<{ pk: number; id: string }>('SELECT pk, id FROM policies WHERE pk IN (SELECT value FROM json_each(?))', [
        JSON.stringify([...new Set(explanation.checks.flatMap((c) => c.decidedBy.map((s) => s.policyPk)))]),
      ])
      .map((r) => [r.pk, r.id]),
  );
  const statement = (s: ExplainedStatement) => ({
    policyId: policyIds.get(s.policyPk) ?? '',
    policyName: s.policyName,
    statement: s.statement,
    text: s.text,
  });
  return {
    allowed: explanation.allowed,
    userId: user.userId,
    action: action.name,
    actionGroup: action.group,
    resourceType: 'record' in resource ? resource.type.entity : 'Organization',
    resourceId: 'record' in resource ? resource.record.id : organizationId,
    organizationId,
    checks: explanation.checks.map((c) => ({
      action: c.action.name,
      allowed: c.allowed,
      decidedBy: c.decidedBy.map(statement),
      errors: [...c.errors],
    })),
    leftToRemote: explanation.leftToRemote,
  };
}
