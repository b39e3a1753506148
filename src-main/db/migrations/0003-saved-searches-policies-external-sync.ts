// Saved searches, policies (with every configuration version), and external
// (SCIM) sync tokens.
//
// - A saved search is never filtered by its properties, so they are stored as
//   one validated JSON document (lossless, and new UI properties need no
//   migration). Delete is a hard delete (SavedSearch has no archived state).
// - A policy row holds the current version's fields; policy_versions keeps
//   every configuration (version 1..n) for the history view.
// - External sync tokens are stored only as SHA-256 hashes; the newest token
//   of an organization supersedes the earlier ones.
import type { Migration } from './types';

export const migration0003: Migration = {
  version: 3,
  name: 'saved-searches-policies-external-sync',
  sql: `
CREATE TABLE saved_searches (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL,
  properties TEXT NOT NULL CHECK (json_valid(properties)),
  created_by_user_id TEXT NOT NULL,
  modified_by_user_id TEXT NOT NULL,
  created_date INTEGER NOT NULL,
  modified_date INTEGER NOT NULL
);
CREATE INDEX saved_searches_org_created ON saved_searches(organization_id, created_date, pk);
CREATE INDEX saved_searches_org_modified ON saved_searches(organization_id, modified_date, pk);
CREATE INDEX saved_searches_org_name ON saved_searches(organization_id, name, pk);

CREATE TABLE policies (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL,
  description TEXT,
  cedar_policy TEXT NOT NULL,
  policy_version_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  version_notes TEXT,
  generated_change_message TEXT,
  created_by_user_id TEXT NOT NULL,
  modified_by_user_id TEXT NOT NULL,
  created_date INTEGER NOT NULL,
  modified_date INTEGER NOT NULL,
  archived_date INTEGER
);
CREATE INDEX policies_org_created ON policies(organization_id, created_date, pk);
CREATE INDEX policies_org_modified ON policies(organization_id, modified_date, pk);
CREATE INDEX policies_org_name ON policies(organization_id, name, pk);

CREATE TABLE policy_versions (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  policy_pk INTEGER NOT NULL REFERENCES policies(pk) ON DELETE CASCADE,
  version INTEGER NOT NULL,
  version_notes TEXT,
  generated_change_message TEXT NOT NULL,
  cedar_policy TEXT NOT NULL,
  created_by_user_id TEXT NOT NULL,
  created_date INTEGER NOT NULL,
  UNIQUE (policy_pk, version)
);

CREATE TABLE external_sync_tokens (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id),
  token_hash TEXT NOT NULL UNIQUE,
  lifetime_seconds INTEGER NOT NULL,
  created_by_user_id TEXT NOT NULL,
  created_date INTEGER NOT NULL
);
CREATE INDEX external_sync_tokens_org_created ON external_sync_tokens(organization_id, created_date, pk);
`,
};
