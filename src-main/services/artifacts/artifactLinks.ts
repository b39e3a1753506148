// Links of an artifact to other entities. A linked annotation, run, asset or
// test report must exist in the artifact's organization (else NOT_FOUND, as
// for any record the caller cannot see); conversations are not a local
// resource (reference §12), so any non-empty conversation id is accepted.
import type { ArtifactEntityTypeName, ArtifactLinkInput } from '../../../src-shared/api/artifacts';
import { ApiError } from '../../../src-shared/errors';
import type { Db } from '../../db/database';
import { upsertLink, type LinkKey } from './artifactStore';

const ENTITY_TABLES: Readonly<Partial<Record<ArtifactEntityTypeName, { table: string; what: string }>>> = {
  ARTIFACT_ENTITY_TYPE_ANNOTATION: { table: 'annotations', what: 'annotation' },
  ARTIFACT_ENTITY_TYPE_RUN: { table: 'runs', what: 'run' },
  ARTIFACT_ENTITY_TYPE_ASSET: { table: 'assets', what: 'asset' },
  ARTIFACT_ENTITY_TYPE_TEST_REPORT: { table: 'test_reports', what: 'test report' },
};

/** Shape checks that need no database (INVALID_ARGUMENT naming the field). */
export function checkLinkShape(link: LinkKey, field: string): void {
  if (link.relation === 'ARTIFACT_LINK_RELATION_UNSPECIFIED')
    throw ApiError.invalid(`${field}relation`, 'must be ATTACHED_TO, GENERATED_FROM or REFERENCES');
  if (link.entityType === 'ARTIFACT_ENTITY_TYPE_UNSPECIFIED')
    throw ApiError.invalid(`${field}entity_type`, 'must be ANNOTATION, RUN, ASSET, TEST_REPORT or CONVERSATION');
  if (link.entityId.trim() === '') throw ApiError.invalid(`${field}entity_id`, 'must not be empty');
}

export function assertEntityExists(db: Db, organizationId: string, link: LinkKey): void {
  const target = ENTITY_TABLES[link.entityType];
  if (!target) return;
  // Table names are constants of this module, never request data.
  if (!db.get(`SELECT 1 FROM ${target.table} WHERE id = ? AND organization_id = ?`, [link.entityId, organizationId])) {
    throw ApiError.notFound(target.what, link.entityId);
  }
}

/**
 * Validates and writes links (create, upload, :link); a given artifact_version_id
 * must name a version of this artifact, the default is the current version.
 * `fieldFor(i)` is the field-name prefix of link i in errors (`links[0].`).
 */
export function writeLinks(
  db: Db,
  artifact: { pk: number; organization_id: string; artifact_version_id: string },
  links: readonly ArtifactLinkInput[],
  fieldFor: (index: number) => string,
): boolean {
  let changed = false;
  links.forEach((link, i) => {
    const field = fieldFor(i);
    checkLinkShape(link, field);
    assertEntityExists(db, artifact.organization_id, link);
    let versionId = artifact.artifact_version_id;
    if (link.artifactVersionId) {
      if (!db.get('SELECT 1 FROM artifact_versions WHERE id = ? AND artifact_pk = ?', [link.artifactVersionId, artifact.pk])) {
        throw ApiError.invalid(`${field}artifact_version_id`, `'${link.artifactVersionId}' is not a version of this artifact`);
      }
      versionId = link.artifactVersionId;
    }
    changed = upsertLink(db, artifact.pk, link, versionId) || changed;
  });
  return changed;
}
