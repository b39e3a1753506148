// sift.policies.v1 (reference §7): ABAC policies in Cedar syntax, their 7
// operations, and two Outpost extensions: ListPolicyVersions (the stored history
// of every configuration change, for the history / diff view) and
// ExplainPolicyDecision (what the policies decide for one user, action and record).
import { z } from 'zod';
import { defineOperation } from './operation';
import { listRequest, organizationIdExtensionIn } from './common';
import { boolIn, fieldMaskIn, message, nullableTimestampOut, response, timestampOut } from './wire';

/** Largest Cedar policy text we accept (a guard for the parser and the line diff). */
export const MAX_CEDAR_POLICY_CHARS = 256 * 1024;
export const MAX_POLICY_TEXT = 10_000;

const text = z.string().max(MAX_POLICY_TEXT, `must be at most ${MAX_POLICY_TEXT} characters`);
const cedarText = z.string().max(MAX_CEDAR_POLICY_CHARS, `must be at most ${MAX_CEDAR_POLICY_CHARS} characters`);

export const PolicyConfigurationOut = response({ cedarPolicy: z.string() });

export const PolicyOut = response({
  policyId: z.string(),
  name: z.string(),
  description: z.string().optional(),
  organizationId: z.string(),
  createdByUserId: z.string(),
  modifiedByUserId: z.string(),
  createdDate: timestampOut,
  modifiedDate: timestampOut,
  configuration: PolicyConfigurationOut,
  policyVersionId: z.string(),
  archivedDate: nullableTimestampOut,
  isArchived: z.boolean(),
  version: z.number().int().optional(),
  versionNotes: z.string().optional(),
  generatedChangeMessage: z.string().optional(),
});
export type Policy = z.infer<typeof PolicyOut>;

/** One stored version of a policy's configuration (Outpost extension). */
export const PolicyVersionOut = response({
  policyVersionId: z.string(),
  policyId: z.string(),
  version: z.number().int(),
  versionNotes: z.string().optional(),
  generatedChangeMessage: z.string(),
  configuration: PolicyConfigurationOut,
  createdDate: timestampOut,
  createdByUserId: z.string(),
});
export type PolicyVersion = z.infer<typeof PolicyVersionOut>;

/** A policy statement that decided: a permit that allowed, or a forbid that denied (Outpost extension). */
export const DecidingStatementOut = response({
  policyId: z.string(),
  policyName: z.string(),
  /** 1-based position of the statement in the policy's text. */
  statement: z.number().int(),
  /** The statement's Cedar text. */
  text: z.string(),
});
export type DecidingStatement = z.infer<typeof DecidingStatementOut>;

/** One Cedar decision an operation needs: its own action, and the record's read for anything but a read. */
export const AuthorizationCheckOut = response({
  action: z.string(),
  allowed: z.boolean(),
  /** The statements that decided; none on a denial means no statement permitted it (Cedar's default deny). */
  decidedBy: z.array(DecidingStatementOut),
  /** Statements whose evaluation failed (Cedar skips them). */
  errors: z.array(z.string()),
});
export type AuthorizationCheck = z.infer<typeof AuthorizationCheckOut>;

export const ExplainPolicyDecisionRequest = message({
  /** The user asked about; unset: the caller. */
  userId: z.string().optional(),
  /** A Cedar action: an operation's name (`ArchiveAnnotation`). */
  action: z.string().min(1, 'is required'),
  /** The record of the action's type (an annotation for ArchiveAnnotation); unset: the organization itself. */
  resourceId: z.string().optional(),
  organizationId: organizationIdExtensionIn,
});
export type ExplainPolicyDecisionInput = z.output<typeof ExplainPolicyDecisionRequest>;

export const ExplainPolicyDecisionResponse = response({
  allowed: z.boolean(),
  userId: z.string(),
  action: z.string(),
  /** The action's group (`read`, `write`, `archive`, `admin`). */
  actionGroup: z.string(),
  /** The Cedar entity type of the resource (`Annotation`, or `Organization`). */
  resourceType: z.string(),
  resourceId: z.string(),
  organizationId: z.string(),
  /** Every decision the operation needs, in the order the write path makes them; the first refused one decides. */
  checks: z.array(AuthorizationCheckOut),
  /** On a sync replica, an organization none of whose policies has been pulled yet: its remote decides. */
  leftToRemote: z.boolean(),
});
export type PolicyDecisionExplanation = z.infer<typeof ExplainPolicyDecisionResponse>;

const policyBody = { policy: PolicyOut };
const idPath = { policyId: z.string().min(1, 'is required') };

export const CreatePolicyRequest = message({
  name: text.min(1, 'must not be empty'),
  description: text.optional(),
  configuration: message({ cedarPolicy: cedarText }),
  versionNotes: text.optional(),
  // Not in the platform's message (it takes the organization from the caller):
  // lets a caller in several organizations choose one.
  organizationId: organizationIdExtensionIn,
});
export type CreatePolicyInput = z.output<typeof CreatePolicyRequest>;

/** The policy inside an UpdatePolicyRequest: only mask-named fields are read. */
export const PolicyPatchIn = message({
  policyId: z.string().min(1, 'is required'),
  name: text.optional(),
  description: text.optional(),
  configuration: message({ cedarPolicy: cedarText.optional() }).optional(),
  isArchived: boolIn.optional(),
  versionNotes: text.optional(),
});
export type PolicyPatch = z.output<typeof PolicyPatchIn>;

export const UpdatePolicyRequest = message({
  policy: PolicyPatchIn,
  // Required; the service checks it so a missing and an empty mask read the same.
  updateMask: fieldMaskIn.optional(),
  versionNotes: text.optional(),
});
export type UpdatePolicyInput = z.output<typeof UpdatePolicyRequest>;

export const policyOperations = {
  GetPolicy: defineOperation({
    name: 'GetPolicy',
    method: 'GET',
    path: '/api/v1/policies/{policy_id}',
    input: 'path',
    tag: 'Policies',
    summary: 'Get a policy',
    request: message(idPath),
    response: response(policyBody),
  }),
  ListPolicies: defineOperation({
    name: 'ListPolicies',
    method: 'GET',
    path: '/api/v1/policies',
    input: 'query',
    tag: 'Policies',
    summary: 'List policies (archived ones only with include_archived; max page size 100)',
    request: listRequest({ includeArchived: boolIn.optional() }),
    response: response({ policies: z.array(PolicyOut), nextPageToken: z.string() }),
  }),
  CreatePolicy: defineOperation({
    name: 'CreatePolicy',
    method: 'POST',
    path: '/api/v1/policies',
    input: 'body',
    tag: 'Policies',
    summary: 'Create a policy (Cedar text checked by the Cedar parser); it starts at version 1',
    request: CreatePolicyRequest,
    response: response(policyBody),
  }),
  UpdatePolicy: defineOperation({
    name: 'UpdatePolicy',
    method: 'PATCH',
    path: '/api/v1/policies',
    input: 'body',
    tag: 'Policies',
    summary: 'Update name, description, configuration or is_archived named by update_mask; a configuration change makes a new version',
    request: UpdatePolicyRequest,
    response: response(policyBody),
  }),
  ValidatePolicy: defineOperation({
    name: 'ValidatePolicy',
    method: 'POST',
    path: '/api/v1/policies:validate',
    input: 'body',
    tag: 'Policies',
    effect: 'read',
    summary: 'Check Cedar policy text without saving it',
    request: message({ cedarPolicy: cedarText }),
    response: response({ valid: z.boolean(), failureMessage: z.string().optional() }),
  }),
  ArchivePolicy: defineOperation({
    name: 'ArchivePolicy',
    method: 'POST',
    path: '/api/v1/policies/{policy_id}/archive',
    input: 'path',
    tag: 'Policies',
    summary: 'Archive a policy (no request body)',
    request: message(idPath),
    response: response(policyBody),
  }),
  UnarchivePolicy: defineOperation({
    name: 'UnarchivePolicy',
    method: 'POST',
    path: '/api/v1/policies/{policy_id}/unarchive',
    input: 'path',
    tag: 'Policies',
    summary: 'Unarchive a policy (no request body)',
    request: message(idPath),
    response: response(policyBody),
  }),
  ListPolicyVersions: defineOperation({
    name: 'ListPolicyVersions',
    method: 'GET',
    path: '/api/v1/policies/{policy_id}/versions',
    input: 'query',
    tag: 'Policies',
    summary: 'List the stored versions of a policy, newest first (history and diffs)',
    request: listRequest(idPath),
    response: response({ policyVersions: z.array(PolicyVersionOut), nextPageToken: z.string() }),
    extension: true,
  }),
  ExplainPolicyDecision: defineOperation({
    name: 'ExplainPolicyDecision',
    method: 'POST',
    path: '/api/v1/policies:explain',
    input: 'body',
    tag: 'Policies',
    effect: 'read',
    summary:
      "What the organization's active policies decide for a user, an action and a record, and which statements decided " +
      '(asking about another user needs UpdatePolicy)',
    request: ExplainPolicyDecisionRequest,
    response: ExplainPolicyDecisionResponse,
    extension: true,
  }),
} as const;
