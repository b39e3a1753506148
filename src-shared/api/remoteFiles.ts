// sift.remote_files.v1 (reference §10): the RemoteFile resource, its companions
// (§10.2), the REST multipart upload the real clients use (§10.3) and one
// Outpost extension that serves the bytes behind a download URL.
import { z } from 'zod';
import { binaryContent, defineOperation } from './operation';
import { EmptyOut, listRequest, organizationIdIn } from './common';
import { MetadataValueIn, MetadataValueOut } from './metadata';
import {
  doubleIn,
  fieldMaskIn,
  int64In,
  int64Out,
  message,
  nullableTimestampOut,
  protoEnum,
  response,
  timestampIn,
  timestampOut,
  uint32In,
} from './wire';

export const EntityType = protoEnum('EntityType', {
  ENTITY_TYPE_UNSPECIFIED: 0,
  ENTITY_TYPE_RUN: 1,
  ENTITY_TYPE_ANNOTATION: 2,
  ENTITY_TYPE_ASSET: 3,
  ENTITY_TYPE_ANNOTATION_LOG: 4,
  ENTITY_TYPE_TEST_REPORT: 5,
  ENTITY_TYPE_TEST_STEP: 6,
  ENTITY_TYPE_CANVAS_VERSION: 7,
});
export type EntityTypeName = (typeof EntityType.names)[number];

export const RemoteFileType = protoEnum('RemoteFileType', {
  REMOTE_FILE_TYPE_UNSPECIFIED: 0,
  REMOTE_FILE_TYPE_TELEMETRY: 1,
  REMOTE_FILE_TYPE_IMAGE: 2,
  REMOTE_FILE_TYPE_VIDEO: 3,
  REMOTE_FILE_TYPE_AUDIO: 4,
  REMOTE_FILE_TYPE_TEST_REPORT: 5,
});
export type RemoteFileTypeName = (typeof RemoteFileType.names)[number];

/**
 * The multipart `entityType` form field is a plural snake_case collection name
 * (`runs`, `test_reports`, ...; reference §10.3), not the enum.
 */
export const ENTITY_TYPE_BY_FORM_NAME: Readonly<Record<string, EntityTypeName>> = {
  runs: 'ENTITY_TYPE_RUN',
  annotations: 'ENTITY_TYPE_ANNOTATION',
  assets: 'ENTITY_TYPE_ASSET',
  annotation_logs: 'ENTITY_TYPE_ANNOTATION_LOG',
  test_reports: 'ENTITY_TYPE_TEST_REPORT',
  test_steps: 'ENTITY_TYPE_TEST_STEP',
  canvas_versions: 'ENTITY_TYPE_CANVAS_VERSION',
};

// --- media metadata (the oneof named `metadata`) ---------------------------------------------------

export const VideoMetadataIn = message({
  height: uint32In.optional(),
  width: uint32In.optional(),
  durationSeconds: doubleIn.optional(),
  timestamp: timestampIn.optional(),
});
export const ImageMetadataIn = message({ height: uint32In.optional(), width: uint32In.optional() });
export const AudioMetadataIn = message({ durationSeconds: doubleIn.optional(), timestamp: timestampIn.optional() });
export type VideoMetadataInput = z.output<typeof VideoMetadataIn>;
export type ImageMetadataInput = z.output<typeof ImageMetadataIn>;
export type AudioMetadataInput = z.output<typeof AudioMetadataIn>;

export const VideoMetadataOut = response({
  height: z.number().int(),
  width: z.number().int(),
  durationSeconds: z.number(),
  timestamp: nullableTimestampOut,
});
export const ImageMetadataOut = response({ height: z.number().int(), width: z.number().int() });
export const AudioMetadataOut = response({ durationSeconds: z.number(), timestamp: nullableTimestampOut });

const mediaShape = {
  videoMetadata: VideoMetadataIn.optional(),
  imageMetadata: ImageMetadataIn.optional(),
  audioMetadata: AudioMetadataIn.optional(),
};

function atMostOneMedia(v: { videoMetadata?: unknown; imageMetadata?: unknown; audioMetadata?: unknown }, ctx: z.RefinementCtx): void {
  const set = (['videoMetadata', 'imageMetadata', 'audioMetadata'] as const).filter((k) => v[k] !== undefined);
  if (set.length > 1) ctx.addIssue({ code: 'custom', message: `only one of ${set.join(', ')} may be set (oneof metadata)` });
}

// --- the resource ----------------------------------------------------------------------------------

export const RemoteFileOut = response({
  remoteFileId: z.string(),
  organizationId: z.string(),
  entityId: z.string(),
  entityType: EntityType.out,
  fileName: z.string(),
  fileMimeType: z.string(),
  fileContentEncoding: z.string(),
  storageKey: z.string(),
  /** uint64: a decimal string. */
  fileSize: int64Out,
  /** proto3 `optional`: omitted when unset. */
  description: z.string().optional(),
  videoMetadata: VideoMetadataOut.optional(),
  imageMetadata: ImageMetadataOut.optional(),
  audioMetadata: AudioMetadataOut.optional(),
  createdByUserId: z.string(),
  modifiedByUserId: z.string(),
  createdDate: timestampOut,
  modifiedDate: timestampOut,
  metadataValues: z.array(MetadataValueOut),
  remoteFileType: RemoteFileType.out,
});
export type RemoteFile = z.infer<typeof RemoteFileOut>;

const remoteFileBody = { remoteFile: RemoteFileOut };
const idPath = { remoteFileId: z.string().min(1, 'is required') };

export const CreateRemoteFileRequest = message({
  fileName: z.string().min(1, 'is required'),
  entityId: z.string().min(1, 'is required'),
  entityType: EntityType.in,
  fileMimeType: z.string().min(1, 'is required'),
  fileContentEncoding: z.string().optional(),
  fileSize: int64In.pipe(z.number().min(0, 'must not be negative')),
  description: z.string().optional(),
  organizationId: organizationIdIn,
  ...mediaShape,
  customUuid: z.string().optional(),
  metadataValues: z.array(MetadataValueIn).optional(),
}).superRefine(atMostOneMedia);
export type CreateRemoteFileInput = z.output<typeof CreateRemoteFileRequest>;

/** The file part of a multipart upload as the HTTP adapter hands it over (a temp file). */
export const UploadedFileIn = z.object({
  path: z.string(),
  fileName: z.string(),
  mimeType: z.string(),
  encoding: z.string(),
  size: z.number(),
});

/** `POST /api/v0/remote-files/upload` form fields (reference §10.3); every field is text. */
export const UploadRemoteFileRequest = message({
  entityId: z.string().min(1, 'is required'),
  /** Plural snake_case (`runs`, `test_reports`, ...); enum names and numbers are accepted too. */
  entityType: z.string().min(1, 'is required'),
  /** JSON text: image/video/audio metadata with snake_case keys. */
  metadata: z.string().optional(),
  organizationId: organizationIdIn,
  description: z.string().optional(),
  file: UploadedFileIn,
});
export type UploadRemoteFileInput = z.output<typeof UploadRemoteFileRequest>;

/** The remote file inside an UpdateRemoteFileRequest: only mask-named fields are read. */
export const RemoteFilePatchIn = message({
  remoteFileId: z.string().min(1, 'is required'),
  description: z.string().optional(),
  ...mediaShape,
  metadataValues: z.array(MetadataValueIn).optional(),
}).superRefine(atMostOneMedia);
export type RemoteFilePatch = z.output<typeof RemoteFilePatchIn>;

export const remoteFileOperations = {
  UploadRemoteFile: defineOperation({
    name: 'UploadRemoteFile',
    method: 'POST',
    path: '/api/v0/remote-files/upload',
    input: 'multipart',
    tag: 'Remote files',
    summary: 'Upload a file (multipart/form-data: entityId, entityType, file, metadata, organizationId, description)',
    request: UploadRemoteFileRequest,
    response: response(remoteFileBody),
  }),
  GetRemoteFile: defineOperation({
    name: 'GetRemoteFile',
    method: 'GET',
    path: '/api/v1/remote-files/{remote_file_id}',
    input: 'path',
    tag: 'Remote files',
    summary: 'Get a remote file',
    request: message(idPath),
    response: response(remoteFileBody),
  }),
  CreateRemoteFile: defineOperation({
    name: 'CreateRemoteFile',
    method: 'POST',
    path: '/api/v1/remote-files',
    input: 'body',
    tag: 'Remote files',
    summary: 'Record a remote file (no bytes are uploaded)',
    request: CreateRemoteFileRequest,
    response: response(remoteFileBody),
  }),
  ListRemoteFiles: defineOperation({
    name: 'ListRemoteFiles',
    method: 'GET',
    path: '/api/v1/remote-files',
    input: 'query',
    tag: 'Remote files',
    summary: 'List remote files (CEL filter, AIP-132 order_by, keyset paging)',
    request: listRequest({ organizationId: organizationIdIn }),
    response: response({ remoteFiles: z.array(RemoteFileOut), nextPageToken: z.string() }),
  }),
  UpdateRemoteFile: defineOperation({
    name: 'UpdateRemoteFile',
    method: 'PATCH',
    path: '/api/v1/remote-files',
    input: 'body',
    tag: 'Remote files',
    summary: 'Update the description, media metadata or metadata values of a remote file',
    request: message({ remoteFile: RemoteFilePatchIn, updateMask: fieldMaskIn }),
    response: response(remoteFileBody),
  }),
  DeleteRemoteFile: defineOperation({
    name: 'DeleteRemoteFile',
    method: 'DELETE',
    path: '/api/v1/remote-files/{remote_file_id}',
    input: 'path',
    tag: 'Remote files',
    summary: 'Delete a remote file and its content',
    request: message(idPath),
    response: EmptyOut,
  }),
  BatchDeleteRemoteFiles: defineOperation({
    name: 'BatchDeleteRemoteFiles',
    method: 'POST',
    path: '/api/v1/remote-files:batchDelete',
    input: 'body',
    tag: 'Remote files',
    summary: 'Delete up to 1000 remote files atomically',
    request: message({ remoteFileIds: z.array(z.string()).max(1000, 'at most 1000 ids per batch') }),
    response: EmptyOut,
  }),
  GetRemoteFileDownloadUrl: defineOperation({
    name: 'GetRemoteFileDownloadUrl',
    method: 'GET',
    path: '/api/v1/remote-files/{remote_file_id}/download-url',
    input: 'path',
    tag: 'Remote files',
    summary: 'Get a signed, expiring download URL for the content of a remote file',
    request: message(idPath),
    response: response({ downloadUrl: z.string() }),
  }),
  GetRemoteFileContent: defineOperation({
    name: 'GetRemoteFileContent',
    method: 'GET',
    path: '/api/v1/remote-files/{remote_file_id}/content',
    input: 'query',
    output: 'binary',
    tag: 'Remote files',
    extension: true,
    public: true,
    summary: 'The bytes of a remote file (the target of GetRemoteFileDownloadUrl; authorized by its expires + signature query parameters)',
    request: message({ ...idPath, expires: z.string().optional(), signature: z.string().optional() }),
    response: binaryContent,
  }),
} as const;
