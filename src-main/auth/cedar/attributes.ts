// Principal attributes (per organization and user), roles, and resource
// attributes: key/value strings that policies read as Cedar tags
// (`principal.getTag("team")`, `resource.getTag("program")`) and roles as
// `principal.roles` / `principal in Role::"lead"`. The reference documents no
// PrincipalAttributeService or ResourceAttributeService, so they are set from
// the command line (`outpost attributes ...`); every decision reads them fresh.
import type { Db } from '../../db/database';
import { RECORD_TYPES } from './recordTypes';

export class AttributeError extends Error {}

interface Member {
  userId: string;
  userName: string;
  organizationId: string;
  organizationName: string;
}

/** The user (by email/name or id) in the organization (by name or id; may be omitted when the user has one). */
export function findMember(db: Db, user: string, organization?: string): Member {
  const rows = db.all<Member>(
    `SELECT u.id AS userId, u.user_name AS userName, o.id AS organizationId, o.name AS organizationName
     FROM users u JOIN memberships m ON m.user_id = u.id AND m.active = 1 JOIN organizations o ON o.id = m.organization_id
     WHERE (u.user_name = ? OR u.id = ?) ORDER BY o.name`,
    [user, user],
  );
  if (rows.length === 0) throw new AttributeError(`no user '${user}' with an organization in this data directory`);
  const inOrg =
    organization === undefined ? rows : rows.filter((r) => r.organizationName === organization || r.organizationId === organization);
  if (inOrg.length === 0)
    throw new AttributeError(
      `user '${user}' is not a member of '${organization}' (member of: ${rows.map((r) => r.organizationName).join(', ')})`,
    );
  if (inOrg.length > 1)
    throw new AttributeError(
      `user '${user}' is in several organizations (${inOrg.map((r) => r.organizationName).join(', ')}): name one with --org`,
    );
  return inOrg[0];
}

function checkKey(key: string): void {
  if (key.trim() === '') throw new AttributeError('the attribute key must not be empty');
}

export function setPrincipalAttribute(db: Db, member: Member, key: string, value: string): void {
  checkKey(key);
  db.run(
    'INSERT INTO principal_attributes(organization_id, user_id, key, value) VALUES (?, ?, ?, ?) ON CONFLICT(organization_id, user_id, key) DO UPDATE SET value = excluded.value',
    [member.organizationId, member.userId, key, value],
  );
}

export const removePrincipalAttribute = (db: Db, member: Member, key: string): boolean =>
  db.run('DELETE FROM principal_attributes WHERE organization_id = ? AND user_id = ? AND key = ?', [
    member.organizationId,
    member.userId,
    key,
  ]).changes > 0;

export function addRole(db: Db, member: Member, role: string): void {
  if (role.trim() === '') throw new AttributeError('the role must not be empty');
  db.run('INSERT OR IGNORE INTO principal_roles(organization_id, user_id, role) VALUES (?, ?, ?)', [
    member.organizationId,
    member.userId,
    role,
  ]);
}

export const removeRole = (db: Db, member: Member, role: string): boolean =>
  db.run('DELETE FROM principal_roles WHERE organization_id = ? AND user_id = ? AND role = ?', [member.organizationId, member.userId, role])
    .changes > 0;

/** Checks the record exists (so a typo does not silently govern nothing); returns the Cedar entity type name. */
function findRecord(db: Db, type: string, id: string): string {
  const recordType = RECORD_TYPES.find((t) => t.entity.toLowerCase() === type.toLowerCase());
  if (!recordType) throw new AttributeError(`unknown resource type '${type}' (one of: ${RECORD_TYPES.map((t) => t.entity).join(', ')})`);
  if (!db.get(`SELECT 1 FROM ${recordType.table} WHERE id = ?`, [id]))
    throw new AttributeError(`no ${recordType.entity} '${id}' in this data directory`);
  return recordType.entity;
}

export function setResourceAttribute(db: Db, type: string, id: string, key: string, value: string): string {
  checkKey(key);
  const entity = findRecord(db, type, id);
  db.run(
    'INSERT INTO resource_attributes(resource_type, resource_id, key, value) VALUES (?, ?, ?, ?) ON CONFLICT(resource_type, resource_id, key) DO UPDATE SET value = excluded.value',
    [entity, id, key, value],
  );
  return entity;
}

export function removeResourceAttribute(db: Db, type: string, id: string, key: string): boolean {
  const entity = findRecord(db, type, id);
  return db.run('DELETE FROM resource_attributes WHERE resource_type = ? AND resource_id = ? AND key = ?', [entity, id, key]).changes > 0;
}

export interface AttributeListing {
  readonly principals: { user: string; organization: string; key: string; value: string }[];
  readonly roles: { user: string; organization: string; role: string }[];
  readonly resources: { type: string; id: string; key: string; value: string }[];
}

export function listAttributes(db: Db): AttributeListing {
  return {
    principals: db.all(
      `SELECT u.user_name AS user, o.name AS organization, a.key, a.value FROM principal_attributes a
       JOIN organizations o ON o.id = a.organization_id LEFT JOIN users u ON u.id = a.user_id ORDER BY o.name, u.user_name, a.key`,
    ),
    roles: db.all(
      `SELECT u.user_name AS user, o.name AS organization, r.role FROM principal_roles r
       JOIN organizations o ON o.id = r.organization_id LEFT JOIN users u ON u.id = r.user_id ORDER BY o.name, u.user_name, r.role`,
    ),
    resources: db.all(
      'SELECT resource_type AS type, resource_id AS id, key, value FROM resource_attributes ORDER BY resource_type, resource_id, key',
    ),
  };
}
