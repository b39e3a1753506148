// Identity, reference entities (assets, runs, tags, channels), annotations and
// annotation logs. Timestamps are INTEGER epoch microseconds; enums are stored
// as their proto numbers; repeated fields live in child tables keyed by the
// parent's integer pk so relation filters are indexed EXISTS probes.
import type { Migration } from './types';

export const migration0001: Migration = {
  version: 1,
  name: 'core',
  sql: `
CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE organizations (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  created_date INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE users (
  id TEXT PRIMARY KEY,
  user_name TEXT NOT NULL UNIQUE,
  created_date INTEGER NOT NULL,
  modified_date INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE memberships (
  user_id TEXT NOT NULL REFERENCES users(id),
  organization_id TEXT NOT NULL REFERENCES organizations(id),
  active INTEGER NOT NULL DEFAULT 1,
  PRIMARY KEY (user_id, organization_id)
) WITHOUT ROWID;
CREATE INDEX memberships_org ON memberships(organization_id, user_id);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  key_hash TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users(id),
  name TEXT NOT NULL DEFAULT '',
  created_date INTEGER NOT NULL,
  revoked_date INTEGER
) WITHOUT ROWID;

CREATE TABLE tags (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL,
  created_by_user_id TEXT NOT NULL,
  created_date INTEGER NOT NULL,
  UNIQUE (organization_id, name)
) WITHOUT ROWID;
CREATE INDEX tags_org_created ON tags(organization_id, created_date, id);

CREATE TABLE assets (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL,
  created_date INTEGER NOT NULL,
  created_by_user_id TEXT NOT NULL,
  modified_date INTEGER NOT NULL,
  modified_by_user_id TEXT NOT NULL,
  archived_date INTEGER,
  UNIQUE (organization_id, name)
);
CREATE INDEX assets_org_created ON assets(organization_id, created_date, pk);
CREATE INDEX assets_org_modified ON assets(organization_id, modified_date, pk);
CREATE TABLE asset_tags (
  asset_pk INTEGER NOT NULL REFERENCES assets(pk) ON DELETE CASCADE,
  tag_name TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (asset_pk, tag_name)
) WITHOUT ROWID;
CREATE INDEX asset_tags_name ON asset_tags(tag_name, asset_pk);
CREATE TABLE asset_metadata (
  asset_pk INTEGER NOT NULL REFERENCES assets(pk) ON DELETE CASCADE,
  key TEXT NOT NULL,
  type INTEGER NOT NULL,
  string_value TEXT,
  number_value REAL,
  boolean_value INTEGER,
  position INTEGER NOT NULL,
  PRIMARY KEY (asset_pk, key)
) WITHOUT ROWID;

CREATE TABLE runs (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  start_time INTEGER,
  stop_time INTEGER,
  is_pinned INTEGER NOT NULL DEFAULT 0,
  client_key TEXT,
  default_report_id TEXT NOT NULL DEFAULT '',
  is_adhoc INTEGER NOT NULL DEFAULT 0,
  created_date INTEGER NOT NULL,
  created_by_user_id TEXT NOT NULL,
  modified_date INTEGER NOT NULL,
  modified_by_user_id TEXT NOT NULL,
  archived_date INTEGER,
  UNIQUE (organization_id, client_key)
);
CREATE INDEX runs_org_created ON runs(organization_id, created_date, pk);
CREATE INDEX runs_org_modified ON runs(organization_id, modified_date, pk);
CREATE INDEX runs_org_name ON runs(organization_id, name, pk);
CREATE TABLE run_assets (
  run_pk INTEGER NOT NULL REFERENCES runs(pk) ON DELETE CASCADE,
  asset_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (run_pk, asset_id)
) WITHOUT ROWID;
CREATE INDEX run_assets_asset ON run_assets(asset_id, run_pk);
CREATE TABLE run_tags (
  run_pk INTEGER NOT NULL REFERENCES runs(pk) ON DELETE CASCADE,
  tag_name TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (run_pk, tag_name)
) WITHOUT ROWID;
CREATE TABLE run_metadata (
  run_pk INTEGER NOT NULL REFERENCES runs(pk) ON DELETE CASCADE,
  key TEXT NOT NULL,
  type INTEGER NOT NULL,
  string_value TEXT,
  number_value REAL,
  boolean_value INTEGER,
  position INTEGER NOT NULL,
  PRIMARY KEY (run_pk, key)
) WITHOUT ROWID;

CREATE TABLE channels (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id),
  asset_id TEXT NOT NULL,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  unit_id TEXT NOT NULL DEFAULT '',
  data_type INTEGER NOT NULL DEFAULT 1,
  display_description TEXT NOT NULL DEFAULT '',
  display_unit_id TEXT NOT NULL DEFAULT '',
  active INTEGER NOT NULL DEFAULT 1,
  created_date INTEGER NOT NULL,
  created_by_user_id TEXT NOT NULL,
  modified_date INTEGER NOT NULL,
  modified_by_user_id TEXT NOT NULL,
  UNIQUE (asset_id, name)
);
CREATE INDEX channels_org_created ON channels(organization_id, created_date, pk);

CREATE TABLE annotations (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  start_time INTEGER NOT NULL,
  end_time INTEGER NOT NULL,
  created_by_user_id TEXT NOT NULL,
  modified_by_user_id TEXT NOT NULL,
  created_date INTEGER NOT NULL,
  modified_date INTEGER NOT NULL,
  run_id TEXT,
  state INTEGER,
  assigned_to_user_id TEXT NOT NULL DEFAULT '',
  annotation_type INTEGER NOT NULL DEFAULT 1,
  legend_config TEXT,
  created_by_condition_id TEXT,
  created_by_rule_condition_version_id TEXT,
  report_rule_version_id TEXT,
  pending INTEGER NOT NULL DEFAULT 0,
  deleted_date INTEGER,
  archived_date INTEGER,
  batched_triggers INTEGER NOT NULL DEFAULT 0,
  is_noisy_rule INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX annotations_org_created ON annotations(organization_id, created_date, pk);
CREATE INDEX annotations_org_modified ON annotations(organization_id, modified_date, pk);
CREATE INDEX annotations_org_start ON annotations(organization_id, start_time, pk);
CREATE INDEX annotations_org_end ON annotations(organization_id, end_time, pk);
CREATE INDEX annotations_org_name ON annotations(organization_id, name, pk);
CREATE INDEX annotations_org_description ON annotations(organization_id, description, pk);
CREATE INDEX annotations_run ON annotations(run_id);
CREATE INDEX annotations_org_state ON annotations(organization_id, state);
CREATE INDEX annotations_assignee ON annotations(assigned_to_user_id);

CREATE TABLE annotation_tags (
  annotation_pk INTEGER NOT NULL REFERENCES annotations(pk) ON DELETE CASCADE,
  tag_name TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (annotation_pk, tag_name)
) WITHOUT ROWID;
CREATE INDEX annotation_tags_name ON annotation_tags(tag_name, annotation_pk);

CREATE TABLE annotation_assets (
  annotation_pk INTEGER NOT NULL REFERENCES annotations(pk) ON DELETE CASCADE,
  asset_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (annotation_pk, asset_id)
) WITHOUT ROWID;
CREATE INDEX annotation_assets_asset ON annotation_assets(asset_id, annotation_pk);

-- kind: 1 channel, 2 bit_field_element, 3 calculated_channel (the oneof member's number)
CREATE TABLE annotation_linked_channels (
  annotation_pk INTEGER NOT NULL REFERENCES annotations(pk) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  kind INTEGER NOT NULL,
  channel_id TEXT,
  bit_field_name TEXT,
  calculated_channel_version_id TEXT,
  PRIMARY KEY (annotation_pk, position)
) WITHOUT ROWID;
CREATE INDEX annotation_linked_channels_channel ON annotation_linked_channels(channel_id, annotation_pk);

CREATE TABLE annotation_metadata (
  annotation_pk INTEGER NOT NULL REFERENCES annotations(pk) ON DELETE CASCADE,
  key TEXT NOT NULL,
  type INTEGER NOT NULL,
  string_value TEXT,
  number_value REAL,
  boolean_value INTEGER,
  position INTEGER NOT NULL,
  PRIMARY KEY (annotation_pk, key)
) WITHOUT ROWID;

CREATE TABLE annotation_logs (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  annotation_pk INTEGER NOT NULL REFERENCES annotations(pk) ON DELETE CASCADE,
  annotation_id TEXT NOT NULL,
  organization_id TEXT NOT NULL,
  kind INTEGER NOT NULL,
  created_by_user_id TEXT NOT NULL,
  created_by_user_name TEXT NOT NULL,
  created_date INTEGER NOT NULL,
  modified_date INTEGER NOT NULL,
  assigned_to_user_id TEXT,
  assigned_to_user_email TEXT,
  state INTEGER,
  comment_body TEXT
);
CREATE INDEX annotation_logs_annotation ON annotation_logs(annotation_pk, created_date, pk);
CREATE INDEX annotation_logs_org_created ON annotation_logs(organization_id, created_date, pk);
CREATE INDEX annotation_logs_org_modified ON annotation_logs(organization_id, modified_date, pk);
`,
};
