// Users (reference §11.4) and GetMe. A user is visible only to callers who
// share an active organization with them, and only those shared
// organizations are listed on the user (nothing of another organization leaks).
import type { GetMe } from '../../../src-shared/api/users';
import { formatTimestamp } from '../../../src-shared/api/time';
import { ApiError } from '../../../src-shared/errors';
import { organizationIds, resolveOrganization, type Caller } from '../../auth/caller';
import type { Db } from '../../db/database';
import type { RequestContext } from '../../engine';
import { listPage, type ListParams, type Scope } from '../../filter/listQuery';
import type { ListSpec } from '../../filter/resource';
import { allUserListSpec, userListSpec } from './listSpecs';

interface UserOut {
  userId: string;
  userName: string;
  organizations: { organizationId: string; organizationName: string; isAbacEnabled: boolean }[];
}

/** Each user's active organizations that the caller also belongs to. */
function sharedOrganizations(db: Db, caller: Caller, userIds: readonly string[]): Map<string, UserOut['organizations']> {
  const out = new Map<string, UserOut['organizations']>();
  const rows = db.all<{ user_id: string; id: string; name: string }>(
    `SELECT m.user_id, o.id, o.name FROM memberships m JOIN organizations o ON o.id = m.organization_id
     WHERE m.active = 1 AND m.user_id IN (SELECT value FROM json_each(?)) AND o.id IN (SELECT value FROM json_each(?))
     ORDER BY m.user_id, o.created_date, o.id`,
    [JSON.stringify(userIds), JSON.stringify(organizationIds(caller))],
  );
  for (const r of rows) {
    let list = out.get(r.user_id);
    if (!list) out.set(r.user_id, (list = []));
    list.push({ organizationId: r.id, organizationName: r.name, isAbacEnabled: true });
  }
  return out;
}

export function getUser(ctx: RequestContext, userId: string): { user: UserOut } {
  const user = ctx.db.get<{ id: string; user_name: string }>('SELECT id, user_name FROM users WHERE id = ?', [userId]);
  const organizations = user ? sharedOrganizations(ctx.db, ctx.caller, [user.id]).get(user.id) : undefined;
  if (!user || !organizations) throw ApiError.notFound('user', userId);
  return { user: { userId: user.id, userName: user.user_name, organizations } };
}

/** ListActiveUsers: the active members of one organization (organization_id is required for callers in several). */
export function listActiveUsers(ctx: RequestContext, req: ListParams & { organizationId?: string }) {
  const organizationId = resolveOrganization(ctx.caller, req.organizationId);
  const scope = {
    sql: 'EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = t.id AND m.organization_id = ? AND m.active = 1)',
    params: [organizationId],
    fingerprint: [organizationId],
  };
  return usersPage(ctx, userListSpec, req, scope);
}

/** ListUsers: every member, active or not, of any of the caller's organizations. */
export function listUsers(ctx: RequestContext, req: ListParams) {
  const organizations = JSON.stringify(organizationIds(ctx.caller));
  const scope = {
    sql: 'EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = t.id AND m.organization_id IN (SELECT value FROM json_each(?)))',
    params: [organizations],
    fingerprint: [organizations],
  };
  return usersPage(ctx, allUserListSpec, req, scope);
}

function usersPage(ctx: RequestContext, spec: ListSpec, req: ListParams, scope: Scope) {
  const page = listPage(ctx.db, spec, req, scope, ctx.engine.pageTokenSecret);
  const rows = ctx.db.all<{ seq: number; id: string; user_name: string }>(
    'SELECT seq, id, user_name FROM users WHERE seq IN (SELECT value FROM json_each(?))',
    [JSON.stringify(page.keys)],
  );
  const bySeq = new Map(rows.map((r) => [r.seq, r]));
  const ordered = page.keys.map((k) => bySeq.get(k)!).filter(Boolean);
  const orgs = sharedOrganizations(
    ctx.db,
    ctx.caller,
    ordered.map((r) => r.id),
  );
  return {
    users: ordered.map((r) => ({ userId: r.id, userName: r.user_name, organizations: orgs.get(r.id) ?? [] })),
    nextPageToken: page.nextPageToken,
  };
}

export function getMe(ctx: RequestContext): GetMe {
  const { caller } = ctx;
  const user = ctx.db.get<{ created_date: number }>('SELECT created_date FROM users WHERE id = ?', [caller.userId]);
  if (!user) throw ApiError.unauthenticated('the calling user no longer exists');
  return {
    userId: caller.userId,
    userEmail: caller.userName,
    organizations: caller.organizations.map((o) => ({ organizationId: o.id, organizationName: o.name, isAbacEnabled: true })),
    // Outpost has no platform roles; access is decided by organization membership (and policies).
    isAdmin: false,
    permissions: { organizationPermissionResources: {} },
    createdDate: formatTimestamp(user.created_date),
    hashBasedMessageAuthenticationCode: '',
  };
}
