// Spec fields kept instead of dropped (#15 item 3): on every metadata entry the
// value's and the key's archive date, and the key's filter field type when a
// remote sends one (NULL: derived from the key type); on test reports the
// remote's overall modified date (NULL: computed here from the report, its
// steps and measurements).
import type { Migration } from './types';

const METADATA_TABLES = [
  'annotation_metadata',
  'artifact_metadata',
  'asset_metadata',
  'rule_metadata',
  'run_metadata',
  'remote_file_metadata',
  'test_report_metadata',
  'test_step_metadata',
  'test_measurement_metadata',
];

export const migration0014: Migration = {
  version: 14,
  name: 'metadata-archive-overall-modified',
  sql: [
    ...METADATA_TABLES.flatMap((t) => [
      `ALTER TABLE ${t} ADD COLUMN archived_date INTEGER;`,
      `ALTER TABLE ${t} ADD COLUMN key_archived_date INTEGER;`,
      `ALTER TABLE ${t} ADD COLUMN key_filter_field_type INTEGER;`,
    ]),
    'ALTER TABLE test_reports ADD COLUMN overall_modified_date INTEGER;',
  ].join('\n'),
};
