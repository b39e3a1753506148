// The artifact tables — artifacts, artifact_versions, artifact_metadata and
// artifact_links — are written here and nowhere else: by the API's services
// (create, upload a version, link, unlink, archive) and by sync (the remote's
// artifacts and versions upserted, provisional version numbers, ids the
// remote gave, links to an annotation that got its remote id). Values are as
// stored (epoch micros, enum numbers).
import {
  ArtifactEntityType,
  ArtifactLinkRelation,
  type ArtifactEntityTypeName,
  type ArtifactLinkRelationName,
} from '../../../src-shared/api/artifacts';
import type { MetadataValueInput } from '../../../src-shared/api/metadata';
import { replaceMetadata } from '../../db/childRows';
import type { Db, SqlValue } from '../../db/database';
import { recordTable } from '../../db/recordTable';

type Values<K extends string> = Readonly<Partial<Record<K, SqlValue>>>;

const columnsOf = (values: Readonly<Record<string, SqlValue | undefined>>) => Object.keys(values).filter((c) => values[c] !== undefined);
const valuesOf = (values: Readonly<Record<string, SqlValue | undefined>>, columns: readonly string[]) =>
  columns.map((c) => values[c] as SqlValue);
const insertSql = (table: string, columns: readonly string[]) =>
  `INSERT INTO ${table}(${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;

// ---- artifacts -------------------------------------------------------------------

type ArtifactColumn =
  | 'id'
  | 'organization_id'
  | 'created_by_user_id'
  | 'modified_by_user_id'
  | 'title'
  | 'storage_class'
  | 'created_via'
  | 'created_date'
  | 'modified_date'
  | 'archived_date'
  | 'artifact_version_id'
  | 'version'
  | 'version_created_date'
  | 'file_name'
  | 'file_type'
  | 'mime_type'
  | 'size_bytes'
  | 'sha256';

/** The columns of the current version, copied onto the artifact row. */
const CURRENT_VERSION_COLUMNS = [
  'artifact_version_id',
  'version',
  'version_created_date',
  'file_name',
  'file_type',
  'mime_type',
  'size_bytes',
  'sha256',
] as const;

/** Inserts an artifact; returns its pk. */
export function insertArtifactRow(db: Db, row: Values<ArtifactColumn>): number {
  const columns = columnsOf(row);
  return Number(db.run(insertSql('artifacts', columns), valuesOf(row, columns)).lastInsertRowid);
}

/**
 * A remote artifact upserted by id: its own columns (title, storage class, creator) always, its current version's
 * columns unless `keepCurrentVersion` (an offline version still waits for its push). Returns its pk.
 */
export function upsertRemoteArtifact(db: Db, row: Values<ArtifactColumn> & { id: string }, keepCurrentVersion: boolean): number {
  const columns = columnsOf(row);
  const update = [
    'title',
    'storage_class',
    'created_via',
    'created_by_user_id',
    'created_date',
    ...(keepCurrentVersion ? [] : CURRENT_VERSION_COLUMNS),
  ];
  db.run(
    `${insertSql('artifacts', columns)} ON CONFLICT(id) DO UPDATE SET ${update.map((c) => `${c} = excluded.${c}`).join(', ')}`,
    valuesOf(row, columns),
  );
  return db.get<{ pk: number }>('SELECT pk FROM artifacts WHERE id = ?', [row.id])!.pk;
}

export function setArtifactColumns(db: Db, pk: number, values: Values<Exclude<ArtifactColumn, 'id' | 'organization_id'>>): void {
  const columns = columnsOf(values);
  if (columns.length)
    db.run(`UPDATE artifacts SET ${columns.map((c) => `${c} = ?`).join(', ')} WHERE pk = ?`, [...valuesOf(values, columns), pk]);
}

export const replaceArtifactMetadata = (db: Db, pk: number, metadata: readonly MetadataValueInput[], field = 'metadata'): boolean =>
  replaceMetadata(db, 'artifact_metadata', 'artifact_pk', pk, metadata, field);

/** An artifact made offline takes the id the remote gave it. */
export const artifactRows = recordTable('artifacts');

// ---- versions -------------------------------------------------------------------

type VersionColumn =
  | 'id'
  | 'artifact_pk'
  | 'version'
  | 'file_name'
  | 'file_type'
  | 'mime_type'
  | 'size_bytes'
  | 'sha256'
  | 'storage_path'
  | 'created_date'
  | 'created_by_user_id';

export function insertArtifactVersionRow(db: Db, row: Values<VersionColumn>): void {
  const columns = columnsOf(row);
  db.run(insertSql('artifact_versions', columns), valuesOf(row, columns));
}

/** A remote version upserted by id (its storage path and artifact kept once stored: content files never move). */
export function upsertRemoteArtifactVersion(db: Db, row: Values<VersionColumn> & { id: string }): void {
  const columns = columnsOf(row);
  const update = ['version', 'file_name', 'file_type', 'mime_type', 'size_bytes', 'sha256', 'created_date', 'created_by_user_id'];
  db.run(
    `${insertSql('artifact_versions', columns)} ON CONFLICT(id) DO UPDATE SET ${update.map((c) => `${c} = excluded.${c}`).join(', ')}`,
    valuesOf(row, columns),
  );
}

/** Gives a stored version another number; with `artifactFollows`, so does the artifact row when that version is its current one. */
export function renumberArtifactVersion(
  db: Db,
  artifactPk: number,
  versionPk: number,
  number: number,
  options: { artifactFollows: boolean },
): void {
  db.run('UPDATE artifact_versions SET version = ? WHERE pk = ?', [number, versionPk]);
  if (options.artifactFollows) {
    db.run('UPDATE artifacts SET version = ? WHERE pk = ? AND artifact_version_id = (SELECT id FROM artifact_versions WHERE pk = ?)', [
      number,
      artifactPk,
      versionPk,
    ]);
  }
}

/** A version made offline takes the id the remote gave it; the artifact and links naming it follow. */
/** A version's id is held by its artifact (the current version) and by the links to it too. */
export const artifactVersionRows = recordTable('artifact_versions', (db, fromId, toId) => {
  db.run('UPDATE artifact_versions SET id = ? WHERE id = ?', [toId, fromId]);
  db.run('UPDATE artifacts SET artifact_version_id = ? WHERE artifact_version_id = ?', [toId, fromId]);
  db.run('UPDATE artifact_links SET artifact_version_id = ? WHERE artifact_version_id = ?', [toId, fromId]);
});

// ---- links ----------------------------------------------------------------------

export interface LinkKey {
  readonly relation: ArtifactLinkRelationName;
  readonly entityType: ArtifactEntityTypeName;
  readonly entityId: string;
}

/** Inserts or re-points one link (idempotent); returns whether anything changed. */
export function upsertLink(db: Db, artifactPk: number, link: LinkKey, artifactVersionId: string): boolean {
  const key = [artifactPk, ArtifactLinkRelation.numbers[link.relation], ArtifactEntityType.numbers[link.entityType], link.entityId];
  const existing = db.get<{ artifact_version_id: string }>(
    'SELECT artifact_version_id FROM artifact_links WHERE artifact_pk = ? AND relation = ? AND entity_type = ? AND entity_id = ?',
    key,
  );
  if (existing) {
    if (existing.artifact_version_id === artifactVersionId) return false;
    db.run(
      'UPDATE artifact_links SET artifact_version_id = ? WHERE artifact_pk = ? AND relation = ? AND entity_type = ? AND entity_id = ?',
      [artifactVersionId, ...key],
    );
    return true;
  }
  db.run(
    `INSERT INTO artifact_links(artifact_pk, relation, entity_type, entity_id, artifact_version_id, position)
     VALUES (?, ?, ?, ?, ?, (SELECT COALESCE(MAX(position), -1) + 1 FROM artifact_links WHERE artifact_pk = ?))`,
    [...key, artifactVersionId, artifactPk],
  );
  return true;
}

export function deleteLink(db: Db, artifactPk: number, link: LinkKey): boolean {
  const info = db.run('DELETE FROM artifact_links WHERE artifact_pk = ? AND relation = ? AND entity_type = ? AND entity_id = ?', [
    artifactPk,
    ArtifactLinkRelation.numbers[link.relation],
    ArtifactEntityType.numbers[link.entityType],
    link.entityId,
  ]);
  return info.changes > 0;
}

export function deleteArtifactLinks(db: Db, artifactPk: number): void {
  db.run('DELETE FROM artifact_links WHERE artifact_pk = ?', [artifactPk]);
}

/** An annotation made offline took the id the remote gave it: links to it name that id. */
export function renameLinkedAnnotation(db: Db, fromId: string, toId: string): void {
  // With its entity type, so artifact_links_entity serves it (entity_id alone scanned every link per mapped id).
  db.run('UPDATE artifact_links SET entity_id = ? WHERE entity_type = ? AND entity_id = ?', [
    toId,
    ArtifactEntityType.numbers.ARTIFACT_ENTITY_TYPE_ANNOTATION,
    fromId,
  ]);
}
