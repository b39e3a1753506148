// Rules (with conditions, actions and versions) and artifacts (with versions,
// links and metadata). Same conventions as 0001: integer pk + UUID id,
// INTEGER epoch-microsecond timestamps, enums as proto numbers, repeated
// fields in child tables keyed by the parent pk.
import type { Migration } from './types';

export const migration0005: Migration = {
  version: 5,
  name: 'rules-artifacts',
  sql: `
CREATE TABLE rules (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id),
  client_key TEXT,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  asset_id TEXT NOT NULL DEFAULT '',
  is_enabled INTEGER NOT NULL DEFAULT 1,
  is_external INTEGER NOT NULL DEFAULT 0,
  is_live_evaluation_enabled INTEGER NOT NULL DEFAULT 1,
  current_version_id TEXT NOT NULL DEFAULT '',
  created_date INTEGER NOT NULL,
  modified_date INTEGER NOT NULL,
  created_by_user_id TEXT NOT NULL,
  modified_by_user_id TEXT NOT NULL,
  deleted_date INTEGER,
  archived_date INTEGER,
  -- client keys are unique per organization (NULL = none; NULLs never collide)
  UNIQUE (organization_id, client_key)
);
CREATE INDEX rules_org_created ON rules(organization_id, created_date, pk);
CREATE INDEX rules_org_modified ON rules(organization_id, modified_date, pk);
CREATE INDEX rules_org_name ON rules(organization_id, name, pk);

-- expression: the RuleConditionExpression in its wire (protobuf JSON) form;
-- channel_references keys are stored exactly as sent.
CREATE TABLE rule_conditions (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  rule_pk INTEGER NOT NULL REFERENCES rules(pk) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  version_id TEXT NOT NULL,
  expression TEXT NOT NULL,
  created_date INTEGER NOT NULL,
  modified_date INTEGER NOT NULL,
  created_by_user_id TEXT NOT NULL,
  modified_by_user_id TEXT NOT NULL
);
CREATE INDEX rule_conditions_rule ON rule_conditions(rule_pk, position);

-- action_type: ActionKind number; configuration: RuleActionConfiguration (wire JSON).
CREATE TABLE rule_actions (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  condition_pk INTEGER NOT NULL REFERENCES rule_conditions(pk) ON DELETE CASCADE,
  rule_pk INTEGER NOT NULL REFERENCES rules(pk) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  action_type INTEGER NOT NULL,
  configuration TEXT NOT NULL,
  version_id TEXT NOT NULL,
  created_date INTEGER NOT NULL,
  modified_date INTEGER NOT NULL,
  created_by_user_id TEXT NOT NULL,
  modified_by_user_id TEXT NOT NULL
);
CREATE INDEX rule_actions_condition ON rule_actions(condition_pk, position);
CREATE INDEX rule_actions_rule ON rule_actions(rule_pk, condition_pk, position);
CREATE INDEX rule_actions_type ON rule_actions(action_type, rule_pk);

CREATE TABLE rule_asset_ids (
  rule_pk INTEGER NOT NULL REFERENCES rules(pk) ON DELETE CASCADE,
  asset_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (rule_pk, asset_id)
) WITHOUT ROWID;
CREATE INDEX rule_asset_ids_asset ON rule_asset_ids(asset_id, rule_pk);

CREATE TABLE rule_tag_ids (
  rule_pk INTEGER NOT NULL REFERENCES rules(pk) ON DELETE CASCADE,
  tag_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (rule_pk, tag_id)
) WITHOUT ROWID;
CREATE INDEX rule_tag_ids_tag ON rule_tag_ids(tag_id, rule_pk);

CREATE TABLE rule_contextual_channels (
  rule_pk INTEGER NOT NULL REFERENCES rules(pk) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  name TEXT NOT NULL DEFAULT '',
  component TEXT NOT NULL DEFAULT '',
  calculated_channel_version_id TEXT,
  PRIMARY KEY (rule_pk, position)
) WITHOUT ROWID;

CREATE TABLE rule_metadata (
  rule_pk INTEGER NOT NULL REFERENCES rules(pk) ON DELETE CASCADE,
  key TEXT NOT NULL,
  type INTEGER NOT NULL,
  string_value TEXT,
  number_value REAL,
  boolean_value INTEGER,
  position INTEGER NOT NULL,
  PRIMARY KEY (rule_pk, key)
) WITHOUT ROWID;
CREATE INDEX rule_metadata_string ON rule_metadata(key, string_value, rule_pk);
CREATE INDEX rule_metadata_number ON rule_metadata(key, number_value, rule_pk);

-- One row per saved change. version counts 1, 2, ... per rule (a string on the
-- wire); snapshot is the full wire Rule as of this version (GetRuleVersion).
CREATE TABLE rule_versions (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  rule_pk INTEGER NOT NULL REFERENCES rules(pk) ON DELETE CASCADE,
  version INTEGER NOT NULL,
  version_notes TEXT NOT NULL DEFAULT '',
  change_message TEXT NOT NULL DEFAULT '',
  created_date INTEGER NOT NULL,
  created_by_user_id TEXT NOT NULL,
  snapshot TEXT NOT NULL,
  UNIQUE (rule_pk, version)
);

-- The current version's file facts are copied onto the artifact row so that
-- list, order_by and filters read one row.
CREATE TABLE artifacts (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id),
  created_by_user_id TEXT NOT NULL,
  modified_by_user_id TEXT NOT NULL,
  title TEXT NOT NULL,
  storage_class INTEGER NOT NULL,
  created_via INTEGER NOT NULL,
  created_date INTEGER NOT NULL,
  modified_date INTEGER NOT NULL,
  archived_date INTEGER,
  artifact_version_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  version_created_date INTEGER NOT NULL,
  file_name TEXT NOT NULL,
  file_type TEXT NOT NULL,
  mime_type TEXT NOT NULL,
  size_bytes INTEGER NOT NULL,
  sha256 TEXT NOT NULL
);
CREATE INDEX artifacts_org_created ON artifacts(organization_id, created_date, pk);
CREATE INDEX artifacts_org_version_created ON artifacts(organization_id, version_created_date, pk);
CREATE INDEX artifacts_org_archived ON artifacts(organization_id, COALESCE(archived_date, 0), pk);
CREATE INDEX artifacts_org_title ON artifacts(organization_id, title, pk);
CREATE INDEX artifacts_org_version ON artifacts(organization_id, version, pk);
CREATE INDEX artifacts_org_file_type ON artifacts(organization_id, file_type, pk);

-- storage_path is relative to <dataDir>/artifacts/.
CREATE TABLE artifact_versions (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  artifact_pk INTEGER NOT NULL REFERENCES artifacts(pk) ON DELETE CASCADE,
  version INTEGER NOT NULL,
  file_name TEXT NOT NULL,
  file_type TEXT NOT NULL,
  mime_type TEXT NOT NULL,
  size_bytes INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  storage_path TEXT NOT NULL,
  created_date INTEGER NOT NULL,
  created_by_user_id TEXT NOT NULL,
  UNIQUE (artifact_pk, version)
);

-- relation: ArtifactLinkRelation number; entity_type: ArtifactEntityType number.
-- The two indexes make link filters (links.exists(l, l.entity_type == ANNOTATION
-- && l.entity_id == 'x')) and conversation scoping indexed probes.
CREATE TABLE artifact_links (
  artifact_pk INTEGER NOT NULL REFERENCES artifacts(pk) ON DELETE CASCADE,
  relation INTEGER NOT NULL,
  entity_type INTEGER NOT NULL,
  entity_id TEXT NOT NULL,
  artifact_version_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (artifact_pk, relation, entity_type, entity_id)
) WITHOUT ROWID;
CREATE INDEX artifact_links_entity ON artifact_links(entity_type, entity_id, artifact_pk);
CREATE INDEX artifact_links_relation ON artifact_links(relation, entity_type, entity_id, artifact_pk);

CREATE TABLE artifact_metadata (
  artifact_pk INTEGER NOT NULL REFERENCES artifacts(pk) ON DELETE CASCADE,
  key TEXT NOT NULL,
  type INTEGER NOT NULL,
  string_value TEXT,
  number_value REAL,
  boolean_value INTEGER,
  position INTEGER NOT NULL,
  PRIMARY KEY (artifact_pk, key)
) WITHOUT ROWID;
CREATE INDEX artifact_metadata_string ON artifact_metadata(key, string_value, artifact_pk);
CREATE INDEX artifact_metadata_number ON artifact_metadata(key, number_value, artifact_pk);
`,
};
