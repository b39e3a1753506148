// sift.annotations.v1 (reference §3): the Annotation resource and its 10 operations.
import { z } from 'zod';
import { defineOperation } from './operation';
import { listRequest, organizationIdIn, EmptyOut, UserOut } from './common';
import { MetadataValueIn, MetadataValueOut } from './metadata';
import { boolIn, fieldMaskIn, int64Out, message, nullableTimestampOut, protoEnum, response, timestampIn, timestampOut } from './wire';

export const AnnotationState = protoEnum('AnnotationState', {
  ANNOTATION_STATE_UNSPECIFIED: 0,
  ANNOTATION_STATE_OPEN: 1,
  ANNOTATION_STATE_FLAGGED: 2,
  ANNOTATION_STATE_RESOLVED: 3,
});
export type AnnotationStateName = (typeof AnnotationState.names)[number];

export const AnnotationType = protoEnum('AnnotationType', {
  ANNOTATION_TYPE_UNSPECIFIED: 0,
  ANNOTATION_TYPE_DATA_REVIEW: 1,
  ANNOTATION_TYPE_PHASE: 2,
});
export type AnnotationTypeName = (typeof AnnotationType.names)[number];

export const LinkedChannelIn = message({
  channel: message({ channelId: z.string().min(1, 'must not be empty') }).optional(),
  bitFieldElement: message({
    channelId: z.string().min(1, 'must not be empty'),
    bitFieldName: z.string().min(1, 'must not be empty'),
  }).optional(),
  calculatedChannel: message({ calculatedChannelVersionId: z.string().min(1, 'must not be empty') }).optional(),
}).superRefine((v, ctx) => {
  const n = [v.channel, v.bitFieldElement, v.calculatedChannel].filter((x) => x !== undefined).length;
  if (n !== 1)
    ctx.addIssue({ code: 'custom', message: 'exactly one of channel, bitFieldElement, calculatedChannel must be set (oneof type)' });
});
export type LinkedChannelInput = z.output<typeof LinkedChannelIn>;

export const LinkedChannelOut = z.object({
  channel: z.object({ channelId: z.string() }).optional(),
  bitFieldElement: z.object({ channelId: z.string(), bitFieldName: z.string() }).optional(),
  calculatedChannel: z.object({ calculatedChannelVersionId: z.string() }).optional(),
});
export type LinkedChannel = z.infer<typeof LinkedChannelOut>;

export const AnnotationOut = response({
  annotationId: z.string(),
  name: z.string(),
  description: z.string(),
  startTime: timestampOut,
  endTime: timestampOut,
  createdByUserId: z.string(),
  modifiedByUserId: z.string(),
  createdDate: timestampOut,
  modifiedDate: timestampOut,
  runId: z.string().optional(),
  state: AnnotationState.out.optional(),
  organizationId: z.string(),
  assignedToUserId: z.string(),
  annotationType: AnnotationType.out,
  tags: z.array(z.string()),
  legendConfig: z.string().optional(),
  createdByConditionId: z.string().optional(),
  createdByRuleConditionVersionId: z.string().optional(),
  reportRuleVersionId: z.string().optional(),
  pending: z.boolean(),
  assignedToUser: UserOut.nullable(),
  deletedDate: nullableTimestampOut,
  linkedChannels: z.array(LinkedChannelOut),
  assetIds: z.array(z.string()),
  metadata: z.array(MetadataValueOut),
  archivedDate: nullableTimestampOut,
  isArchived: z.boolean(),
  batchedTriggers: z.number().int(),
  isNoisyRule: z.boolean(),
});
export type Annotation = z.infer<typeof AnnotationOut>;

const annotationBody = { annotation: AnnotationOut };
const idPath = { annotationId: z.string().min(1, 'is required') };
const idsBody = { annotationIds: z.array(z.string()).max(1000, 'at most 1000 ids per batch') };

export const CreateAnnotationRequest = message({
  name: z.string().min(1, 'is required'),
  description: z.string().optional(),
  startTime: timestampIn,
  endTime: timestampIn,
  assets: z.array(z.string()).optional(),
  linkedChannels: z.array(LinkedChannelIn).optional(),
  tags: z.array(z.string()).optional(),
  runId: z.string().optional(),
  assignToUserId: z.string().optional(),
  organizationId: organizationIdIn,
  state: AnnotationState.in.optional(),
  annotationType: AnnotationType.in.optional(),
  legendConfig: z.string().optional(),
  createdByConditionId: z.string().optional(),
  createdByRuleConditionVersionId: z.string().optional(),
  metadata: z.array(MetadataValueIn).optional(),
});
export type CreateAnnotationInput = z.output<typeof CreateAnnotationRequest>;

/** The annotation inside an UpdateAnnotationRequest: only mask-named fields are read. */
export const AnnotationPatchIn = message({
  annotationId: z.string().min(1, 'is required'),
  name: z.string().optional(),
  description: z.string().optional(),
  startTime: timestampIn.optional(),
  endTime: timestampIn.optional(),
  assignedToUserId: z.string().optional(),
  state: AnnotationState.in.optional(),
  tags: z.array(z.string()).optional(),
  legendConfig: z.string().optional(),
  linkedChannels: z.array(LinkedChannelIn).optional(),
  metadata: z.array(MetadataValueIn).optional(),
  /** With `deleted_date` (or `archived_date`) in the mask: a date archives, none (null) restores. */
  deletedDate: timestampIn.optional(),
  archivedDate: timestampIn.optional(),
});
export type AnnotationPatch = z.output<typeof AnnotationPatchIn>;

export const UpdateAnnotationRequest = message({ annotation: AnnotationPatchIn, updateMask: fieldMaskIn });

/** CountAnnotations counts exactly up to this many; a count above it is this number with `exact: false`. */
export const COUNT_EXACT_LIMIT = 100_000;

/** The most UpdateAnnotation requests one BatchUpdateAnnotations runs (the renderer's "all 3,218 matching" fits). */
export const BATCH_UPDATE_LIMIT = 10_000;

/** The fields of an AnnotationChange: exactly one is set. */
const CHANGE_FIELDS = ['state', 'assignedToUserId', 'addTag', 'removeTag', 'archived'] as const;

/**
 * One change BatchChangeAnnotations makes to each annotation it acts on (exactly one field set): a review state,
 * an assignee ('' unassigns), a tag added to or removed from the annotation's own tags, archived or not.
 */
export const AnnotationChangeIn = message({
  state: AnnotationState.in.optional(),
  assignedToUserId: z.string().optional(),
  addTag: z.string().min(1, 'must not be empty').optional(),
  removeTag: z.string().min(1, 'must not be empty').optional(),
  archived: boolIn.optional(),
}).superRefine((v, ctx) => {
  if (CHANGE_FIELDS.filter((f) => v[f] !== undefined).length !== 1)
    ctx.addIssue({ code: 'custom', message: `exactly one of ${CHANGE_FIELDS.join(', ')} must be set` });
  if (v.state === 'ANNOTATION_STATE_UNSPECIFIED')
    ctx.addIssue({ code: 'custom', path: ['state'], message: 'must be OPEN, FLAGGED or RESOLVED' });
});
export type AnnotationChange = z.output<typeof AnnotationChangeIn>;

export const AnnotationChangeOut = response({
  state: AnnotationState.out.optional(),
  assignedToUserId: z.string().optional(),
  addTag: z.string().optional(),
  removeTag: z.string().optional(),
  archived: z.boolean().optional(),
});

/** BatchChangeAnnotations: one change to every annotation a filter matches, or to each named one its own (an undo). */
export const BatchChangeAnnotationsRequest = message({
  /** CEL, as ListAnnotations takes it (the list's implicit clauses, such as archived hidden, included by the caller). */
  filter: z.string().optional(),
  organizationId: organizationIdIn,
  /** With `filter`: the change made to every matching annotation. */
  change: AnnotationChangeIn.optional(),
  /** Instead of a filter: each annotation named with its own change (the `changed` of an earlier call, undone). */
  records: z
    .array(message({ annotationId: z.string().min(1, 'is required'), change: AnnotationChangeIn }))
    .max(BATCH_UPDATE_LIMIT, `at most ${BATCH_UPDATE_LIMIT} records per batch`)
    .optional(),
});
export type BatchChangeAnnotationsInput = z.output<typeof BatchChangeAnnotationsRequest>;

export const annotationOperations = {
  CreateAnnotation: defineOperation({
    name: 'CreateAnnotation',
    method: 'POST',
    path: '/api/v1/annotations',
    input: 'body',
    tag: 'Annotations',
    summary: 'Create an annotation',
    request: CreateAnnotationRequest,
    response: response(annotationBody),
  }),
  DeleteAnnotation: defineOperation({
    name: 'DeleteAnnotation',
    method: 'DELETE',
    path: '/api/v1/annotations/{annotation_id}',
    input: 'path',
    tag: 'Annotations',
    summary: 'Delete (archive) an annotation',
    request: message(idPath),
    response: EmptyOut,
  }),
  ArchiveAnnotation: defineOperation({
    name: 'ArchiveAnnotation',
    method: 'POST',
    path: '/api/v1/annotations/{annotation_id}:archive',
    input: 'body',
    tag: 'Annotations',
    summary: 'Archive an annotation',
    request: message(idPath),
    response: response(annotationBody),
  }),
  UnarchiveAnnotation: defineOperation({
    name: 'UnarchiveAnnotation',
    method: 'POST',
    path: '/api/v1/annotations/{annotation_id}:unarchive',
    input: 'body',
    tag: 'Annotations',
    summary: 'Unarchive an annotation',
    request: message(idPath),
    response: response(annotationBody),
  }),
  BatchDeleteAnnotations: defineOperation({
    name: 'BatchDeleteAnnotations',
    method: 'POST',
    path: '/api/v1/annotations:batchDelete',
    input: 'body',
    tag: 'Annotations',
    summary: 'Delete (archive) up to 1000 annotations atomically',
    request: message(idsBody),
    response: EmptyOut,
  }),
  BatchArchiveAnnotations: defineOperation({
    name: 'BatchArchiveAnnotations',
    method: 'POST',
    path: '/api/v1/annotations:batchArchive',
    input: 'body',
    tag: 'Annotations',
    summary: 'Archive up to 1000 annotations atomically',
    request: message(idsBody),
    response: response({ annotations: z.array(AnnotationOut) }),
  }),
  BatchUnarchiveAnnotations: defineOperation({
    name: 'BatchUnarchiveAnnotations',
    method: 'POST',
    path: '/api/v1/annotations:batchUnarchive',
    input: 'body',
    tag: 'Annotations',
    summary: 'Unarchive up to 1000 annotations atomically',
    request: message(idsBody),
    response: response({ annotations: z.array(AnnotationOut) }),
  }),
  ListAnnotations: defineOperation({
    name: 'ListAnnotations',
    method: 'GET',
    path: '/api/v1/annotations',
    input: 'query',
    tag: 'Annotations',
    summary: 'List annotations (CEL filter, AIP-132 order_by, keyset paging)',
    request: listRequest({ organizationId: organizationIdIn }),
    response: response({ annotations: z.array(AnnotationOut), nextPageToken: z.string() }),
  }),
  CountAnnotations: defineOperation({
    name: 'CountAnnotations',
    method: 'GET',
    path: '/api/v1/annotations:count',
    input: 'query',
    tag: 'Annotations',
    extension: true,
    summary: `How many annotations ListAnnotations lists for a filter, counted by the same query; exact up to ${COUNT_EXACT_LIMIT.toLocaleString('en-US')} (above: that many and exact false)`,
    request: message({ filter: z.string().optional(), organizationId: organizationIdIn }),
    response: response({ count: int64Out, exact: z.boolean() }),
  }),
  GetAnnotation: defineOperation({
    name: 'GetAnnotation',
    method: 'GET',
    path: '/api/v1/annotations/{annotation_id}',
    input: 'path',
    tag: 'Annotations',
    summary: 'Get an annotation',
    request: message(idPath),
    response: response(annotationBody),
  }),
  UpdateAnnotation: defineOperation({
    name: 'UpdateAnnotation',
    method: 'PATCH',
    path: '/api/v1/annotations',
    input: 'body',
    tag: 'Annotations',
    summary: 'Update the fields of an annotation named by update_mask',
    request: UpdateAnnotationRequest,
    response: response(annotationBody),
  }),
  BatchUpdateAnnotations: defineOperation({
    name: 'BatchUpdateAnnotations',
    method: 'POST',
    path: '/api/v1/annotations:batchUpdate',
    input: 'body',
    tag: 'Annotations',
    summary: `Run up to ${BATCH_UPDATE_LIMIT} UpdateAnnotation requests in one transaction (all or none; each recorded for sync as an UpdateAnnotation)`,
    extension: true,
    eachAs: ['UpdateAnnotation'],
    request: message({ requests: z.array(UpdateAnnotationRequest).min(1, 'must not be empty').max(BATCH_UPDATE_LIMIT) }),
    response: response({ responses: z.array(response(annotationBody)) }),
  }),
  BatchChangeAnnotations: defineOperation({
    name: 'BatchChangeAnnotations',
    method: 'POST',
    path: '/api/v1/annotations:batchChange',
    input: 'body',
    tag: 'Annotations',
    summary:
      `One change (state, assignee, a tag added or removed, archived) to every annotation a filter matches (up to ${BATCH_UPDATE_LIMIT}), ` +
      'or to each named annotation its own, in one transaction (all or none); each changed record is recorded for sync as its ' +
      'UpdateAnnotation, ArchiveAnnotation or UnarchiveAnnotation. Answers the records it changed with the change that restores each',
    extension: true,
    eachAs: ['UpdateAnnotation', 'ArchiveAnnotation', 'UnarchiveAnnotation'],
    request: BatchChangeAnnotationsRequest,
    response: response({ changed: z.array(response({ annotationId: z.string(), previous: AnnotationChangeOut })) }),
  }),
} as const;
