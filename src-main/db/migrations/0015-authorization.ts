// Cedar policies decide every operation (issue #20). Principal attributes
// (per organization and user), roles and resource attributes are key/value
// strings the policies read as Cedar tags. Every existing organization gets
// the default policy (members may do everything), so an upgraded install
// behaves as before; policies it already had keep applying on top (a forbid
// narrows it).
import { insertDefaultPolicy } from '../../auth/cedar/defaultPolicy';
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
  up: (db) => {
    const orgs = db.prepare('SELECT id FROM organizations ORDER BY created_date, id').all() as { id: string }[];
    for (const o of orgs) insertDefaultPolicy(db, o.id);
  },
};
