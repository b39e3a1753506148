// Who is calling, and which organization a request acts in. Spec rule 1:
// organizationId is required exactly when the caller belongs to more than one
// organization; nothing of another organization is ever visible.
import { ApiError, Code } from '../../src-shared/errors';

export interface Organization {
  readonly id: string;
  readonly name: string;
}

export interface Caller {
  readonly userId: string;
  readonly userName: string;
  readonly organizations: readonly Organization[];
  /**
   * The data directory's owner: the desktop app's user, `outpost serve`'s session key, a key made with
   * `outpost keys create --owner`. Only the owner links, unlinks and syncs the remote, and on a replica only the
   * owner's calls act as the remote user.
   */
  readonly owner?: boolean;
}

export function organizationIds(caller: Caller): string[] {
  return caller.organizations.map((o) => o.id);
}

/** The organization a write or list acts in. */
export function resolveOrganization(caller: Caller, requested: string | undefined): string {
  if (requested) {
    if (!caller.organizations.some((o) => o.id === requested)) {
      throw new ApiError(Code.NOT_FOUND, `organization not found: ${requested}`);
    }
    return requested;
  }
  if (caller.organizations.length === 1) return caller.organizations[0].id;
  if (caller.organizations.length === 0) throw ApiError.permissionDenied('the caller belongs to no organization');
  throw ApiError.invalid('organization_id', `is required: the caller belongs to ${caller.organizations.length} organizations`);
}

/** SQL fragment + params restricting `column` to the caller's organizations. */
export function visibleTo(caller: Caller, column: string): { sql: string; params: string[] } {
  const ids = organizationIds(caller);
  if (ids.length === 0) return { sql: '0', params: [] };
  return { sql: `${column} IN (${ids.map(() => '?').join(', ')})`, params: ids };
}
