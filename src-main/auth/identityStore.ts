// The identity tables — users, organizations, memberships — are written here
// and nowhere else: by the local identity (the CLI's and the desktop's default
// user and organization, the seed) and by sync (the remote's user and
// organizations with the remote's ids, placeholder organizations that pulled
// records reference). api_keys has its own writer, apiKeys.ts.
import { nowMicros } from '../../src-shared/api/time';
import type { Db } from '../db/database';

export function insertOrganization(db: Db, id: string, name: string): void {
  db.run('INSERT INTO organizations(id, name, created_date) VALUES (?, ?, ?)', [id, name, nowMicros()]);
}

export function insertUser(db: Db, id: string, userName: string): void {
  const now = nowMicros();
  db.run('INSERT INTO users(id, user_name, created_date, modified_date) VALUES (?, ?, ?, ?)', [id, userName, now, now]);
}

/** Adds a membership unless there is one (active or not). */
export function insertMembershipIfAbsent(db: Db, userId: string, organizationId: string): void {
  db.run('INSERT OR IGNORE INTO memberships(user_id, organization_id) VALUES (?, ?)', [userId, organizationId]);
}

/**
 * A remote user with the remote's id; a different local user of the same name is renamed out of the way. Returns
 * whether the user was inserted or renamed (false: already here as it is).
 */
export function upsertRemoteUser(db: Db, id: string, userName: string): boolean {
  const clash = db.get<{ id: string }>('SELECT id FROM users WHERE user_name = ? AND id != ?', [userName, id]);
  if (clash) db.run('UPDATE users SET user_name = ? WHERE id = ?', [`${userName} (local ${clash.id.slice(0, 8)})`, clash.id]);
  const now = nowMicros();
  return (
    db.run(
      `INSERT INTO users(id, user_name, created_date, modified_date) VALUES (?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET user_name = excluded.user_name WHERE users.user_name != excluded.user_name`,
      [id, userName, now, now],
    ).changes > 0
  );
}

/** An organization row for `id` unless there is one, named after its id until a listing names it. */
export function ensureOrganizationRow(db: Db, id: string): void {
  db.run('INSERT OR IGNORE INTO organizations(id, name, created_date) VALUES (?, ?, ?)', [id, `organization ${id}`, nowMicros()]);
}

/** A remote organization with the remote's id and name; a different local one of that name is renamed out of the way. */
export function upsertRemoteOrganization(db: Db, id: string, name: string): void {
  const clash = db.get<{ id: string }>('SELECT id FROM organizations WHERE name = ? AND id != ?', [name, id]);
  if (clash) db.run('UPDATE organizations SET name = ? WHERE id = ?', [`${name} (local ${clash.id.slice(0, 8)})`, clash.id]);
  db.run(
    'INSERT INTO organizations(id, name, created_date) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET name = excluded.name WHERE organizations.name != excluded.name',
    [id, name, nowMicros()],
  );
}

/** Returns whether the membership was added or made active again (false: already active). */
export function upsertActiveMembership(db: Db, userId: string, organizationId: string): boolean {
  return (
    db.run(
      'INSERT INTO memberships(user_id, organization_id, active) VALUES (?, ?, 1) ON CONFLICT(user_id, organization_id) DO UPDATE SET active = 1 WHERE active != 1',
      [userId, organizationId],
    ).changes > 0
  );
}
