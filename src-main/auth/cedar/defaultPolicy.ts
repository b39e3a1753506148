// The policy every new organization starts with: its members may do
// everything, so a fresh install behaves as before policies decided. It is an
// ordinary policy (listed, editable, archivable, versioned); forbid policies
// narrow it, and archiving it leaves only the permits the organization writes.
import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import { nowMicros } from '../../../src-shared/api/time';

/** The schema version (migration 0015) from which organizations have policies that decide. */
export const AUTHORIZATION_SCHEMA_VERSION = 15;

export const DEFAULT_POLICY_NAME = 'Members may do everything';

export const defaultPolicyText = (organizationId: string): string =>
  `// Outpost's default policy: every member of this organization may do everything.\n` +
  `// Add forbid policies to narrow it, or archive it and write your own permits.\n` +
  `permit(principal in Organization::${JSON.stringify(organizationId)}, action, resource);\n`;

/** Inserts the default policy (version 1) for an organization. Takes the raw connection so migrations can use it. */
export function insertDefaultPolicy(db: Pick<Database, 'prepare'>, organizationId: string): void {
  const now = nowMicros();
  const versionId = randomUUID();
  const text = defaultPolicyText(organizationId);
  const message = 'Created with 1 policy (+3 lines)';
  const info = db
    .prepare(
      `INSERT INTO policies(id, organization_id, name, description, cedar_policy, policy_version_id, version, version_notes, generated_change_message,
         created_by_user_id, modified_by_user_id, created_date, modified_date)
       VALUES (?, ?, ?, ?, ?, ?, 1, NULL, ?, '', '', ?, ?)`,
    )
    .run(randomUUID(), organizationId, DEFAULT_POLICY_NAME, 'Created with the organization', text, versionId, message, now, now);
  db.prepare(
    `INSERT INTO policy_versions(id, policy_pk, version, version_notes, generated_change_message, cedar_policy, created_by_user_id, created_date)
     VALUES (?, ?, 1, NULL, ?, ?, '', ?)`,
  ).run(versionId, info.lastInsertRowid, message, text, now);
}
