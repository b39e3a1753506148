// The `remote_files` rows (and their metadata) are written here and nowhere
// else: by the API's services (upload, update, delete) and by sync (the id
// the remote gave an upload made offline). Values are as stored.
import type { MetadataValueInput } from '../../../src-shared/api/metadata';
import { replaceMetadata } from '../../db/childRows';
import type { Db, SqlValue } from '../../db/database';
import { recordTable } from '../../db/recordTable';

const COLUMN_NAMES = [
  'id',
  'organization_id',
  'entity_id',
  'entity_type',
  'file_name',
  'file_mime_type',
  'file_content_encoding',
  'storage_key',
  'file_size',
  'description',
  'media_field',
  'media_height',
  'media_width',
  'media_duration_seconds',
  'media_timestamp',
  'remote_file_type',
  'content_path',
  'created_by_user_id',
  'modified_by_user_id',
  'created_date',
  'modified_date',
] as const;
type RemoteFileColumn = (typeof COLUMN_NAMES)[number];

/** A whole remote-file row as stored (its pk aside). */
export type RemoteFileRowValues = Readonly<Record<RemoteFileColumn, SqlValue>>;

/** Inserts a remote file; returns its pk. */
export function insertRemoteFileRow(db: Db, row: RemoteFileRowValues): number {
  return Number(
    db.run(
      `INSERT INTO remote_files(${COLUMN_NAMES.join(', ')}) VALUES (${COLUMN_NAMES.map(() => '?').join(', ')})`,
      COLUMN_NAMES.map((c) => row[c]),
    ).lastInsertRowid,
  );
}

export function setRemoteFileColumns(
  db: Db,
  pk: number,
  values: Readonly<Partial<Record<Exclude<RemoteFileColumn, 'id' | 'organization_id'>, SqlValue>>>,
): void {
  const columns = (Object.keys(values) as (keyof typeof values)[]).filter((c) => values[c] !== undefined);
  if (columns.length)
    db.run(`UPDATE remote_files SET ${columns.map((c) => `${c} = ?`).join(', ')} WHERE pk = ?`, [
      ...columns.map((c) => values[c] as SqlValue),
      pk,
    ]);
}

/** Duplicate keys are refused, naming `field`. */
export const replaceRemoteFileMetadata = (db: Db, pk: number, metadata: readonly MetadataValueInput[], field: string): boolean =>
  replaceMetadata(db, 'remote_file_metadata', 'remote_file_pk', pk, metadata, field);

export function deleteRemoteFileRows(db: Db, pks: readonly number[]): void {
  db.run('DELETE FROM remote_files WHERE pk IN (SELECT value FROM json_each(?))', [JSON.stringify(pks)]);
}

/** An upload made offline takes the id the remote gave it. */
export const remoteFileRows = recordTable('remote_files');
