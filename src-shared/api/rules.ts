// sift.rules.v1 (reference §6): the Rule resource, its versions, and the
// RuleService operations (create-or-update, reads, versions, archive).
//
// Wire facts worth knowing here: ConditionComparator and ActionKind values are
// UNPREFIXED (LESS_THAN, NOTIFICATION); RuleVersion.version is a STRING;
// UpdateRule is PUT with full-replacement semantics (no field mask);
// CreateRule wraps its body in `update`; archive/unarchive answer `{}`;
// CalculatedChannelConfig.channel_references is a map keyed by the symbols the
// expression uses (`$1`), and map keys are never case-converted.
import { z } from 'zod';
import { AnnotationType } from './annotations';
import { EmptyOut, listShape, organizationIdExtensionIn, organizationIdIn } from './common';
import { MetadataValueIn, MetadataValueOut } from './metadata';
import { defineOperation } from './operation';
import { boolIn, doubleIn, message, nullableTimestampOut, pageSizeIn, protoEnum, response, timestampOut } from './wire';

export const ConditionComparator = protoEnum('ConditionComparator', {
  CONDITION_COMPARATOR_UNSPECIFIED: 0,
  LESS_THAN: 1,
  LESS_THAN_OR_EQUAL: 2,
  GREATER_THAN: 3,
  GREATER_THAN_OR_EQUAL: 4,
  EQUAL: 5,
  NOT_EQUAL: 6,
});
export type ConditionComparatorName = (typeof ConditionComparator.names)[number];

export const ActionKind = protoEnum('ActionKind', {
  ACTION_KIND_UNSPECIFIED: 0,
  NOTIFICATION: 1,
  ANNOTATION: 2,
  WEBHOOK: 3,
});
export type ActionKindName = (typeof ActionKind.names)[number];

/** Limits that keep one request bounded (not documented by the platform). */
export const MAX_RULE_CONDITIONS = 100;
export const MAX_CONDITION_ACTIONS = 100;
export const MAX_RULE_BATCH = 1000;

/** A channel-reference symbol as used in calculated-channel expressions (`$1`, `$speed`). */
export const REFERENCE_SYMBOL = /^\$[A-Za-z0-9_]+$/;
const SYMBOL_USE = /\$[A-Za-z0-9_]+/g;

// ---------------------------------------------------------------- requests

const nonEmpty = (s: string | undefined): s is string => s !== undefined && s !== '';

export const ChannelReferenceIn = message({
  name: z.string().optional(),
  component: z.string().optional(),
  calculatedChannelVersionId: z.string().optional(),
}).superRefine((v, ctx) => {
  if (nonEmpty(v.calculatedChannelVersionId)) {
    if (nonEmpty(v.name))
      ctx.addIssue({ code: 'custom', path: ['name'], message: 'must be empty when calculated_channel_version_id is set' });
    if (nonEmpty(v.component))
      ctx.addIssue({ code: 'custom', path: ['component'], message: 'must be empty when calculated_channel_version_id is set' });
  } else if (!nonEmpty(v.name)) {
    ctx.addIssue({ code: 'custom', path: ['name'], message: 'is required (or set calculated_channel_version_id)' });
  }
});
export type ChannelReferenceInput = z.output<typeof ChannelReferenceIn>;

export const CalculatedChannelConfigIn = message({
  // A map: its keys are reference symbols and are kept exactly as sent.
  channelReferences: z.record(z.string(), ChannelReferenceIn),
  expression: z.string().min(1, 'must not be empty'),
  // function_dependencies / calculated_channel_dependencies are server-generated: ignored in requests.
}).superRefine((v, ctx) => {
  const symbols = Object.keys(v.channelReferences);
  if (symbols.length === 0)
    ctx.addIssue({ code: 'custom', path: ['channelReferences'], message: 'must define at least one channel reference' });
  for (const s of symbols) {
    if (!REFERENCE_SYMBOL.test(s))
      ctx.addIssue({ code: 'custom', path: ['channelReferences'], message: `key '${s}' is not a reference symbol (expected e.g. "$1")` });
  }
  for (const used of new Set(v.expression.match(SYMBOL_USE) ?? [])) {
    if (!Object.hasOwn(v.channelReferences, used))
      ctx.addIssue({ code: 'custom', path: ['expression'], message: `uses ${used}, which channel_references does not define` });
  }
});

export const SingleChannelComparisonIn = message({
  channelComponent: z.string().optional(),
  channelName: z.string().min(1, 'must not be empty'),
  comparator: ConditionComparator.in,
  double: doubleIn.optional(),
  string: z.string().optional(),
  lastValue: message({}).optional(),
}).superRefine((v, ctx) => {
  if (v.comparator === 'CONDITION_COMPARATOR_UNSPECIFIED')
    ctx.addIssue({ code: 'custom', path: ['comparator'], message: 'must be set (LESS_THAN ... NOT_EQUAL)' });
  const set = (['double', 'string', 'lastValue'] as const).filter((k) => v[k] !== undefined);
  if (set.length !== 1)
    ctx.addIssue({ code: 'custom', path: [], message: 'exactly one of double, string, last_value must be set (oneof threshold)' });
});

export const RuleConditionExpressionIn = message({
  singleChannelComparison: SingleChannelComparisonIn.optional(),
  calculatedChannel: CalculatedChannelConfigIn.optional(),
}).superRefine((v, ctx) => {
  if ((v.singleChannelComparison === undefined) === (v.calculatedChannel === undefined)) {
    ctx.addIssue({
      code: 'custom',
      path: [],
      message: 'exactly one of single_channel_comparison, calculated_channel must be set (oneof expression)',
    });
  }
});
export type RuleConditionExpressionInput = z.output<typeof RuleConditionExpressionIn>;

export const RuleActionConfigurationIn = message({
  notification: message({ recipientUserIds: z.array(z.string().min(1, 'must not be empty')).optional() }).optional(),
  annotation: message({
    tagIds: z.array(z.string().min(1, 'must not be empty')).optional(),
    annotationType: AnnotationType.in.optional(),
    assignedToUserId: z.string().optional(),
    metadata: z.array(MetadataValueIn).optional(),
  }).optional(),
  webhook: message({ webhookId: z.string().min(1, 'must not be empty') }).optional(),
});
export type RuleActionConfigurationInput = z.output<typeof RuleActionConfigurationIn>;

/** action_type <-> the member of the configuration oneof it requires. */
export const CONFIGURATION_MEMBER = { NOTIFICATION: 'notification', ANNOTATION: 'annotation', WEBHOOK: 'webhook' } as const;

export const UpdateActionIn = message({
  ruleActionId: z.string().optional(),
  actionType: ActionKind.in,
  configuration: RuleActionConfigurationIn,
}).superRefine((v, ctx) => {
  if (v.actionType === 'ACTION_KIND_UNSPECIFIED') {
    ctx.addIssue({ code: 'custom', path: ['actionType'], message: 'must be NOTIFICATION, ANNOTATION or WEBHOOK' });
    return;
  }
  const set = (['notification', 'annotation', 'webhook'] as const).filter((k) => v.configuration[k] !== undefined);
  const want = CONFIGURATION_MEMBER[v.actionType];
  if (set.length !== 1 || set[0] !== want) {
    ctx.addIssue({
      code: 'custom',
      path: ['configuration'],
      message: `action_type ${v.actionType} requires exactly the '${want}' configuration (got ${set.length ? set.join(', ') : 'none'})`,
    });
  }
});
export type UpdateActionInput = z.output<typeof UpdateActionIn>;

export const UpdateConditionIn = message({
  ruleConditionId: z.string().optional(),
  expression: RuleConditionExpressionIn,
  actions: z.array(UpdateActionIn).max(MAX_CONDITION_ACTIONS, `at most ${MAX_CONDITION_ACTIONS} actions per condition`).optional(),
});
export type UpdateConditionInput = z.output<typeof UpdateConditionIn>;

export const RuleAssetConfigurationIn = message({
  assetIds: z.array(z.string().min(1, 'must not be empty')).optional(),
  tagIds: z.array(z.string().min(1, 'must not be empty')).optional(),
});

export const ContextualChannelsIn = message({ channels: z.array(ChannelReferenceIn).optional() });

/** Create-or-update: updates when rule_id or client_key names an existing rule, else creates. */
export const UpdateRuleRequest = message({
  ruleId: z.string().optional(),
  name: z.string().min(1, 'must not be empty'),
  description: z.string().optional(),
  assetId: z.string().optional(),
  isEnabled: boolIn.optional(),
  conditions: z.array(UpdateConditionIn).max(MAX_RULE_CONDITIONS, `at most ${MAX_RULE_CONDITIONS} conditions per rule`).optional(),
  organizationId: organizationIdIn,
  versionNotes: z.string().optional(),
  clientKey: z.string().optional(),
  assetConfiguration: RuleAssetConfigurationIn.optional(),
  contextualChannels: ContextualChannelsIn.optional(),
  isExternal: boolIn.optional(),
  metadata: z.array(MetadataValueIn).optional(),
  isArchived: boolIn.optional(),
  isLiveEvaluationEnabled: boolIn.optional(),
});
export type UpdateRuleInput = z.output<typeof UpdateRuleRequest>;

const ruleIdentifier = { ruleId: z.string().optional(), clientKey: z.string().optional() };
const ruleIdentifiers = {
  ruleIds: z.array(z.string()).max(MAX_RULE_BATCH, `at most ${MAX_RULE_BATCH} ids per batch`).optional(),
  clientKeys: z.array(z.string()).max(MAX_RULE_BATCH, `at most ${MAX_RULE_BATCH} client keys per batch`).optional(),
};

// --------------------------------------------------------------- responses

/** double on output: a number, or "NaN"/"Infinity"/"-Infinity" (protobuf JSON). */
const DoubleOut = z.union([z.number(), z.enum(['NaN', 'Infinity', '-Infinity'])]);

export const ChannelReferenceOut = response({
  name: z.string(),
  component: z.string(),
  calculatedChannelVersionId: z.string().optional(),
});
export type ChannelReference = z.infer<typeof ChannelReferenceOut>;

export const RuleConditionExpressionOut = z.object({
  singleChannelComparison: response({
    channelComponent: z.string(),
    channelName: z.string(),
    comparator: ConditionComparator.out,
    double: DoubleOut.optional(),
    string: z.string().optional(),
    lastValue: z.object({}).optional(),
  }).optional(),
  calculatedChannel: response({
    channelReferences: z.record(z.string(), ChannelReferenceOut),
    expression: z.string(),
    functionDependencies: z.array(response({ userDefinedFunctionVersionId: z.string() })),
    calculatedChannelDependencies: z.array(response({ calculatedChannelVersionId: z.string() })),
  }).optional(),
});
export type RuleConditionExpression = z.infer<typeof RuleConditionExpressionOut>;

export const RuleActionConfigurationOut = z.object({
  notification: response({ recipientUserIds: z.array(z.string()) }).optional(),
  annotation: response({
    tagIds: z.array(z.string()),
    annotationType: AnnotationType.out,
    assignedToUserId: z.string().optional(),
    metadata: z.array(MetadataValueOut),
  }).optional(),
  webhook: response({ webhookId: z.string() }).optional(),
});
export type RuleActionConfiguration = z.infer<typeof RuleActionConfigurationOut>;

export const RuleActionOut = response({
  ruleActionId: z.string(),
  ruleConditionId: z.string(),
  actionType: ActionKind.out,
  configuration: RuleActionConfigurationOut,
  createdDate: timestampOut,
  modifiedDate: timestampOut,
  createdByUserId: z.string(),
  modifiedByUserId: z.string(),
  ruleActionVersionId: z.string(),
});
export type RuleAction = z.infer<typeof RuleActionOut>;

export const RuleConditionOut = response({
  ruleConditionId: z.string(),
  ruleId: z.string(),
  expression: RuleConditionExpressionOut,
  createdDate: timestampOut,
  modifiedDate: timestampOut,
  createdByUserId: z.string(),
  modifiedByUserId: z.string(),
  actions: z.array(RuleActionOut),
  ruleConditionVersionId: z.string(),
});
export type RuleCondition = z.infer<typeof RuleConditionOut>;

export const RuleVersionOut = response({
  ruleId: z.string(),
  ruleVersionId: z.string(),
  /** A string on the wire ("1", "2", ...), not a number. */
  version: z.string(),
  createdDate: timestampOut,
  createdByUserId: z.string(),
  versionNotes: z.string(),
  generatedChangeMessage: z.string(),
  deletedDate: nullableTimestampOut,
  archivedDate: nullableTimestampOut,
  isArchived: z.boolean(),
});
export type RuleVersion = z.infer<typeof RuleVersionOut>;

export const RuleOut = response({
  ruleId: z.string(),
  assetId: z.string(),
  name: z.string(),
  description: z.string(),
  isEnabled: z.boolean(),
  createdDate: timestampOut,
  modifiedDate: timestampOut,
  createdByUserId: z.string(),
  modifiedByUserId: z.string(),
  organizationId: z.string(),
  conditions: z.array(RuleConditionOut),
  ruleVersion: RuleVersionOut,
  clientKey: z.string(),
  assetConfiguration: response({ assetIds: z.array(z.string()), tagIds: z.array(z.string()) }),
  contextualChannels: response({ channels: z.array(ChannelReferenceOut) }),
  deletedDate: nullableTimestampOut,
  isExternal: z.boolean(),
  metadata: z.array(MetadataValueOut),
  archivedDate: nullableTimestampOut,
  isArchived: z.boolean(),
  isLiveEvaluationEnabled: z.boolean(),
  currentVersionId: z.string(),
  folderIds: z.array(z.string()),
});
export type Rule = z.infer<typeof RuleOut>;

export const ValidationResultOut = response({
  ruleId: z.string(),
  clientKey: z.string(),
  assetExpressionValidationResults: z.array(
    response({ assetId: z.string(), assetName: z.string(), assetTagId: z.string(), error: z.string().optional() }),
  ),
  error: z.string().optional(),
  ruleName: z.string(),
});
export type ValidationResult = z.infer<typeof ValidationResultOut>;

export const BatchUpdateRulesResponse = response({
  success: z.boolean(),
  rulesCreatedCount: z.number().int(),
  rulesUpdatedCount: z.number().int(),
  validateOnly: z.boolean(),
  validationResults: z.array(ValidationResultOut),
  createdRuleIdentifiers: z.array(response({ ruleId: z.string(), name: z.string(), clientKey: z.string().optional() })),
});
export type BatchUpdateRulesResult = z.infer<typeof BatchUpdateRulesResponse>;

const ruleIdOut = response({ ruleId: z.string() });
const ruleOut = response({ rule: RuleOut });
const rulesOut = response({ rules: z.array(RuleOut) });
const TAG = 'Rules';

export const ruleOperations = {
  CreateRule: defineOperation({
    name: 'CreateRule',
    method: 'POST',
    path: '/api/v1/rules',
    input: 'body',
    tag: TAG,
    summary: 'Create a rule (the UpdateRuleRequest is wrapped in `update`; an existing client_key is ALREADY_EXISTS)',
    request: message({ update: UpdateRuleRequest }),
    response: ruleIdOut,
  }),
  UpdateRule: defineOperation({
    name: 'UpdateRule',
    method: 'PUT',
    path: '/api/v1/rules',
    input: 'body',
    tag: TAG,
    summary: 'Create or update a rule identified by rule_id or client_key (full replacement; every change is a new rule version)',
    request: UpdateRuleRequest,
    response: ruleIdOut,
  }),
  BatchUpdateRules: defineOperation({
    name: 'BatchUpdateRules',
    method: 'PUT',
    path: '/api/v1/rules:batchUpdate',
    input: 'body',
    tag: TAG,
    summary: 'Create or update up to 1000 rules atomically, or only validate them (validate_only)',
    request: message({
      rules: z.array(UpdateRuleRequest).max(MAX_RULE_BATCH, `at most ${MAX_RULE_BATCH} rules per batch`),
      validateOnly: boolIn.optional(),
      overrideExpressionValidation: boolIn.optional(),
    }),
    response: BatchUpdateRulesResponse,
  }),
  GetRule: defineOperation({
    name: 'GetRule',
    method: 'GET',
    path: '/api/v1/rules',
    input: 'query',
    tag: TAG,
    summary: 'Get a rule by rule_id or client_key (rule_id wins when both are given)',
    request: message(ruleIdentifier),
    response: ruleOut,
  }),
  BatchGetRules: defineOperation({
    name: 'BatchGetRules',
    method: 'POST',
    path: '/api/v1/rules:batchGet',
    input: 'body',
    tag: TAG,
    effect: 'read',
    summary: 'Get rules by rule_ids and by client_keys (both lists are used; each rule appears once)',
    request: message(ruleIdentifiers),
    response: rulesOut,
  }),
  ListRules: defineOperation({
    name: 'ListRules',
    method: 'GET',
    path: '/api/v1/rules:list',
    input: 'query',
    tag: TAG,
    summary: 'List rules (default order created_date desc; order_by created_date, modified_date)',
    request: message({ ...listShape, organizationId: organizationIdExtensionIn }),
    response: response({ rules: z.array(RuleOut), nextPageToken: z.string() }),
  }),
  ListRuleVersions: defineOperation({
    name: 'ListRuleVersions',
    method: 'GET',
    path: '/api/v1/rules/{rule_id}/versions',
    input: 'query',
    tag: TAG,
    summary: 'List the versions of a rule (newest first)',
    request: message({
      ruleId: z.string().min(1, 'is required'),
      pageSize: pageSizeIn.optional(),
      pageToken: z.string().optional(),
      filter: z.string().optional(),
    }),
    response: response({ ruleVersions: z.array(RuleVersionOut), nextPageToken: z.string() }),
  }),
  GetRuleVersion: defineOperation({
    name: 'GetRuleVersion',
    method: 'GET',
    path: '/api/v1/rules:version',
    input: 'query',
    tag: TAG,
    summary: 'Get a rule as of one of its versions',
    request: message({ ruleVersionId: z.string().min(1, 'must not be empty') }),
    response: ruleOut,
  }),
  BatchGetRuleVersions: defineOperation({
    name: 'BatchGetRuleVersions',
    method: 'POST',
    path: '/api/v1/rules:batchGetVersions',
    input: 'body',
    tag: TAG,
    effect: 'read',
    summary: 'Get rules as of each of the given versions',
    request: message({ ruleVersionIds: z.array(z.string()).max(MAX_RULE_BATCH, `at most ${MAX_RULE_BATCH} ids per batch`) }),
    response: rulesOut,
  }),
  ArchiveRule: defineOperation({
    name: 'ArchiveRule',
    method: 'POST',
    path: '/api/v1/rules/archive',
    input: 'body',
    tag: TAG,
    summary: 'Archive a rule (by rule_id or client_key)',
    request: message(ruleIdentifier),
    response: EmptyOut,
  }),
  UnarchiveRule: defineOperation({
    name: 'UnarchiveRule',
    method: 'POST',
    path: '/api/v1/rules/unarchive',
    input: 'body',
    tag: TAG,
    summary: 'Unarchive a rule (by rule_id or client_key)',
    request: message(ruleIdentifier),
    response: EmptyOut,
  }),
  BatchArchiveRules: defineOperation({
    name: 'BatchArchiveRules',
    method: 'POST',
    path: '/api/v1/rules/batchArchive',
    input: 'body',
    tag: TAG,
    summary: 'Archive rules by rule_ids and client_keys atomically',
    request: message(ruleIdentifiers),
    response: EmptyOut,
  }),
  BatchUnarchiveRules: defineOperation({
    name: 'BatchUnarchiveRules',
    method: 'POST',
    path: '/api/v1/rules/batchUnarchive',
    input: 'body',
    tag: TAG,
    summary: 'Unarchive rules by rule_ids and client_keys atomically',
    request: message(ruleIdentifiers),
    response: EmptyOut,
  }),
  DeleteRule: defineOperation({
    name: 'DeleteRule',
    method: 'POST',
    path: '/api/v1/rules/delete',
    input: 'body',
    tag: TAG,
    summary: 'Deprecated: archives the rule',
    request: message(ruleIdentifier),
    response: EmptyOut,
  }),
  UndeleteRule: defineOperation({
    name: 'UndeleteRule',
    method: 'POST',
    path: '/api/v1/rules/undelete',
    input: 'body',
    tag: TAG,
    summary: 'Deprecated: unarchives the rule',
    request: message(ruleIdentifier),
    response: EmptyOut,
  }),
  BatchDeleteRules: defineOperation({
    name: 'BatchDeleteRules',
    method: 'POST',
    path: '/api/v1/rules/batchDelete',
    input: 'body',
    tag: TAG,
    summary: 'Deprecated: archives the rules',
    request: message(ruleIdentifiers),
    response: EmptyOut,
  }),
  BatchUndeleteRules: defineOperation({
    name: 'BatchUndeleteRules',
    method: 'POST',
    path: '/api/v1/rules/batchUndelete',
    input: 'body',
    tag: TAG,
    summary: 'Deprecated: unarchives the rules',
    request: message(ruleIdentifiers),
    response: EmptyOut,
  }),
} as const;
