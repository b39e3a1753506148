// Pulls policies, archived ones included (archives are state), incrementally
// on modified_date. ListPolicies has no organization_id: one list covers every
// organization of the caller. Its pages hold at most 100.
import type { Policy } from '../../../src-shared/api/policies';
import { timeOfField, type Puller } from '../pull';

export const policiesPuller: Puller<Policy> = {
  resource: 'policies',
  operation: 'ListPolicies',
  listField: 'policies',
  mode: 'modified',
  orderable: true,
  maxPageSize: 100,
  timeOf: timeOfField('modifiedDate'),
  idOf: (p) => p.policyId,
  variants: () => [{ includeArchived: true }],
  apply(s, items) {
    s.applier.policies(items);
    return items.length;
  },
};
