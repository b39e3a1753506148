// Cedar policies decide every operation (issue #20). Principal attributes
// (per organization and user), roles and resource attributes are key/value
// strings the policies read as Cedar tags. Every existing organization gets
// the default policy (members may do everything), so an upgraded install
// behaves as before; policies it already had keep applying on top (a forbid
// narrows it). auth/defaultPolicy.ts makes that policy and openEngine passes
// it in: the database layer imports no layer above it.
import type { Migration } from './types';

export const migration0015: Migration = {
  version: 15,
  name: 'authorization',
  sql: `
CREATE TABLE principal_attributes (
  organization_id TEXT NOT NULL REFERENCES organizations(id),
  user_id TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (organization_id, user_id, key)
) WITHOUT ROWID;

CREATE TABLE principal_roles (
  organization_id TEXT NOT NULL REFERENCES organizations(id),
  user_id TEXT NOT NULL,
  role TEXT NOT NULL,
  PRIMARY KEY (organization_id, user_id, role)
) WITHOUT ROWID;

CREATE TABLE resource_attributes (
  resource_type TEXT NOT NULL,
  resource_id TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (resource_type, resource_id, key)
) WITHOUT ROWID;

CREATE INDEX policies_org_active ON policies(organization_id, archived_date, pk);
`,
  up: (db, data) => {
    const orgs = db.prepare('SELECT id FROM organizations ORDER BY created_date, id').all() as { id: string }[];
    // The policy tables as they are at version 15 (a migration writes its own SQL: later schema changes must not change it).
    const policy = db.prepare(
      `INSERT INTO policies(id, organization_id, name, description, cedar_policy, policy_version_id, version, version_notes, generated_change_message,
         created_by_user_id, modified_by_user_id, created_date, modified_date)
       VALUES (?, ?, ?, ?, ?, ?, 1, NULL, ?, '', '', ?, ?)`,
    );
    const version = db.prepare(
      `INSERT INTO policy_versions(id, policy_pk, version, version_notes, generated_change_message, cedar_policy, created_by_user_id, created_date)
       VALUES (?, ?, 1, NULL, ?, ?, '', ?)`,
    );
    if (orgs.length && !data.defaultPolicy) {
      throw new Error(
        'migration 0015 gives every organization the default policy: open the database with it (openEngine passes auth/defaultPolicy.ts)',
      );
    }
    for (const o of orgs) {
      const p = data.defaultPolicy!(o.id);
      const { lastInsertRowid } = policy.run(p.id, p.organizationId, p.name, p.description, p.text, p.versionId, p.message, p.now, p.now);
      version.run(p.versionId, lastInsertRowid, p.message, p.text, p.now);
    }
  },
};
