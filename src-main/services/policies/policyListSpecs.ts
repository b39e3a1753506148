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
  // Documented CEL filter fields (reference §7), wired by the filter engine later:
  //   policy_id (t.id), organization_id, name, description (nullable), created_by_user_id,
  //   modified_by_user_id (strings); created_date, modified_date (timestamps).
  // Archive state is NOT filterable: it is the include_archived parameter.
  filterFields: {},
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
  // No filter fields (Outpost extension).
  filterFields: {},
};
