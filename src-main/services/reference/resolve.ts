// Name/id resolution against the reference entities (assets, runs, tags,
// channels, users) within one organization. Unknown references are
// INVALID_ARGUMENT naming the value; tags are created on first use.
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../../src-shared/errors';
import { nowMicros } from '../../../src-shared/api/time';
import type { Db } from '../../db/database';
import { insertTag } from './referenceStores';

export function resolveAssetNames(db: Db, organizationId: string, names: readonly string[], field = 'assets'): string[] {
  const ids: string[] = [];
  const missing: string[] = [];
  for (const name of new Set(names)) {
    const row = db.get<{ id: string }>('SELECT id FROM assets WHERE organization_id = ? AND name = ?', [organizationId, name]);
    if (row) ids.push(row.id);
    else missing.push(name);
  }
  if (missing.length)
    throw ApiError.invalid(field, `unknown asset${missing.length > 1 ? 's' : ''}: ${missing.map((m) => `'${m}'`).join(', ')}`);
  return ids;
}

export function assertRunExists(db: Db, organizationId: string, runId: string, field = 'run_id'): void {
  if (!db.get('SELECT 1 FROM runs WHERE organization_id = ? AND id = ?', [organizationId, runId])) {
    throw ApiError.invalid(field, `unknown run '${runId}'`);
  }
}

export function assertChannelsExist(db: Db, organizationId: string, channelIds: readonly string[], field = 'linked_channels'): void {
  const missing = [...new Set(channelIds)].filter(
    (id) => !db.get('SELECT 1 FROM channels WHERE organization_id = ? AND id = ?', [organizationId, id]),
  );
  if (missing.length)
    throw ApiError.invalid(field, `unknown channel${missing.length > 1 ? 's' : ''}: ${missing.map((m) => `'${m}'`).join(', ')}`);
}

/** A user who is a member of the organization; returns their user name (the email). */
export function resolveMember(db: Db, organizationId: string, userId: string, field: string): string {
  const row = db.get<{ user_name: string }>(
    'SELECT u.user_name FROM users u JOIN memberships m ON m.user_id = u.id WHERE u.id = ? AND m.organization_id = ?',
    [userId, organizationId],
  );
  if (!row) throw ApiError.invalid(field, `unknown user '${userId}' in this organization`);
  return row.user_name;
}

/** Tag names are stored on resources; the tag entity is created on first use. */
export function ensureTags(db: Db, organizationId: string, userId: string, names: readonly string[], field = 'tags'): string[] {
  const unique = [...new Set(names.map((n) => n.trim()))];
  if (unique.some((n) => n === '')) throw ApiError.invalid(field, 'tag names must not be empty');
  for (const name of unique) {
    insertTag(
      db,
      { id: randomUUID(), organization_id: organizationId, name, created_by_user_id: userId, created_date: nowMicros() },
      { ifAbsent: true },
    );
  }
  return unique;
}
