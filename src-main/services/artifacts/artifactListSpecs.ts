// ListArtifacts and ListArtifactVersions: order_by fields, default orders,
// page sizes and ListArtifacts' CEL filter fields (seed spec).
import { ArtifactCreatedVia, ArtifactEntityType, ArtifactLinkRelation, ArtifactStorageClass } from '../../../src-shared/api/artifacts';
import type { FilterFields } from '../../filter/fields';
import type { ListSpec } from '../../filter/resource';
import { metadataMap } from '../common/commonFilterFields';

/** The archive rule's default: archived artifacts are left out. */
const EXCLUDE_ARCHIVED_SQL = 't.archived_date IS NULL';

/**
 * Enums compare by UNPREFIXED value name (`storage_class == STRUCTURED`,
 * `l.relation == ATTACHED_TO`, `l.entity_type == CONVERSATION`); names two
 * enums share with different numbers (CONVERSATION) resolve by the field
 * they are compared with.
 */
function artifactFilterFields(excludeArchivedUnlessIncluded: string): FilterFields {
  return {
    artifact_id: { kind: 'scalar', type: 'string', sql: 't.id' },
    organization_id: { kind: 'scalar', type: 'string', sql: 't.organization_id' },
    created_by_user_id: { kind: 'scalar', type: 'string', sql: 't.created_by_user_id' },
    storage_class: { kind: 'enum', sql: 't.storage_class', values: ArtifactStorageClass.unprefixed },
    created_via: { kind: 'enum', sql: 't.created_via', values: ArtifactCreatedVia.unprefixed },
    title: { kind: 'scalar', type: 'string', sql: 't.title' },
    // The current version's file facts (copied onto the artifact row).
    file_name: { kind: 'scalar', type: 'string', sql: 't.file_name' },
    file_type: { kind: 'scalar', type: 'string', sql: 't.file_type' },
    version: { kind: 'scalar', type: 'int', sql: 't.version' },
    created_date: { kind: 'scalar', type: 'timestamp', sql: 't.created_date' },
    // Every change of the artifact (new version, link, archive) moves it: what sync pulls incrementally on.
    modified_date: { kind: 'scalar', type: 'timestamp', sql: 't.modified_date' },
    version_created_date: { kind: 'scalar', type: 'timestamp', sql: 't.version_created_date' },
    archived_date: { kind: 'scalar', type: 'timestamp', sql: 't.archived_date', nullable: true },
    include_archived: { kind: 'directive', unlessTrue: excludeArchivedUnlessIncluded },
    metadata: metadataMap('artifact_metadata', 'artifact_pk'),
    // Served by artifact_links_entity / artifact_links_relation (migration 0005).
    links: {
      kind: 'messages',
      typeName: 'ArtifactLink',
      rows: { from: 'artifact_links {l}', parentKey: 't.pk', childKey: '{l}.artifact_pk' },
      members: {
        relation: { type: 'int', sql: '{l}.relation', enumValues: ArtifactLinkRelation.unprefixed },
        entity_type: { type: 'int', sql: '{l}.entity_type', enumValues: ArtifactEntityType.unprefixed },
        entity_id: { type: 'string', sql: '{l}.entity_id' },
        artifact_version_id: { type: 'string', sql: '{l}.artifact_version_id' },
      },
    },
  };
}

export const artifactListSpec: ListSpec = {
  resource: 'artifacts',
  from: 'artifacts t',
  tieBreak: 't.pk',
  orderFields: {
    created_date: { sql: 't.created_date', type: 'number' },
    modified_date: { sql: 't.modified_date', type: 'number' },
    version_created_date: { sql: 't.version_created_date', type: 'number' },
    // Unarchived artifacts sort as 0 (before every archived one when ascending).
    archived_date: { sql: 'COALESCE(t.archived_date, 0)', type: 'number' },
    title: { sql: 't.title', type: 'text' },
    version: { sql: 't.version', type: 'number' },
    file_type: { sql: 't.file_type', type: 'text' },
  },
  defaultOrder: [{ field: 'created_date', desc: false }],
  defaultPageSize: 50,
  maxPageSize: 1000,
  // The archive rule (archivedFilter.ts): archived artifacts are left out
  // unless the filter sets the include_archived directive...
  filterFields: artifactFilterFields(EXCLUDE_ARCHIVED_SQL),
};

/**
 * ...or filters on archived_date, which then governs archival alone: the same
 * fields, with a directive that restricts nothing. The service picks this
 * spec for such filters (same resource, so page tokens stay interchangeable).
 */
export const artifactListSpecArchiveByFilter: ListSpec = {
  ...artifactListSpec,
  filterFields: artifactFilterFields('1'),
};

export const artifactVersionListSpec: ListSpec = {
  resource: 'artifact versions',
  from: 'artifact_versions t',
  tieBreak: 't.pk',
  orderFields: { version: { sql: 't.version', type: 'number' } },
  defaultOrder: [{ field: 'version', desc: true }],
  defaultPageSize: 50,
  maxPageSize: 1000,
  filterFields: {},
};
