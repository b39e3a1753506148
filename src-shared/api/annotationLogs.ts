// sift.annotation_logs.v1 (reference §4): the activity history of an annotation.
import { z } from 'zod';
import { defineOperation } from './operation';
import { EmptyOut } from './common';
import { message, pageSizeIn, protoEnum, response, timestampOut } from './wire';

export const AnnotationLogKind = protoEnum('AnnotationLogKind', {
  ANNOTATION_LOG_KIND_UNSPECIFIED: 0,
  ANNOTATION_LOG_KIND_COMMENT: 1,
  ANNOTATION_LOG_KIND_STATE_UPDATE: 2,
  ANNOTATION_LOG_KIND_ASSIGNED: 3,
});
export type AnnotationLogKindName = (typeof AnnotationLogKind.names)[number];

/** Shifted by one versus AnnotationState because of CREATED. */
export const AnnotationLogState = protoEnum('AnnotationLogState', {
  ANNOTATION_LOG_STATE_UNSPECIFIED: 0,
  ANNOTATION_LOG_STATE_CREATED: 1,
  ANNOTATION_LOG_STATE_OPEN: 2,
  ANNOTATION_LOG_STATE_FLAGGED: 3,
  ANNOTATION_LOG_STATE_RESOLVED: 4,
});
export type AnnotationLogStateName = (typeof AnnotationLogState.names)[number];

export const CommentBodyElementType = protoEnum('AnnotationCommentBodyElementType', {
  ANNOTATION_COMMENT_BODY_ELEMENT_TYPE_UNSPECIFIED: 0,
  ANNOTATION_COMMENT_BODY_ELEMENT_TYPE_TEXT: 1,
  ANNOTATION_COMMENT_BODY_ELEMENT_TYPE_USER_MENTION: 2,
});

const AssignedIn = message({ assignedToUserId: z.string(), assignedToUserEmail: z.string().optional() });
const StateUpdateIn = message({ state: AnnotationLogState.in });
const BodyElementIn = message({
  type: CommentBodyElementType.in,
  text: z.string().optional(),
  userMention: message({ userId: z.string(), userEmail: z.string().optional() }).optional(),
});
const CommentIn = message({ body: z.array(BodyElementIn).min(1, 'a comment needs at least one body element') });

const AssignedOut = z.object({ assignedToUserId: z.string(), assignedToUserEmail: z.string() });
const StateUpdateOut = z.object({ state: AnnotationLogState.out });
const BodyElementOut = z.object({
  type: CommentBodyElementType.out,
  text: z.string(),
  userMention: z.object({ userId: z.string(), userEmail: z.string() }).nullable(),
});
const CommentOut = z.object({ body: z.array(BodyElementOut) });

export const AnnotationLogOut = response({
  annotationLogId: z.string(),
  createdDate: timestampOut,
  modifiedDate: timestampOut,
  annotationId: z.string(),
  kind: AnnotationLogKind.out,
  createdByUserId: z.string(),
  createdByUserName: z.string(),
  assigned: AssignedOut.optional(),
  stateUpdate: StateUpdateOut.optional(),
  comment: CommentOut.optional(),
});
export type AnnotationLog = z.infer<typeof AnnotationLogOut>;

export const CreateAnnotationLogRequest = message({
  annotationId: z.string().min(1, 'is required'),
  kind: AnnotationLogKind.in,
  assigned: AssignedIn.optional(),
  stateUpdate: StateUpdateIn.optional(),
  comment: CommentIn.optional(),
});
export type CreateAnnotationLogInput = z.output<typeof CreateAnnotationLogRequest>;

const listLogsShape = {
  pageSize: pageSizeIn.optional(),
  pageToken: z.string().optional(),
  filter: z.string().optional(),
};
const ListLogsResponse = response({ annotationLogs: z.array(AnnotationLogOut), nextPageToken: z.string() });

export const annotationLogOperations = {
  CreateAnnotationLog: defineOperation({
    name: 'CreateAnnotationLog',
    method: 'POST',
    path: '/api/v1/annotations/{annotation_id}/logs',
    input: 'body',
    tag: 'Annotation logs',
    summary: 'Add a comment, state update or assignment to an annotation',
    request: CreateAnnotationLogRequest,
    response: response({ annotationLog: AnnotationLogOut }),
  }),
  ListAnnotationLogs: defineOperation({
    name: 'ListAnnotationLogs',
    method: 'GET',
    path: '/api/v1/annotations/{annotation_id}/logs',
    input: 'query',
    tag: 'Annotation logs',
    summary: "List an annotation's logs",
    request: message({ annotationId: z.string().min(1, 'is required'), ...listLogsShape }),
    response: ListLogsResponse,
  }),
  ListAllAnnotationLogs: defineOperation({
    name: 'ListAllAnnotationLogs',
    operationId: 'ListAnnotationLogs2',
    method: 'GET',
    path: '/api/v1/annotation-logs',
    input: 'query',
    tag: 'Annotation logs',
    summary: 'List annotation logs (second binding of ListAnnotationLogs; annotation_id optional)',
    request: message({ annotationId: z.string().optional(), ...listLogsShape }),
    response: ListLogsResponse,
  }),
  DeleteAnnotationLog: defineOperation({
    name: 'DeleteAnnotationLog',
    method: 'DELETE',
    path: '/api/v1/annotations/{annotation_id}/logs/{annotation_log_id}',
    input: 'path',
    tag: 'Annotation logs',
    summary: 'Delete an annotation log',
    request: message({ annotationId: z.string().min(1), annotationLogId: z.string().min(1) }),
    response: EmptyOut,
  }),
} as const;
