// Stored artifact rows -> wire Artifacts (links and metadata batch-loaded).
import {
  ArtifactCreatedVia,
  ArtifactEntityType,
  ArtifactLinkRelation,
  ArtifactStorageClass,
  type Artifact,
  type ArtifactLink,
  type ArtifactVersion,
} from '../../../src-shared/api/artifacts';
import { formatOptionalTimestamp, formatTimestamp } from '../../../src-shared/api/time';
import { loadByPks, loadMetadata } from '../../db/childRows';
import type { Db } from '../../db/database';

export interface ArtifactRow {
  pk: number;
  id: string;
  organization_id: string;
  created_by_user_id: string;
  modified_by_user_id: string;
  title: string;
  storage_class: number;
  created_via: number;
  created_date: number;
  modified_date: number;
  archived_date: number | null;
  artifact_version_id: string;
  version: number;
  version_created_date: number;
  file_name: string;
  file_type: string;
  mime_type: string;
  size_bytes: number;
  sha256: string;
}

export interface ArtifactVersionRow {
  pk: number;
  id: string;
  artifact_pk: number;
  version: number;
  file_name: string;
  file_type: string;
  mime_type: string;
  size_bytes: number;
  sha256: string;
  storage_path: string;
  created_date: number;
  created_by_user_id: string;
}

interface LinkRow {
  artifact_pk: number;
  relation: number;
  entity_type: number;
  entity_id: string;
  artifact_version_id: string;
}

const byNumber = <N extends string>(def: { names: readonly N[]; numbers: Readonly<Record<N, number>> }) => {
  const map = new Map<number, N>(def.names.map((n) => [def.numbers[n], n]));
  return (n: number): N => map.get(n) ?? def.names[0];
};
export const storageClassName = byNumber(ArtifactStorageClass);
const createdViaName = byNumber(ArtifactCreatedVia);
export const relationName = byNumber(ArtifactLinkRelation);
export const entityTypeName = byNumber(ArtifactEntityType);

function loadLinks(db: Db, pks: readonly number[]): Map<number, ArtifactLink[]> {
  const out = new Map<number, ArtifactLink[]>();
  const rows = db.all<LinkRow>(
    'SELECT artifact_pk, relation, entity_type, entity_id, artifact_version_id FROM artifact_links WHERE artifact_pk IN (SELECT value FROM json_each(?)) ORDER BY artifact_pk, position',
    [JSON.stringify(pks)],
  );
  for (const r of rows) {
    let list = out.get(r.artifact_pk);
    if (!list) out.set(r.artifact_pk, (list = []));
    list.push({
      relation: relationName(r.relation),
      entityType: entityTypeName(r.entity_type),
      entityId: r.entity_id,
      artifactVersionId: r.artifact_version_id,
    });
  }
  return out;
}

export function toWire(db: Db, rows: readonly ArtifactRow[]): Artifact[] {
  const pks = rows.map((r) => r.pk);
  const links = loadLinks(db, pks);
  const metadata = loadMetadata(db, 'artifact_metadata', 'artifact_pk', pks);
  return rows.map((r) => ({
    artifactId: r.id,
    organizationId: r.organization_id,
    createdByUserId: r.created_by_user_id,
    title: r.title,
    fileName: r.file_name,
    fileType: r.file_type,
    storageClass: storageClassName(r.storage_class),
    createdVia: createdViaName(r.created_via),
    version: r.version,
    versionCreatedDate: formatTimestamp(r.version_created_date),
    artifactVersionId: r.artifact_version_id,
    createdDate: formatTimestamp(r.created_date),
    modifiedDate: formatTimestamp(r.modified_date),
    archivedDate: formatOptionalTimestamp(r.archived_date),
    isArchived: r.archived_date !== null,
    metadata: metadata.get(r.pk) ?? [],
    links: links.get(r.pk) ?? [],
    sizeBytes: String(r.size_bytes),
    mimeType: r.mime_type,
    sha256: r.sha256,
  }));
}

export function loadArtifacts(db: Db, pks: readonly number[]): Artifact[] {
  return toWire(db, loadByPks<ArtifactRow>(db, 'artifacts', pks));
}

export function versionToWire(v: ArtifactVersionRow, artifactId: string): ArtifactVersion {
  return {
    artifactVersionId: v.id,
    artifactId,
    version: v.version,
    fileName: v.file_name,
    fileType: v.file_type,
    mimeType: v.mime_type,
    sizeBytes: String(v.size_bytes),
    sha256: v.sha256,
    createdDate: formatTimestamp(v.created_date),
    createdByUserId: v.created_by_user_id,
  };
}
