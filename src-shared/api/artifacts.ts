// Artifacts: files and structured (JSON) documents an engineer attaches to
// annotations, runs, assets, test reports or conversations. The platform has
// no public Artifact contract (reference §12): ListArtifacts follows the seed
// spec; every other operation is an Outpost extension (`extension: true`).
//
// Enums follow the protobuf style (type-prefixed value names on the wire,
// name or number on input). Inputs also accept the unprefixed value name
// (`ATTACHED_TO`), which is also how filters compare enums
// (`storage_class == STRUCTURED`, `l.entity_type == CONVERSATION`).
import { z } from 'zod';
import { listShape, organizationIdIn } from './common';
import { MetadataValueIn, MetadataValueOut } from './metadata';
import { binaryContent, defineOperation } from './operation';
import {
  boolIn,
  int64Out,
  message,
  nullableTimestampOut,
  outpostExtension,
  pageSizeIn,
  protoEnum,
  response,
  timestampOut,
  uint32In,
  type EnumDef,
} from './wire';

/**
 * A protoEnum whose input also accepts the value name without the type prefix.
 * `unprefixed` maps those short names to numbers (for filter declarations).
 */
function prefixedEnum<const N extends string>(typeName: string, prefix: string, values: Record<N, number>) {
  const def = protoEnum<N>(typeName, values);
  const withPrefix = (v: unknown) => (typeof v === 'string' && !v.startsWith(prefix) && Object.hasOwn(values, prefix + v) ? prefix + v : v);
  const unprefixed = Object.fromEntries(def.names.map((n) => [n.slice(prefix.length), values[n]])) as Readonly<Record<string, number>>;
  return { ...def, in: z.preprocess(withPrefix, def.in) as unknown as z.ZodType<N, unknown>, unprefixed } satisfies EnumDef<N> & {
    unprefixed: unknown;
  };
}

export const ArtifactStorageClass = prefixedEnum('ArtifactStorageClass', 'ARTIFACT_STORAGE_CLASS_', {
  ARTIFACT_STORAGE_CLASS_UNSPECIFIED: 0,
  /** Uploaded bytes, stored as a file under `<dataDir>/artifacts/`. */
  ARTIFACT_STORAGE_CLASS_FILE: 1,
  /** A JSON document created through the API (file_type `json`). */
  ARTIFACT_STORAGE_CLASS_STRUCTURED: 2,
});
export type ArtifactStorageClassName = (typeof ArtifactStorageClass.names)[number];

export const ArtifactCreatedVia = prefixedEnum('ArtifactCreatedVia', 'ARTIFACT_CREATED_VIA_', {
  ARTIFACT_CREATED_VIA_UNSPECIFIED: 0,
  ARTIFACT_CREATED_VIA_UPLOAD: 1,
  ARTIFACT_CREATED_VIA_CONVERSATION: 2,
  ARTIFACT_CREATED_VIA_API: 3,
});
export type ArtifactCreatedViaName = (typeof ArtifactCreatedVia.names)[number];

export const ArtifactLinkRelation = prefixedEnum('ArtifactLinkRelation', 'ARTIFACT_LINK_RELATION_', {
  ARTIFACT_LINK_RELATION_UNSPECIFIED: 0,
  ARTIFACT_LINK_RELATION_ATTACHED_TO: 1,
  ARTIFACT_LINK_RELATION_GENERATED_FROM: 2,
  ARTIFACT_LINK_RELATION_REFERENCES: 3,
});
export type ArtifactLinkRelationName = (typeof ArtifactLinkRelation.names)[number];

export const ArtifactEntityType = prefixedEnum('ArtifactEntityType', 'ARTIFACT_ENTITY_TYPE_', {
  ARTIFACT_ENTITY_TYPE_UNSPECIFIED: 0,
  ARTIFACT_ENTITY_TYPE_ANNOTATION: 1,
  ARTIFACT_ENTITY_TYPE_RUN: 2,
  ARTIFACT_ENTITY_TYPE_ASSET: 3,
  ARTIFACT_ENTITY_TYPE_TEST_REPORT: 4,
  /** Conversations are not a local resource (reference §12): any non-empty id is accepted. */
  ARTIFACT_ENTITY_TYPE_CONVERSATION: 5,
});
export type ArtifactEntityTypeName = (typeof ArtifactEntityType.names)[number];

// ---------------------------------------------------------------- requests

export const ArtifactLinkIn = message({
  relation: ArtifactLinkRelation.in,
  entityType: ArtifactEntityType.in,
  entityId: z.string().min(1, 'must not be empty'),
  /** Which version of the artifact the link concerns; default: the current version. */
  artifactVersionId: z.string().optional(),
});
export type ArtifactLinkInput = z.output<typeof ArtifactLinkIn>;

/**
 * A multipart text field holding JSON (metadata, links), or the value itself
 * when the request did not come through multipart (IPC).
 */
const jsonField = <T extends z.ZodType>(schema: T) =>
  z
    .unknown()
    .transform((v, ctx) => {
      if (typeof v !== 'string') return v;
      if (v.trim() === '') return [];
      try {
        return JSON.parse(v) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON array' });
        return z.NEVER;
      }
    })
    .pipe(schema);

/** The file part of a multipart request, as the router streamed it to a temporary file. */
export interface UploadedFileInput {
  readonly path: string;
  readonly fileName: string;
  readonly mimeType: string;
  readonly encoding: string;
  readonly size: number;
}

const isUploadedFile = (v: unknown): v is UploadedFileInput => {
  const f = v as Partial<UploadedFileInput> | null;
  return (
    typeof f === 'object' &&
    f !== null &&
    typeof f.path === 'string' &&
    typeof f.fileName === 'string' &&
    typeof f.mimeType === 'string' &&
    typeof f.size === 'number'
  );
};

/** Documented as the binary part it is on the wire. */
export const UploadedFileIn = z
  .custom<UploadedFileInput>(isUploadedFile, { error: 'is required: send the content as the multipart part named "file"' })
  .meta({ type: 'string', contentMediaType: 'application/octet-stream' } as never);

const linksIn = jsonField(z.array(ArtifactLinkIn).max(100, 'at most 100 links per request')).meta({
  type: 'string',
  description: 'JSON array of {relation, entityType, entityId, artifactVersionId?}',
} as never);
const metadataIn = jsonField(z.array(MetadataValueIn)).meta({ type: 'string', description: 'JSON array of MetadataValue' } as never);

export const UploadArtifactRequest = message({
  file: UploadedFileIn,
  /** Default: the uploaded file's name. */
  title: z.string().optional(),
  metadata: metadataIn.optional(),
  links: linksIn.optional(),
  organizationId: organizationIdIn,
  /** Default UPLOAD. */
  createdVia: ArtifactCreatedVia.in.optional(),
});
export type UploadArtifactInput = z.output<typeof UploadArtifactRequest>;

export const CreateStructuredArtifactRequest = message({
  title: z.string().min(1, 'must not be empty'),
  /** Any JSON value; stored as a JSON document. */
  content: z.unknown().refine((v) => v !== undefined, 'is required'),
  fileName: z.string().optional(),
  metadata: z.array(MetadataValueIn).optional(),
  links: z.array(ArtifactLinkIn).max(100, 'at most 100 links per request').optional(),
  organizationId: organizationIdIn,
  /** Default API. */
  createdVia: ArtifactCreatedVia.in.optional(),
});
export type CreateStructuredArtifactInput = z.output<typeof CreateStructuredArtifactRequest>;

// --------------------------------------------------------------- responses

export const ArtifactLinkOut = response({
  relation: ArtifactLinkRelation.out,
  entityType: ArtifactEntityType.out,
  entityId: z.string(),
  artifactVersionId: z.string(),
});
export type ArtifactLink = z.infer<typeof ArtifactLinkOut>;

export const ArtifactOut = response({
  artifactId: z.string(),
  organizationId: z.string(),
  createdByUserId: z.string(),
  title: z.string(),
  fileName: z.string(),
  /** Derived: lowercase extension, else MIME subtype; `image` for images; `json` for structured; `file` when nothing says. */
  fileType: z.string(),
  storageClass: ArtifactStorageClass.out,
  createdVia: ArtifactCreatedVia.out,
  version: z.number().int(),
  versionCreatedDate: timestampOut,
  artifactVersionId: z.string(),
  createdDate: timestampOut,
  modifiedDate: timestampOut,
  archivedDate: nullableTimestampOut,
  isArchived: z.boolean(),
  metadata: z.array(MetadataValueOut),
  links: z.array(ArtifactLinkOut),
  sizeBytes: int64Out,
  mimeType: z.string(),
  sha256: z.string(),
});
export type Artifact = z.infer<typeof ArtifactOut>;

export const ArtifactVersionOut = response({
  artifactVersionId: z.string(),
  artifactId: z.string(),
  version: z.number().int(),
  fileName: z.string(),
  fileType: z.string(),
  mimeType: z.string(),
  sizeBytes: int64Out,
  sha256: z.string(),
  createdDate: timestampOut,
  createdByUserId: z.string(),
});
export type ArtifactVersion = z.infer<typeof ArtifactVersionOut>;

const idPath = { artifactId: z.string().min(1, 'is required') };
const artifactOut = response({ artifact: ArtifactOut });
const linkBody = {
  ...idPath,
  relation: ArtifactLinkRelation.in,
  entityType: ArtifactEntityType.in,
  entityId: z.string().min(1, 'must not be empty'),
};
const TAG = 'Artifacts';

export const artifactOperations = {
  ListArtifacts: defineOperation({
    name: 'ListArtifacts',
    method: 'GET',
    path: '/api/v1/artifacts',
    input: 'query',
    tag: TAG,
    summary:
      'List artifacts (archived ones only with include_archived, in the filter or as a parameter, or an archived_date filter; conversationId scopes to one conversation)',
    request: message({
      ...listShape,
      // modified_date is not among the seed spec's order_by fields (the sync's incremental pull pages by it).
      orderBy: outpostExtension(z.string().optional(), 'the order_by field modified_date'),
      organizationId: organizationIdIn,
      conversationId: z.string().optional(),
      includeArchived: outpostExtension(boolIn.optional()),
    }),
    response: response({ artifacts: z.array(ArtifactOut), nextPageToken: z.string() }),
  }),
  UploadArtifact: defineOperation({
    name: 'UploadArtifact',
    method: 'POST',
    path: '/api/v1/artifacts:upload',
    input: 'multipart',
    tag: TAG,
    extension: true,
    summary: 'Upload a file as a new artifact (multipart: file, title, metadata JSON, links JSON)',
    request: UploadArtifactRequest,
    response: artifactOut,
  }),
  CreateStructuredArtifact: defineOperation({
    name: 'CreateStructuredArtifact',
    method: 'POST',
    path: '/api/v1/artifacts',
    input: 'body',
    tag: TAG,
    extension: true,
    summary: 'Create a structured (JSON) artifact',
    request: CreateStructuredArtifactRequest,
    response: artifactOut,
  }),
  GetArtifact: defineOperation({
    name: 'GetArtifact',
    method: 'GET',
    path: '/api/v1/artifacts/{artifact_id}',
    input: 'path',
    tag: TAG,
    extension: true,
    summary: "Get an artifact's metadata",
    request: message(idPath),
    response: artifactOut,
  }),
  DownloadArtifactContent: defineOperation({
    name: 'DownloadArtifactContent',
    method: 'GET',
    path: '/api/v1/artifacts/{artifact_id}/content',
    input: 'query',
    output: 'binary',
    tag: TAG,
    extension: true,
    summary: "Download an artifact's content (the current version, or `version`)",
    request: message({ ...idPath, version: uint32In.optional() }),
    response: binaryContent,
  }),
  CreateArtifactVersion: defineOperation({
    name: 'CreateArtifactVersion',
    method: 'POST',
    path: '/api/v1/artifacts/{artifact_id}/versions',
    input: 'multipart',
    tag: TAG,
    extension: true,
    summary: 'Upload new content for an artifact (version + 1)',
    request: message({ ...idPath, file: UploadedFileIn }),
    response: artifactOut,
  }),
  ListArtifactVersions: defineOperation({
    name: 'ListArtifactVersions',
    method: 'GET',
    path: '/api/v1/artifacts/{artifact_id}/versions',
    input: 'query',
    tag: TAG,
    extension: true,
    summary: 'List the versions of an artifact (newest first)',
    request: message({ ...idPath, pageSize: pageSizeIn.optional(), pageToken: z.string().optional() }),
    response: response({ artifactVersions: z.array(ArtifactVersionOut), nextPageToken: z.string() }),
  }),
  LinkArtifact: defineOperation({
    name: 'LinkArtifact',
    method: 'POST',
    path: '/api/v1/artifacts/{artifact_id}:link',
    input: 'body',
    tag: TAG,
    extension: true,
    summary: 'Link an artifact to an annotation, run, asset, test report or conversation (idempotent)',
    request: message({ ...linkBody, artifactVersionId: z.string().optional() }),
    response: artifactOut,
  }),
  UnlinkArtifact: defineOperation({
    name: 'UnlinkArtifact',
    method: 'POST',
    path: '/api/v1/artifacts/{artifact_id}:unlink',
    input: 'body',
    tag: TAG,
    extension: true,
    summary: 'Remove a link of an artifact',
    request: message(linkBody),
    response: artifactOut,
  }),
  ArchiveArtifact: defineOperation({
    name: 'ArchiveArtifact',
    method: 'POST',
    path: '/api/v1/artifacts/{artifact_id}:archive',
    input: 'body',
    tag: TAG,
    extension: true,
    summary: 'Archive an artifact',
    request: message(idPath),
    response: artifactOut,
  }),
  UnarchiveArtifact: defineOperation({
    name: 'UnarchiveArtifact',
    method: 'POST',
    path: '/api/v1/artifacts/{artifact_id}:unarchive',
    input: 'body',
    tag: TAG,
    extension: true,
    summary: 'Unarchive an artifact',
    request: message(idPath),
    response: artifactOut,
  }),
} as const;
