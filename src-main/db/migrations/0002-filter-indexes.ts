// Indexes that let CEL filters stay index lookups (see filter/compileFilter.ts):
// relation fields compile to `t.<key> IN (SELECT ...)` semi-joins and the
// inner lookups need an index on the value being compared.
import type { Migration } from './types';

export const migration0002: Migration = {
  version: 2,
  name: 'filter-indexes',
  sql: `
-- asset_name == 'x': assets by name (the unique index leads with organization_id).
CREATE INDEX assets_name ON assets(name, id);
-- rule_id == 'x': annotations created by one of the rule's conditions.
CREATE INDEX annotations_condition ON annotations(created_by_condition_id);
-- created_by_user_id == 'x' within an organization.
CREATE INDEX annotations_org_created_by ON annotations(organization_id, created_by_user_id);
-- metadata['k'] == 'v' / metadata['k'] > 3: the type tag is part of every
-- typed comparison, so these serve them without reading the rows.
CREATE INDEX annotation_metadata_typed_string ON annotation_metadata(key, type, string_value, annotation_pk);
CREATE INDEX annotation_metadata_typed_number ON annotation_metadata(key, type, number_value, annotation_pk);
-- annotation logs filtered by annotation_id across annotations.
CREATE INDEX annotation_logs_annotation_id ON annotation_logs(annotation_id, created_date, pk);
`,
};
