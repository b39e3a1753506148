// sift.assets.v1 (reference §11.1): the Asset resource and AssetService operations.
import { z } from 'zod';
import { defineOperation } from './operation';
import { EmptyOut, listRequest, organizationIdExtensionIn } from './common';
import { MetadataValueIn, MetadataValueOut } from './metadata';
import { boolIn, fieldMaskIn, message, nullableTimestampOut, response, timestampIn, timestampOut } from './wire';

export const AssetOut = response({
  assetId: z.string(),
  name: z.string(),
  organizationId: z.string(),
  createdDate: timestampOut,
  createdByUserId: z.string(),
  modifiedDate: timestampOut,
  modifiedByUserId: z.string(),
  tags: z.array(z.string()),
  metadata: z.array(MetadataValueOut),
  // A plain (not proto3 `optional`) Timestamp: `null` when unset.
  archivedDate: nullableTimestampOut,
  isArchived: z.boolean(),
});
export type Asset = z.infer<typeof AssetOut>;

const assetBody = { asset: AssetOut };
const idPath = { assetId: z.string().min(1, 'is required') };

export const CreateAssetRequest = message({
  name: z.string().min(1, 'is required'),
  tags: z.array(z.string()).optional(),
  metadata: z.array(MetadataValueIn).optional(),
  /** Outpost extension: the organization to create in (needed only by callers in several organizations). */
  organizationId: organizationIdExtensionIn,
});
export type CreateAssetInput = z.output<typeof CreateAssetRequest>;

/** The asset inside an UpdateAssetRequest: only mask-named fields are read. */
export const AssetPatchIn = message({
  assetId: z.string().min(1, 'is required'),
  tags: z.array(z.string()).optional(),
  metadata: z.array(MetadataValueIn).optional(),
  archivedDate: timestampIn.optional(),
  isArchived: boolIn.optional(),
});
export type AssetPatch = z.output<typeof AssetPatchIn>;

// archive_runs comes from the query string (the archive rule has no body).
const archiveRequest = message({ ...idPath, archiveRuns: boolIn.optional() });

export const assetOperations = {
  GetAsset: defineOperation({
    name: 'GetAsset',
    method: 'GET',
    path: '/api/v1/assets/{asset_id}',
    input: 'path',
    tag: 'Assets',
    summary: 'Get an asset',
    request: message(idPath),
    response: response(assetBody),
  }),
  ListAssets: defineOperation({
    name: 'ListAssets',
    method: 'GET',
    path: '/api/v1/assets',
    input: 'query',
    tag: 'Assets',
    summary: 'List assets (default order created_date desc)',
    request: listRequest({ organizationId: organizationIdExtensionIn }),
    response: response({ assets: z.array(AssetOut), nextPageToken: z.string() }),
  }),
  CreateAsset: defineOperation({
    name: 'CreateAsset',
    method: 'POST',
    path: '/api/v1/assets',
    input: 'body',
    tag: 'Assets',
    summary: 'Create an asset (name unique within the organization)',
    request: CreateAssetRequest,
    response: response(assetBody),
  }),
  UpdateAsset: defineOperation({
    name: 'UpdateAsset',
    method: 'PATCH',
    path: '/api/v1/assets',
    input: 'body',
    tag: 'Assets',
    summary: 'Update the fields of an asset named by update_mask (tags, metadata, archived_date, is_archived)',
    request: message({ asset: AssetPatchIn, updateMask: fieldMaskIn }),
    response: response(assetBody),
  }),
  ArchiveAsset: defineOperation({
    name: 'ArchiveAsset',
    method: 'POST',
    path: '/api/v1/assets/{asset_id}/archive',
    input: 'query',
    tag: 'Assets',
    summary: 'Archive an asset, and with archive_runs=true its runs',
    request: archiveRequest,
    response: response({ archivedRunIds: z.array(z.string()) }),
  }),
  DeleteAsset: defineOperation({
    name: 'DeleteAsset',
    method: 'DELETE',
    path: '/api/v1/assets/{asset_id}',
    input: 'query',
    tag: 'Assets',
    summary: 'Delete (archive) an asset (deprecated; archives)',
    request: archiveRequest,
    response: EmptyOut,
  }),
} as const;
