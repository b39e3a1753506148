// Artifact versions as the sync code stores them. Versions are append-only on
// both sides (a new version never overwrites another), so they are not merged
// field by field: the remote's versions are upserted, and an offline version
// keeps its provisional number until its push tells the remote's (the remote
// numbers versions in arrival order). Content files never move: a version row
// keeps its storage_path when its id changes from local to remote.
import type { ArtifactVersion } from '../../../../src-shared/api/artifacts';
import type { Db } from '../../../db/database';
import { renumberArtifactVersion, upsertRemoteArtifactVersion } from '../../../services/artifacts/artifactStore';
import { storagePathFor } from '../../../services/artifacts/artifactStorage';
import { wireMicros } from '../../time';

export const ARTIFACT_VERSION = 'artifact_version';

/** Offline versions of an artifact whose create has not reached the remote yet, by provisional number. */
function unpushedVersions(db: Db, artifactPk: number): { pk: number; version: number }[] {
  return db.all<{ pk: number; version: number }>(
    `SELECT v.pk, v.version FROM artifact_versions v JOIN sync_id_map m ON m.local_id = v.id AND m.remote_id IS NULL
     WHERE v.artifact_pk = ? ORDER BY v.version`,
    [artifactPk],
  );
}

/**
 * Frees `number` for a remote version: an offline version holding it (numbered before the remote's arrived)
 * moves after every stored version. Its number is provisional; the push result gives it the remote's.
 */
export function freeVersionNumber(db: Db, artifactPk: number, number: number, keepPk?: number): void {
  const holder = db.get<{ pk: number }>('SELECT pk FROM artifact_versions WHERE artifact_pk = ? AND version = ?', [artifactPk, number]);
  if (!holder || holder.pk === keepPk) return;
  if (!unpushedVersions(db, artifactPk).some((v) => v.pk === holder.pk)) return; // a remote version: never renumbered
  const max = db.get<{ n: number }>('SELECT max(version) AS n FROM artifact_versions WHERE artifact_pk = ?', [artifactPk])!.n;
  renumberArtifactVersion(db, artifactPk, holder.pk, max + 1, { artifactFollows: true });
}

/** Gives a stored version the number the remote assigned it. */
export function setVersionNumber(db: Db, artifactPk: number, versionId: string, number: number): void {
  const row = db.get<{ pk: number; version: number }>('SELECT pk, version FROM artifact_versions WHERE id = ?', [versionId]);
  if (!row || row.version === number) return;
  freeVersionNumber(db, artifactPk, number, row.pk);
  renumberArtifactVersion(db, artifactPk, row.pk, number, { artifactFollows: false });
}

/** The storage path of a stored version (where its content is, or is to be downloaded to). */
export function storedContentPath(db: Db, versionId: string): string | undefined {
  return db.get<{ storage_path: string }>('SELECT storage_path FROM artifact_versions WHERE id = ?', [versionId])?.storage_path;
}

/** Inserts or updates the remote's versions of one artifact (content is downloaded beforehand: pullers/artifacts.ts). */
export function upsertVersions(db: Db, artifactPk: number, list: readonly ArtifactVersion[]): void {
  for (const v of list) {
    const existing = db.get<{ pk: number }>('SELECT pk FROM artifact_versions WHERE id = ?', [v.artifactVersionId]);
    freeVersionNumber(db, artifactPk, v.version, existing?.pk);
    upsertRemoteArtifactVersion(db, {
      id: v.artifactVersionId,
      artifact_pk: artifactPk,
      version: v.version,
      file_name: v.fileName,
      file_type: v.fileType,
      mime_type: v.mimeType,
      size_bytes: Number(v.sizeBytes),
      sha256: v.sha256,
      storage_path: storagePathFor(v.artifactId, v.artifactVersionId),
      created_date: wireMicros(v.createdDate) ?? 0,
      created_by_user_id: v.createdByUserId,
    });
  }
}

/** Whether `artifactPk` has offline versions still to push (its current version is then the local one). */
export const hasUnpushedVersions = (db: Db, artifactPk: number) => unpushedVersions(db, artifactPk).length > 0;
