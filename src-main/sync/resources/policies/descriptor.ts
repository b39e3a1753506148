// Policies as a replicated resource (see NOTES.md here).
import type { Policy } from '../../../../src-shared/api/policies';
import type { RecordKind, ReplicatedResource, UndoWrite } from '../../resource';
import { policyRows } from '../../../auth/policyStore';
import { snapshotOf } from '../../recordShape';
import { applyRemotePolicies, POLICY, POLICY_SHAPE } from './apply';
import { policiesPuller } from './puller';
import { policySpecs } from './specs';
import { keptPreLink } from '../../preLinkCount';

/** The losing archive state, Cedar text, name or description, written again through the policy's own operations. */
function undo(policyId: string, field: string, value: unknown): UndoWrite | undefined {
  if (field === 'is_archived') return { operation: value ? 'ArchivePolicy' : 'UnarchivePolicy', request: { policyId } };
  if (field === 'configuration')
    return {
      operation: 'UpdatePolicy',
      request: { policy: { policyId, configuration: { cedarPolicy: value } }, updateMask: 'configuration' },
    };
  if (field === 'name' || field === 'description')
    return { operation: 'UpdatePolicy', request: { policy: { policyId, [field]: value ?? '' }, updateMask: field } };
  return undefined;
}

const policy: RecordKind = {
  resource: POLICY,
  rows: policyRows,
  merge: { snapshot: snapshotOf(POLICY_SHAPE), undo },
  refetch: {
    read: async (_s, call, id) => (await call('GetPolicy', { policyId: id })).policy,
    apply: (s, p) => applyRemotePolicies(s.applier, [p as Policy], { force: true }),
  },
};

export const policies: ReplicatedResource = {
  name: 'policies',
  records: [policy],
  specs: policySpecs,
  pullers: [policiesPuller],
  preLink: [
    keptPreLink(
      POLICY,
      'policies',
      'policies',
      'access policies of the local organization: they would change who may do what in the remote organization; create them there if they should apply',
      // The default policy every organization starts with is nobody's work (auth/defaultPolicy.ts makes it with no author).
      "created_by_user_id = ''",
    ),
  ],
};
