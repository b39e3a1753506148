// Stored remote_files rows -> wire RemoteFiles (batch-loading metadata values).
import {
  EntityType,
  RemoteFileType,
  type EntityTypeName,
  type RemoteFile,
  type RemoteFileTypeName,
} from '../../../src-shared/api/remoteFiles';
import { formatOptionalTimestamp, formatTimestamp } from '../../../src-shared/api/time';
import { ApiError } from '../../../src-shared/errors';
import { visibleTo } from '../../auth/caller';
import { loadByPks, loadMetadata } from '../../db/childRows';
import type { Db } from '../../db/database';
import type { RequestContext } from '../../engine';

export interface RemoteFileRow {
  pk: number;
  id: string;
  organization_id: string;
  entity_id: string;
  entity_type: number;
  file_name: string;
  file_mime_type: string;
  file_content_encoding: string;
  storage_key: string;
  file_size: number;
  description: string | null;
  media_field: number | null;
  media_height: number | null;
  media_width: number | null;
  media_duration_seconds: number | null;
  media_timestamp: number | null;
  remote_file_type: number;
  content_path: string | null;
  created_by_user_id: string;
  modified_by_user_id: string;
  created_date: number;
  modified_date: number;
}

/** Field numbers of the members of RemoteFile's `metadata` oneof (the media info). */
export const MEDIA_FIELD = { video: 11, image: 12, audio: 17 } as const;

const entityTypeByNumber = new Map<number, EntityTypeName>(EntityType.names.map((n) => [EntityType.numbers[n], n]));
const fileTypeByNumber = new Map<number, RemoteFileTypeName>(RemoteFileType.names.map((n) => [RemoteFileType.numbers[n], n]));

export function toWire(rows: readonly RemoteFileRow[], db: Db): RemoteFile[] {
  const metadata = loadMetadata(
    db,
    'remote_file_metadata',
    'remote_file_pk',
    rows.map((r) => r.pk),
  );
  return rows.map((r) => {
    const f: RemoteFile = {
      remoteFileId: r.id,
      organizationId: r.organization_id,
      entityId: r.entity_id,
      entityType: entityTypeByNumber.get(r.entity_type) ?? 'ENTITY_TYPE_UNSPECIFIED',
      fileName: r.file_name,
      fileMimeType: r.file_mime_type,
      fileContentEncoding: r.file_content_encoding,
      storageKey: r.storage_key,
      fileSize: String(r.file_size),
      createdByUserId: r.created_by_user_id,
      modifiedByUserId: r.modified_by_user_id,
      createdDate: formatTimestamp(r.created_date),
      modifiedDate: formatTimestamp(r.modified_date),
      metadataValues: metadata.get(r.pk) ?? [],
      remoteFileType: fileTypeByNumber.get(r.remote_file_type) ?? 'REMOTE_FILE_TYPE_UNSPECIFIED',
    };
    // proto3 `optional` and oneof members are omitted when unset (reference §1.4).
    if (r.description !== null) f.description = r.description;
    if (r.media_field === MEDIA_FIELD.video) {
      f.videoMetadata = {
        height: r.media_height ?? 0,
        width: r.media_width ?? 0,
        durationSeconds: r.media_duration_seconds ?? 0,
        timestamp: formatOptionalTimestamp(r.media_timestamp),
      };
    } else if (r.media_field === MEDIA_FIELD.image) {
      f.imageMetadata = { height: r.media_height ?? 0, width: r.media_width ?? 0 };
    } else if (r.media_field === MEDIA_FIELD.audio) {
      f.audioMetadata = { durationSeconds: r.media_duration_seconds ?? 0, timestamp: formatOptionalTimestamp(r.media_timestamp) };
    }
    return f;
  });
}

export function loadRemoteFiles(db: Db, pks: readonly number[]): RemoteFile[] {
  return toWire(loadByPks<RemoteFileRow>(db, 'remote_files', pks), db);
}

/** The caller's remote file by id; another organization's file is NOT_FOUND. */
export function findVisibleRemoteFile(ctx: RequestContext, remoteFileId: string): RemoteFileRow {
  const scope = visibleTo(ctx.caller, 'organization_id');
  const row = ctx.db.get<RemoteFileRow>(`SELECT * FROM remote_files WHERE id = ? AND ${scope.sql}`, [remoteFileId, ...scope.params]);
  if (!row) throw ApiError.notFound('remote file', remoteFileId);
  return row;
}
