// ListPolicies (reference §1.6: created_date desc; created_date, modified_date,
// name; 50 / 100) and the Outpost extension ListPolicyVersions (newest first).
import type { ListSpec } from '../../filter/resource';

export const policyListSpec: ListSpec = {
  resource: 'policies',
  from: 'policies t',
  tieBreak: 't.pk',
  orderFields: {
    created_date: { sql: 't.created_date', type: 'number' },
    modified_date: { sql: 't.modified_date', type: 'number' },
    name: { sql: 't.name', type: 'text' },
  },
  defaultOrder: [{ field: 'created_date', desc: true }],
  defaultPageSize: 50,
  maxPageSize: 100,
  // CEL filter fields (reference §7). Archive state is NOT filterable: it is
  // the include_archived request field (the service scopes by it), so
  // archived_date / is_archived are undeclared references here.
  filterFields: {
    policy_id: { kind: 'scalar', type: 'string', sql: 't.id' },
    organization_id: { kind: 'scalar', type: 'string', sql: 't.organization_id' },
    name: { kind: 'scalar', type: 'string', sql: 't.name' },
    // proto3 optional: NULL (omitted on the wire) reads as CEL null.
    description: { kind: 'scalar', type: 'string', sql: 't.description', nullable: true },
    created_by_user_id: { kind: 'scalar', type: 'string', sql: 't.created_by_user_id' },
    modified_by_user_id: { kind: 'scalar', type: 'string', sql: 't.modified_by_user_id' },
    created_date: { kind: 'scalar', type: 'timestamp', sql: 't.created_date' },
    modified_date: { kind: 'scalar', type: 'timestamp', sql: 't.modified_date' },
  },
};

export const policyVersionListSpec: ListSpec = {
  resource: 'policy_versions',
  from: 'policy_versions t',
  tieBreak: 't.pk',
  orderFields: {
    version: { sql: 't.version', type: 'number' },
    created_date: { sql: 't.created_date', type: 'number' },
  },
  defaultOrder: [{ field: 'version', desc: true }],
  defaultPageSize: 50,
  maxPageSize: 1000,
  // Outpost extension, so no documented fields: the PolicyVersion wire fields
  // the history view may narrow by (the request already accepts a filter).
  filterFields: {
    policy_version_id: { kind: 'scalar', type: 'string', sql: 't.id' },
    version: { kind: 'scalar', type: 'int', sql: 't.version' },
    version_notes: { kind: 'scalar', type: 'string', sql: 't.version_notes', nullable: true },
    generated_change_message: { kind: 'scalar', type: 'string', sql: 't.generated_change_message' },
    created_by_user_id: { kind: 'scalar', type: 'string', sql: 't.created_by_user_id' },
    created_date: { kind: 'scalar', type: 'timestamp', sql: 't.created_date' },
  },
};
