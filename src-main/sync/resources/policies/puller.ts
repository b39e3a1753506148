// Pulls policies, archived ones included (archives are state), incrementally
// on modified_date. ListPolicies has no organization_id: one list covers every
// organization of the caller. Its pages hold at most 100.
import type { Policy } from '../../../../src-shared/api/policies';
import { changedBy } from '../../apply';
import type { Puller } from '../../pull';
import { applyRemotePolicies, POLICY } from './apply';

export const policiesPuller: Puller<Policy> = {
  resource: 'policies',
  collisions: { table: 'policies', kind: POLICY },
  readAgain: { whileEditsOf: POLICY },
  operation: 'ListPolicies',
  listField: 'policies',
  listing: { by: 'modified_date', orderable: true },
  idOf: (p) => p.policyId,
  variants: () => [{ includeArchived: true, pageSize: 100 }],
  /** Counts policies inserted or changed here (an unchanged re-read in the overlap window counts 0). */
  apply(s, items) {
    return changedBy(s.applier.stats, () => applyRemotePolicies(s.applier, items));
  },
};
