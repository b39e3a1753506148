// Users, organizations and memberships. The CLI (`keys create`, `seed`) and
// the desktop's local user all default to the same organization and user, so
// a seeded data directory is usable at once.
import { randomUUID } from 'node:crypto';
import { schemaVersion, type Db } from '../db/database';
import type { Caller } from './caller';
import { AUTHORIZATION_SCHEMA_VERSION, defaultPolicyRecord } from './defaultPolicy';
import { insertUnauthoredPolicy } from './policyStore';
import { insertMembershipIfAbsent, insertOrganization, insertUser } from './identityStore';

export const DEFAULT_ORGANIZATION_NAME = 'Field Team';
export const DEFAULT_USER_NAME = 'engineer@outpost.local';

export function ensureOrganization(db: Db, name: string): string {
  const row = db.get<{ id: string }>('SELECT id FROM organizations WHERE name = ?', [name]);
  if (row) return row.id;
  const id = randomUUID();
  db.tx(() => {
    insertOrganization(db, id, name);
    // A new organization's members may do everything until its policies say otherwise (issue #20). In a database
    // not yet at that schema (upgrade tests seed old versions), migration 0015 adds it to every organization.
    if (schemaVersion(db.raw) >= AUTHORIZATION_SCHEMA_VERSION) insertUnauthoredPolicy(db.raw, defaultPolicyRecord(id));
  });
  return id;
}

export function ensureUser(db: Db, userName: string): string {
  const row = db.get<{ id: string }>('SELECT id FROM users WHERE user_name = ?', [userName]);
  if (row) return row.id;
  const id = randomUUID();
  insertUser(db, id, userName);
  return id;
}

export function ensureMembership(db: Db, userId: string, organizationId: string): void {
  insertMembershipIfAbsent(db, userId, organizationId);
}

/** Creates (if needed) the user and organization and links them; returns both ids. */
export function ensureMember(db: Db, userName: string, organizationName: string): { userId: string; organizationId: string } {
  return db.tx(() => {
    const organizationId = ensureOrganization(db, organizationName);
    const userId = ensureUser(db, userName);
    ensureMembership(db, userId, organizationId);
    return { userId, organizationId };
  });
}

export function loadCaller(db: Db, userId: string): Caller | undefined {
  const user = db.get<{ id: string; user_name: string }>('SELECT id, user_name FROM users WHERE id = ?', [userId]);
  if (!user) return undefined;
  const organizations = db.all<{ id: string; name: string }>(
    `SELECT o.id, o.name FROM memberships m JOIN organizations o ON o.id = m.organization_id
     WHERE m.user_id = ? AND m.active = 1 ORDER BY o.created_date, o.id`,
    [userId],
  );
  return { userId: user.id, userName: user.user_name, organizations };
}
