// sift.tags.v2 (reference §11.3): tags are referenced by name from annotations,
// assets and runs. There is no GetTag: resolve through ListTags.
import { z } from 'zod';
import { defineOperation } from './operation';
import { listRequest, organizationIdExtensionIn } from './common';
import { message, protoEnum, response, timestampOut } from './wire';

export const TagType = protoEnum('TagType', {
  TAG_TYPE_UNSPECIFIED: 0,
  TAG_TYPE_ANNOTATION: 1,
  TAG_TYPE_ASSET: 2,
  TAG_TYPE_CAMPAIGN: 3,
  TAG_TYPE_REPORT: 4,
  TAG_TYPE_REPORT_TEMPLATE: 5,
  TAG_TYPE_RUN: 6,
});

export const TagOut = response({
  tagId: z.string(),
  name: z.string(),
  createdByUserId: z.string(),
  createdDate: timestampOut,
});
export type Tag = z.infer<typeof TagOut>;

export const CreateTagRequest = message({
  name: z.string().trim().min(1, 'is required'),
  /** Outpost extension: the organization to create in (needed only by callers in several organizations). */
  organizationId: organizationIdExtensionIn,
});

export const tagOperations = {
  CreateTag: defineOperation({
    name: 'CreateTag',
    method: 'POST',
    path: '/api/v2/tags',
    input: 'body',
    tag: 'Tags',
    summary: 'Create a tag (the name must not exist yet)',
    request: CreateTagRequest,
    response: response({ tag: TagOut }),
  }),
  ListTags: defineOperation({
    name: 'ListTags',
    method: 'GET',
    path: '/api/v2/tags',
    input: 'query',
    tag: 'Tags',
    summary: 'List tags (default order created_date asc); tag_type is validated and has no effect (tags are shared by every type)',
    request: listRequest({ tagType: TagType.in.optional(), organizationId: organizationIdExtensionIn }),
    response: response({ tags: z.array(TagOut), nextPageToken: z.string() }),
  }),
} as const;
