// Remote files (reference §10) and test reports with their steps and
// measurements (reference §8).
//
// - remote_files.content_path names the stored bytes under <dataDir>/files/
//   (NULL: recorded by CreateRemoteFile without content). media_field is the
//   number of the set member of the `metadata` oneof (11 video, 12 image,
//   17 audio) or NULL.
// - test_steps/test_measurements carry organization_id and test_report_id
//   copies so lists are scoped and filtered without joins; they hang off the
//   report by pk with ON DELETE CASCADE (deleting a report is a hard delete).
// - step_path_key is a sortable form of step_path (numeric segments
//   length-prefixed) so "1.10" sorts after "1.9" (see stepPathKey.ts).
// - metadata value indexes are partial (a row has one kind of value; a
//   comparison such as \`number_value = ?\` implies IS NOT NULL, so filters
//   still use them) to keep bulk imports cheap.
// - value_field / bounds_field are the numbers of the set member of the
//   `value` (6 numeric, 7 string, 8 boolean) and `bounds` (10 numeric,
//   11 string) oneofs. SQLite stores NaN as NULL, so value_field = 6 with a
//   NULL numeric_value reads back as NaN.
import type { Migration } from './types';

const metadataTable = (name: string, fk: string, parent: string) => `
CREATE TABLE ${name} (
  ${fk} INTEGER NOT NULL REFERENCES ${parent}(pk) ON DELETE CASCADE,
  key TEXT NOT NULL,
  type INTEGER NOT NULL,
  string_value TEXT,
  number_value REAL,
  boolean_value INTEGER,
  position INTEGER NOT NULL,
  PRIMARY KEY (${fk}, key)
) WITHOUT ROWID;
CREATE INDEX ${name}_string ON ${name}(key, string_value, ${fk}) WHERE string_value IS NOT NULL;
CREATE INDEX ${name}_number ON ${name}(key, number_value, ${fk}) WHERE number_value IS NOT NULL;
`;

export const migration0004: Migration = {
  version: 4,
  name: 'remote-files-test-reports',
  sql: `
CREATE TABLE remote_files (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id),
  entity_id TEXT NOT NULL,
  entity_type INTEGER NOT NULL,
  file_name TEXT NOT NULL,
  file_mime_type TEXT NOT NULL,
  file_content_encoding TEXT NOT NULL DEFAULT '',
  storage_key TEXT NOT NULL,
  file_size INTEGER NOT NULL,
  description TEXT,
  media_field INTEGER,
  media_height INTEGER,
  media_width INTEGER,
  media_duration_seconds REAL,
  media_timestamp INTEGER,
  remote_file_type INTEGER NOT NULL DEFAULT 0,
  content_path TEXT,
  created_by_user_id TEXT NOT NULL,
  modified_by_user_id TEXT NOT NULL,
  created_date INTEGER NOT NULL,
  modified_date INTEGER NOT NULL
);
CREATE INDEX remote_files_org_created ON remote_files(organization_id, created_date, pk);
CREATE INDEX remote_files_org_modified ON remote_files(organization_id, modified_date, pk);
CREATE INDEX remote_files_org_name ON remote_files(organization_id, file_name, pk);
CREATE INDEX remote_files_entity ON remote_files(entity_id, entity_type);
${metadataTable('remote_file_metadata', 'remote_file_pk', 'remote_files')}

CREATE TABLE test_reports (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id),
  status INTEGER NOT NULL,
  name TEXT NOT NULL,
  test_system_name TEXT NOT NULL,
  test_case TEXT NOT NULL,
  start_time INTEGER NOT NULL,
  end_time INTEGER NOT NULL,
  serial_number TEXT NOT NULL DEFAULT '',
  part_number TEXT NOT NULL DEFAULT '',
  system_operator TEXT NOT NULL DEFAULT '',
  run_id TEXT NOT NULL DEFAULT '',
  archived_date INTEGER,
  source_remote_file_id TEXT,
  created_by_user_id TEXT NOT NULL,
  modified_by_user_id TEXT NOT NULL,
  created_date INTEGER NOT NULL,
  modified_date INTEGER NOT NULL
);
CREATE INDEX test_reports_org_start ON test_reports(organization_id, start_time, pk);
CREATE INDEX test_reports_org_end ON test_reports(organization_id, end_time, pk);
CREATE INDEX test_reports_org_created ON test_reports(organization_id, created_date, pk);
CREATE INDEX test_reports_org_modified ON test_reports(organization_id, modified_date, pk);
CREATE INDEX test_reports_org_name ON test_reports(organization_id, name, pk);
CREATE INDEX test_reports_run ON test_reports(run_id);
${metadataTable('test_report_metadata', 'report_pk', 'test_reports')}

CREATE TABLE test_steps (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  report_pk INTEGER NOT NULL REFERENCES test_reports(pk) ON DELETE CASCADE,
  test_report_id TEXT NOT NULL,
  organization_id TEXT NOT NULL,
  parent_step_id TEXT NOT NULL DEFAULT '',
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  step_type INTEGER NOT NULL,
  step_path TEXT NOT NULL,
  step_path_key TEXT NOT NULL,
  status INTEGER NOT NULL,
  start_time INTEGER NOT NULL,
  end_time INTEGER NOT NULL,
  error_code INTEGER,
  error_message TEXT,
  created_by_user_id TEXT NOT NULL,
  modified_by_user_id TEXT NOT NULL,
  created_date INTEGER NOT NULL,
  modified_date INTEGER NOT NULL
);
CREATE INDEX test_steps_org_path ON test_steps(organization_id, step_path_key, pk);
CREATE INDEX test_steps_report_path ON test_steps(test_report_id, step_path_key, pk);
-- serves the report cascade and subtree deletes; an import appends to it (its report_pk is the newest)
CREATE INDEX test_steps_report_parent ON test_steps(report_pk, parent_step_id);
${metadataTable('test_step_metadata', 'step_pk', 'test_steps')}

CREATE TABLE test_measurements (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  report_pk INTEGER NOT NULL REFERENCES test_reports(pk) ON DELETE CASCADE,
  step_pk INTEGER NOT NULL REFERENCES test_steps(pk) ON DELETE CASCADE,
  test_report_id TEXT NOT NULL,
  test_step_id TEXT NOT NULL,
  organization_id TEXT NOT NULL,
  measurement_type INTEGER NOT NULL,
  name TEXT NOT NULL,
  value_field INTEGER,
  numeric_value REAL,
  string_value TEXT,
  boolean_value INTEGER,
  unit_id TEXT,
  unit_abbreviated_name TEXT,
  bounds_field INTEGER,
  bound_min REAL,
  bound_max REAL,
  expected_value TEXT,
  passed INTEGER NOT NULL,
  timestamp INTEGER NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  created_by_user_id TEXT NOT NULL,
  modified_by_user_id TEXT NOT NULL,
  created_date INTEGER NOT NULL,
  modified_date INTEGER NOT NULL
);
CREATE INDEX test_measurements_org_time ON test_measurements(organization_id, timestamp, pk);
CREATE INDEX test_measurements_report_time ON test_measurements(test_report_id, timestamp, pk);
CREATE INDEX test_measurements_step_time ON test_measurements(test_step_id, timestamp, pk);
CREATE INDEX test_measurements_report_pk ON test_measurements(report_pk);
CREATE INDEX test_measurements_step_pk ON test_measurements(step_pk);
CREATE TABLE test_measurement_channel_names (
  measurement_pk INTEGER NOT NULL REFERENCES test_measurements(pk) ON DELETE CASCADE,
  channel_name TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (measurement_pk, channel_name)
) WITHOUT ROWID;
CREATE INDEX test_measurement_channel_names_name ON test_measurement_channel_names(channel_name, measurement_pk);
${metadataTable('test_measurement_metadata', 'measurement_pk', 'test_measurements')}
`,
};
