// The policy every new organization starts with: its members may do
// everything, so a fresh install behaves as before policies decided. It is an
// ordinary policy (listed, editable, archivable, versioned); forbid policies
// narrow it, and archiving it leaves only the permits the organization writes.
import { randomUUID } from 'node:crypto';
import { nowMicros } from '../../src-shared/api/time';

/** The schema version (migration 0015) from which organizations have policies that decide. */
export const AUTHORIZATION_SCHEMA_VERSION = 15;

export const DEFAULT_POLICY_NAME = 'Members may do everything';

export const defaultPolicyText = (organizationId: string): string =>
  `// Outpost's default policy: every member of this organization may do everything.\n` +
  `// Add forbid policies to narrow it, or archive it and write your own permits.\n` +
  `permit(principal in Organization::${JSON.stringify(organizationId)}, action, resource);\n`;

/** The default policy of an organization as the row to write (version 1, no author): auth/policyStore.ts writes it, migration 0015 its own way. */
export function defaultPolicyRecord(organizationId: string) {
  return {
    id: randomUUID(),
    organizationId,
    name: DEFAULT_POLICY_NAME,
    description: 'Created with the organization',
    text: defaultPolicyText(organizationId),
    versionId: randomUUID(),
    message: 'Created with 1 policy (+3 lines)',
    now: nowMicros(),
  };
}
