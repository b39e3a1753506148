// Remote files: the multipart upload (bytes moved into the content store),
// records without bytes, get/list/update, hard delete (row and content) and
// signed download URLs. Validation happens before anything is written; the
// row is written in one transaction and the content file is removed again if
// that transaction fails.
import { randomUUID } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import {
  AudioMetadataIn,
  ENTITY_TYPE_BY_FORM_NAME,
  EntityType,
  ImageMetadataIn,
  RemoteFileType,
  VideoMetadataIn,
  type AudioMetadataInput,
  type CreateRemoteFileInput,
  type EntityTypeName,
  type ImageMetadataInput,
  type RemoteFile,
  type RemoteFilePatch,
  type RemoteFileTypeName,
  type UploadRemoteFileInput,
  type VideoMetadataInput,
} from '../../../src-shared/api/remoteFiles';
import type { MetadataValueInput } from '../../../src-shared/api/metadata';
import { nowMicros } from '../../../src-shared/api/time';
import { camelToSnake } from '../../../src-shared/api/wire';
import { ApiError } from '../../../src-shared/errors';
import { resolveOrganization, visibleTo } from '../../auth/caller';
import type { RequestContext } from '../../engine';
import { listPage, type ListParams } from '../../filter/listQuery';
import type { BinaryResult } from '../common/handler';
import {
  DOWNLOAD_URL_TTL_SECONDS,
  checkContentSignature,
  contentFilePath,
  removeContent,
  signedContentPath,
  storeUploadedFile,
} from './contentStore';
import { remoteFileListSpec } from './remoteFileListSpec';
import { deleteRemoteFileRows, insertRemoteFileRow, replaceRemoteFileMetadata, setRemoteFileColumns } from './remoteFileStore';
import { MEDIA_FIELD, findVisibleRemoteFile, loadRemoteFiles, type RemoteFileRow } from './remoteFileRows';

export const MAX_BATCH = 1000;

/** The set member of the `metadata` oneof, flattened to the stored columns. */
interface Media {
  field: number;
  height: number | null;
  width: number | null;
  durationSeconds: number | null;
  timestamp: number | null;
}

function mediaOf(v: {
  videoMetadata?: VideoMetadataInput;
  imageMetadata?: ImageMetadataInput;
  audioMetadata?: AudioMetadataInput;
}): Media | null {
  if (v.videoMetadata) {
    const m = v.videoMetadata;
    return {
      field: MEDIA_FIELD.video,
      height: m.height ?? null,
      width: m.width ?? null,
      durationSeconds: m.durationSeconds ?? null,
      timestamp: m.timestamp ?? null,
    };
  }
  if (v.imageMetadata)
    return {
      field: MEDIA_FIELD.image,
      height: v.imageMetadata.height ?? null,
      width: v.imageMetadata.width ?? null,
      durationSeconds: null,
      timestamp: null,
    };
  if (v.audioMetadata) {
    const m = v.audioMetadata;
    return {
      field: MEDIA_FIELD.audio,
      height: null,
      width: null,
      durationSeconds: m.durationSeconds ?? null,
      timestamp: m.timestamp ?? null,
    };
  }
  return null;
}

/** remote_file_type follows the content: media MIME types first, then test-report uploads (entity or .xml). */
export function deriveRemoteFileType(mimeType: string, entityType: EntityTypeName, fileName: string): RemoteFileTypeName {
  const mime = mimeType.toLowerCase();
  if (mime.startsWith('image/')) return 'REMOTE_FILE_TYPE_IMAGE';
  if (mime.startsWith('video/')) return 'REMOTE_FILE_TYPE_VIDEO';
  if (mime.startsWith('audio/')) return 'REMOTE_FILE_TYPE_AUDIO';
  if (entityType === 'ENTITY_TYPE_TEST_REPORT' || extname(fileName).toLowerCase() === '.xml') return 'REMOTE_FILE_TYPE_TEST_REPORT';
  return 'REMOTE_FILE_TYPE_UNSPECIFIED';
}

/** The upload's `entityType` form field: plural snake_case (`test_reports`), or the enum name / number. */
export function entityTypeFromForm(text: string): EntityTypeName {
  const t = text.trim();
  const byName = ENTITY_TYPE_BY_FORM_NAME[t.toLowerCase()];
  if (byName) return byName;
  const parsed = EntityType.in.safeParse(/^\d+$/.test(t) ? Number(t) : t);
  if (parsed.success && parsed.data !== 'ENTITY_TYPE_UNSPECIFIED') return parsed.data;
  throw ApiError.invalid(
    'entity_type',
    `unknown entity type '${text}'; expected one of ${Object.keys(ENTITY_TYPE_BY_FORM_NAME).join(', ')}`,
  );
}

/**
 * The upload's `metadata` form field: JSON with snake_case keys. Which oneof
 * member it is follows the MIME type (image/video/audio), else its keys.
 */
export function mediaFromForm(text: string | undefined, mimeType: string): Media | null {
  if (text === undefined || text.trim() === '') return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw ApiError.invalid('metadata', `malformed JSON: ${(e as Error).message}`);
  }
  if (json === null) return null;
  if (typeof json !== 'object' || Array.isArray(json)) throw ApiError.invalid('metadata', 'must be a JSON object');
  const keys = Object.keys(json).filter((k) => (json as Record<string, unknown>)[k] !== null);
  if (keys.length === 0) return null;
  const mime = mimeType.toLowerCase();
  const hasSize = keys.some((k) => k === 'height' || k === 'width');
  const hasTime = keys.some((k) => ['duration_seconds', 'durationSeconds', 'timestamp'].includes(k));
  const kind = mime.startsWith('image/')
    ? 'image'
    : mime.startsWith('video/')
      ? 'video'
      : mime.startsWith('audio/')
        ? 'audio'
        : hasSize && hasTime
          ? 'video'
          : hasSize
            ? 'image'
            : 'audio';
  const schema = kind === 'image' ? ImageMetadataIn : kind === 'video' ? VideoMetadataIn : AudioMetadataIn;
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue.path.map((p) => camelToSnake(String(p))).join('.');
    throw ApiError.invalid('metadata', `${path ? `${path}: ` : ''}${issue.message}`);
  }
  const key = kind === 'image' ? 'imageMetadata' : kind === 'video' ? 'videoMetadata' : 'audioMetadata';
  return mediaOf({ [key]: parsed.data });
}

interface NewRemoteFile {
  organizationId: string;
  entityId: string;
  entityType: EntityTypeName;
  fileName: string;
  mimeType: string;
  encoding: string;
  size: number;
  description: string | undefined;
  media: Media | null;
  metadataValues: readonly MetadataValueInput[];
  contentPath: string | null;
  storageKeySeed: string;
}

function insertRemoteFile(ctx: RequestContext, id: string, f: NewRemoteFile): RemoteFile {
  const { db, caller } = ctx;
  return db.tx(() => {
    const now = nowMicros();
    const pk = insertRemoteFileRow(db, {
      id,
      organization_id: f.organizationId,
      entity_id: f.entityId,
      entity_type: EntityType.numbers[f.entityType],
      file_name: f.fileName,
      file_mime_type: f.mimeType,
      file_content_encoding: f.encoding,
      storage_key: `${f.organizationId}/${f.storageKeySeed}/${f.fileName}`,
      file_size: f.size,
      description: f.description ?? null,
      media_field: f.media?.field ?? null,
      media_height: f.media?.height ?? null,
      media_width: f.media?.width ?? null,
      media_duration_seconds: f.media?.durationSeconds ?? null,
      media_timestamp: f.media?.timestamp ?? null,
      remote_file_type: RemoteFileType.numbers[deriveRemoteFileType(f.mimeType, f.entityType, f.fileName)],
      content_path: f.contentPath,
      created_by_user_id: caller.userId,
      modified_by_user_id: caller.userId,
      created_date: now,
      modified_date: now,
    });
    replaceRemoteFileMetadata(db, pk, f.metadataValues, 'metadata_values');
    return loadRemoteFiles(db, [pk])[0];
  });
}

export function uploadRemoteFile(ctx: RequestContext, req: UploadRemoteFileInput): { remoteFile: RemoteFile } {
  const organizationId = resolveOrganization(ctx.caller, req.organizationId);
  const entityType = entityTypeFromForm(req.entityType);
  const fileName = req.file.fileName.trim();
  if (fileName === '') throw ApiError.invalid('file', 'the file part needs a file name');
  const media = mediaFromForm(req.metadata, req.file.mimeType);
  const id = randomUUID();
  const contentPath = storeUploadedFile(ctx.engine.dataDir, req.file.path, id);
  try {
    const size = statSync(contentFilePath(ctx.engine.dataDir, contentPath)).size;
    const remoteFile = insertRemoteFile(ctx, id, {
      organizationId,
      entityId: req.entityId,
      entityType,
      fileName,
      mimeType: req.file.mimeType,
      encoding: req.file.encoding,
      size,
      description: req.description,
      media,
      metadataValues: [],
      contentPath,
      storageKeySeed: id,
    });
    return { remoteFile };
  } catch (e) {
    removeContent(ctx.engine.dataDir, contentPath);
    throw e;
  }
}

export function createRemoteFile(ctx: RequestContext, req: CreateRemoteFileInput): { remoteFile: RemoteFile } {
  const organizationId = resolveOrganization(ctx.caller, req.organizationId);
  if (req.entityType === 'ENTITY_TYPE_UNSPECIFIED') throw ApiError.invalid('entity_type', 'must be set');
  if (req.customUuid !== undefined && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(req.customUuid)) {
    throw ApiError.invalid('custom_uuid', 'must be a UUID');
  }
  const id = randomUUID();
  const remoteFile = insertRemoteFile(ctx, id, {
    organizationId,
    entityId: req.entityId,
    entityType: req.entityType,
    fileName: req.fileName,
    mimeType: req.fileMimeType,
    encoding: req.fileContentEncoding ?? '',
    size: req.fileSize,
    description: req.description,
    media: mediaOf(req),
    metadataValues: req.metadataValues ?? [],
    contentPath: null,
    storageKeySeed: req.customUuid ?? id,
  });
  return { remoteFile };
}

export function getRemoteFile(ctx: RequestContext, remoteFileId: string): { remoteFile: RemoteFile } {
  return { remoteFile: loadRemoteFiles(ctx.db, [findVisibleRemoteFile(ctx, remoteFileId).pk])[0] };
}

export function listRemoteFiles(ctx: RequestContext, req: ListParams & { organizationId?: string }) {
  const organizationId = resolveOrganization(ctx.caller, req.organizationId);
  const page = listPage(
    ctx.db,
    remoteFileListSpec,
    req,
    { sql: 't.organization_id = ?', params: [organizationId], fingerprint: [organizationId], gate: ctx.rowGate },
    ctx.engine.pageTokenSecret,
  );
  return { remoteFiles: loadRemoteFiles(ctx.db, page.keys), nextPageToken: page.nextPageToken };
}

/**
 * update_mask paths (reference §10.2): `description`, `metadata_values`, and
 * `metadata` = the media oneof (also accepted by member name); the set member
 * replaces the media info, none set clears it.
 */
const UPDATABLE = new Set(['description', 'metadata_values', 'metadata', 'video_metadata', 'image_metadata', 'audio_metadata']);
const IMMUTABLE = new Set([
  'remote_file_id',
  'organization_id',
  'entity_id',
  'entity_type',
  'file_name',
  'file_mime_type',
  'file_content_encoding',
  'storage_key',
  'file_size',
  'created_by_user_id',
  'modified_by_user_id',
  'created_date',
  'modified_date',
  'remote_file_type',
]);

export function updateRemoteFile(ctx: RequestContext, patch: RemoteFilePatch, mask: readonly string[]): { remoteFile: RemoteFile } {
  if (mask.length === 0) throw ApiError.invalid('update_mask', 'is required: name the fields to update');
  for (const p of mask) {
    if (IMMUTABLE.has(p)) throw ApiError.invalid('update_mask', `field '${p}' cannot be updated`);
    if (!UPDATABLE.has(p))
      throw ApiError.invalid('update_mask', `unknown field '${p}'; updatable fields: description, metadata_values, metadata`);
  }
  const has = (p: string) => mask.includes(p);
  const { db, caller } = ctx;
  return db.tx(() => {
    const row = findVisibleRemoteFile(ctx, patch.remoteFileId);
    const now = nowMicros();
    if (has('description')) setRemoteFileColumns(db, row.pk, { description: patch.description ?? null });
    if (['metadata', 'video_metadata', 'image_metadata', 'audio_metadata'].some(has)) {
      const m = mediaOf(patch);
      setRemoteFileColumns(db, row.pk, {
        media_field: m?.field ?? null,
        media_height: m?.height ?? null,
        media_width: m?.width ?? null,
        media_duration_seconds: m?.durationSeconds ?? null,
        media_timestamp: m?.timestamp ?? null,
      });
    }
    if (has('metadata_values')) replaceRemoteFileMetadata(db, row.pk, patch.metadataValues ?? [], 'remote_file.metadata_values');
    setRemoteFileColumns(db, row.pk, { modified_date: now, modified_by_user_id: caller.userId });
    return { remoteFile: loadRemoteFiles(db, [row.pk])[0] };
  });
}

/** Hard delete: all ids must be visible (else NOT_FOUND naming the missing ones); content files go after the commit. */
export function deleteRemoteFiles(ctx: RequestContext, ids: readonly string[]): void {
  if (ids.length > MAX_BATCH) throw ApiError.invalid('remote_file_ids', `at most ${MAX_BATCH} ids per batch`);
  const unique = [...new Set(ids)];
  const rows = ctx.db.tx(() => {
    const scope = visibleTo(ctx.caller, 'organization_id');
    const found = ctx.db.all<RemoteFileRow>(`SELECT * FROM remote_files WHERE id IN (SELECT value FROM json_each(?)) AND ${scope.sql}`, [
      JSON.stringify(unique),
      ...scope.params,
    ]);
    const foundIds = new Set(found.map((r) => r.id));
    const missing = unique.filter((id) => !foundIds.has(id));
    if (missing.length) throw ApiError.notFound('remote file', missing.join(', '));
    deleteRemoteFileRows(
      ctx.db,
      found.map((r) => r.pk),
    );
    return found;
  });
  for (const r of rows) removeContent(ctx.engine.dataDir, r.content_path);
}

function requireContent(ctx: RequestContext, row: RemoteFileRow): string {
  if (!row.content_path)
    throw ApiError.failedPrecondition(`remote file ${row.id} has no uploaded content (it was recorded with CreateRemoteFile)`);
  const path = contentFilePath(ctx.engine.dataDir, row.content_path);
  if (!existsSync(path)) throw ApiError.failedPrecondition(`the content of remote file ${row.id} is missing from the data directory`);
  return path;
}

/** A URL path (relative to the API origin) that serves the bytes for DOWNLOAD_URL_TTL_SECONDS without an API key. */
export function getRemoteFileDownloadUrl(ctx: RequestContext, remoteFileId: string): { downloadUrl: string } {
  const row = findVisibleRemoteFile(ctx, remoteFileId);
  requireContent(ctx, row);
  const expires = Math.floor(Date.now() / 1000) + DOWNLOAD_URL_TTL_SECONDS;
  // Absolute when the request came over HTTP (clients such as Python's requests need one).
  return { downloadUrl: (ctx.origin ?? '') + signedContentPath(ctx.engine.pageTokenSecret, row.id, expires) };
}

/**
 * The bytes behind a download URL. Authorized by the URL's signature; a caller
 * that reached the operation already authenticated (IPC) may omit it.
 */
export function getRemoteFileContent(
  ctx: RequestContext,
  req: { remoteFileId: string; expires?: string; signature?: string },
): BinaryResult {
  let row: RemoteFileRow | undefined;
  if (req.signature === undefined && req.expires === undefined && ctx.caller.organizations.length > 0) {
    row = findVisibleRemoteFile(ctx, req.remoteFileId);
  } else {
    const check = checkContentSignature(
      ctx.engine.pageTokenSecret,
      req.remoteFileId,
      req.expires,
      req.signature,
      Math.floor(Date.now() / 1000),
    );
    if (check === 'expired')
      throw ApiError.permissionDenied('the download URL has expired; request a new one with GetRemoteFileDownloadUrl');
    if (check === 'invalid') throw ApiError.permissionDenied('invalid download URL signature');
    row = ctx.db.get<RemoteFileRow>('SELECT * FROM remote_files WHERE id = ?', [req.remoteFileId]);
    if (!row) throw ApiError.notFound('remote file', req.remoteFileId);
  }
  const path = requireContent(ctx, row);
  return {
    contentType: row.file_mime_type || 'application/octet-stream',
    fileName: row.file_name,
    body: createReadStream(path),
    size: statSync(path).size,
  };
}
