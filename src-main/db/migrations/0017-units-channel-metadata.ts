// Units (UnitService: ListUnits, CreateUnit), one name per organization, and channel metadata (UpdateChannel's
// `metadata` mask path), a child table like every other record's metadata (0001, 0014).
import type { Migration } from './types';

export const migration0017: Migration = {
  version: 17,
  name: 'units-channel-metadata',
  sql: `
CREATE TABLE units (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL,
  created_date INTEGER NOT NULL,
  created_by_user_id TEXT NOT NULL,
  UNIQUE (organization_id, name)
);
CREATE INDEX units_org_created ON units(organization_id, created_date, pk);

CREATE TABLE channel_metadata (
  channel_pk INTEGER NOT NULL REFERENCES channels(pk) ON DELETE CASCADE,
  key TEXT NOT NULL,
  type INTEGER NOT NULL,
  string_value TEXT,
  number_value REAL,
  boolean_value INTEGER,
  position INTEGER NOT NULL,
  archived_date INTEGER,
  key_archived_date INTEGER,
  key_filter_field_type INTEGER,
  PRIMARY KEY (channel_pk, key)
) WITHOUT ROWID;
`,
};
