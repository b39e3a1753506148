// sift.channels.v3 (reference §11.5). The platform creates channels through
// data ingestion; CreateChannel is an Outpost extension so channels can be
// made locally (annotations link to them by id). Archiving a channel sets
// `active` to false.
import { z } from 'zod';
import { defineOperation } from './operation';
import { EmptyOut, listRequest, organizationIdExtensionIn } from './common';
import { MetadataValueIn, MetadataValueOut } from './metadata';
import { boolIn, fieldMaskIn, message, protoEnum, response, timestampOut } from './wire';

export const ChannelDataType = protoEnum('ChannelDataType', {
  CHANNEL_DATA_TYPE_UNSPECIFIED: 0,
  CHANNEL_DATA_TYPE_DOUBLE: 1,
  CHANNEL_DATA_TYPE_STRING: 2,
  CHANNEL_DATA_TYPE_ENUM: 3,
  CHANNEL_DATA_TYPE_BIT_FIELD: 4,
  CHANNEL_DATA_TYPE_BOOL: 5,
  CHANNEL_DATA_TYPE_FLOAT: 6,
  CHANNEL_DATA_TYPE_INT_32: 7,
  CHANNEL_DATA_TYPE_UINT_32: 8,
  CHANNEL_DATA_TYPE_INT_64: 9,
  CHANNEL_DATA_TYPE_UINT_64: 10,
  CHANNEL_DATA_TYPE_BYTES: 11,
});
export type ChannelDataTypeName = (typeof ChannelDataType.names)[number];

export const ChannelOut = response({
  channelId: z.string(),
  name: z.string(),
  assetId: z.string(),
  description: z.string(),
  unitId: z.string(),
  createdDate: timestampOut,
  modifiedDate: timestampOut,
  createdByUserId: z.string(),
  modifiedByUserId: z.string(),
  dataType: ChannelDataType.out,
  enumTypes: z.array(response({ name: z.string(), key: z.number().int(), isSigned: z.boolean() })),
  bitFieldElements: z.array(response({ name: z.string(), index: z.number().int(), bitCount: z.number().int() })),
  displayDescription: z.string(),
  displayUnitId: z.string(),
  metadata: z.array(MetadataValueOut),
  active: z.boolean(),
});
export type Channel = z.infer<typeof ChannelOut>;

const channelBody = { channel: ChannelOut };

export const CreateChannelRequest = message({
  assetId: z.string().min(1, 'is required'),
  name: z.string().min(1, 'is required'),
  description: z.string().optional(),
  unitId: z.string().optional(),
  dataType: ChannelDataType.in.optional(),
  displayDescription: z.string().optional(),
  displayUnitId: z.string().optional(),
});
export type CreateChannelInput = z.output<typeof CreateChannelRequest>;

/** The channel inside an UpdateChannelRequest: only mask-named fields are read. */
export const ChannelPatchIn = message({
  channelId: z.string().min(1, 'is required'),
  displayDescription: z.string().optional(),
  displayUnitId: z.string().optional(),
  metadata: z.array(MetadataValueIn).optional(),
  active: boolIn.optional(),
});
export type ChannelPatch = z.output<typeof ChannelPatchIn>;

/** At most this many channels per batch archive or unarchive (the platform's batch limit elsewhere). */
export const MAX_CHANNEL_BATCH = 1000;

const channelIdsIn = message({
  channelIds: z
    .array(z.string().min(1, 'must not be empty'))
    .min(1, 'at least one channel id is required')
    .max(MAX_CHANNEL_BATCH, `at most ${MAX_CHANNEL_BATCH} channel ids per call`),
});

export const channelOperations = {
  GetChannel: defineOperation({
    name: 'GetChannel',
    method: 'GET',
    path: '/api/v3/channels/{channel_id}',
    input: 'path',
    tag: 'Channels',
    summary: 'Get a channel',
    request: message({ channelId: z.string().min(1, 'is required') }),
    response: response(channelBody),
  }),
  ListChannels: defineOperation({
    name: 'ListChannels',
    method: 'GET',
    path: '/api/v3/channels',
    input: 'query',
    tag: 'Channels',
    summary: 'List channels (default order created_date asc, up to 10 000 per page)',
    request: listRequest({ organizationId: organizationIdExtensionIn }),
    response: response({ channels: z.array(ChannelOut), nextPageToken: z.string() }),
  }),
  CreateChannel: defineOperation({
    name: 'CreateChannel',
    method: 'POST',
    path: '/api/v3/channels',
    input: 'body',
    tag: 'Channels',
    extension: true,
    summary: 'Create a channel of an asset (Outpost extension: the platform creates channels during ingestion); name unique per asset',
    request: CreateChannelRequest,
    response: response(channelBody),
  }),
  UpdateChannel: defineOperation({
    name: 'UpdateChannel',
    method: 'PATCH',
    path: '/api/v3/channels',
    input: 'body',
    tag: 'Channels',
    summary:
      'Update the fields of a channel named by update_mask (display_description, display_unit_id or display_units, metadata, active)',
    request: message({ channel: ChannelPatchIn, updateMask: fieldMaskIn }),
    response: response(channelBody),
  }),
  BatchArchiveChannels: defineOperation({
    name: 'BatchArchiveChannels',
    method: 'POST',
    path: '/api/v3/channels:batchArchive',
    input: 'body',
    tag: 'Channels',
    summary: 'Archive channels (active = false); all or none',
    request: channelIdsIn,
    response: EmptyOut,
  }),
  BatchUnarchiveChannels: defineOperation({
    name: 'BatchUnarchiveChannels',
    method: 'POST',
    path: '/api/v3/channels:batchUnarchive',
    input: 'body',
    tag: 'Channels',
    summary: 'Unarchive channels (active = true); all or none',
    request: channelIdsIn,
    response: EmptyOut,
  }),
} as const;
