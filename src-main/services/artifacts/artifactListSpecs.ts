// ListArtifacts and ListArtifactVersions: order_by fields, default orders and
// page sizes (seed spec).
import type { ListSpec } from '../../filter/resource';

export const artifactListSpec: ListSpec = {
  resource: 'artifacts',
  from: 'artifacts t',
  tieBreak: 't.pk',
  orderFields: {
    created_date: { sql: 't.created_date', type: 'number' },
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
  // Documented filter fields, to be declared once the CEL engine lands:
  //   artifact_id (t.id), organization_id, created_by_user_id, title, file_name,
  //   file_type (strings); storage_class, created_via (enums compared by
  //   UNPREFIXED value name: ArtifactStorageClass.unprefixed, ...);
  //   version (int); created_date, version_created_date, archived_date
  //   (timestamps; archived_date nullable); include_archived (directive: see
  //   archivedClause.ts - until the engine owns it, the service applies the
  //   archive rule itself); metadata[<key>] (map over artifact_metadata);
  //   links (messages over artifact_links, typeName ArtifactLink, members
  //   relation / entity_type (enums, unprefixed names), entity_id,
  //   artifact_version_id) so `links.exists(l, l.entity_type == ANNOTATION &&
  //   l.entity_id == 'x')` compiles to an EXISTS served by artifact_links_entity.
  filterFields: {},
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
