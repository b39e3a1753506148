// Which organizations a list of reference entities covers. The platform's
// list requests for assets, runs, tags and channels carry no organization
// field, so they cover every organization of the caller; an Outpost
// `organization_id` (validated by resolveOrganization) narrows to one.
import { resolveOrganization, visibleTo, type Caller } from '../../auth/caller';
import type { Scope } from '../../filter/listQuery';

export function organizationScope(caller: Caller, organizationId: string | undefined, column = 't.organization_id'): Scope {
  if (organizationId) {
    const id = resolveOrganization(caller, organizationId);
    return { sql: `${column} = ?`, params: [id], fingerprint: [id] };
  }
  const v = visibleTo(caller, column);
  return { sql: v.sql, params: v.params, fingerprint: v.params };
}
