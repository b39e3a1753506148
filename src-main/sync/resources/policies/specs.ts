// How policy writes are recorded and replayed. A create has no field that
// could carry a marker: an unknown outcome is resolved by finding a policy with
// the same name and configuration text, created by us at or after the first
// send, that no local record already stands for, or failing that the only one
// we made within the create's send window (see inflightCreates.ts). Updates
// and (un)archives are idempotent (the same values again change nothing
// remotely) and resent.
import type { Policy, PolicyPatch } from '../../../../src-shared/api/policies';
import { mapLocalId } from '../../idMap';
import { pickCopy } from '../../inflightCreates';
import { applyRemotePolicies, isCopyOfCreate, POLICY, POLICY_SHAPE } from './apply';
import { fieldOfPath } from '../../recordShape';
import type { OutboxEntry } from '../../types';
import {
  defineSpec,
  onlyNewRecords,
  retryAsAsked,
  type EntryOf,
  type OpSpec,
  type PushContext,
  type StoredRequest,
  type WireRequest,
  type WireResponse,
} from '../../spec';
import { setById, wireMembers, wireRequest, type WireMembers } from '../../specForms';
import { compact, mask } from '../../wireEncode';
import { listEvery } from '../../remoteQuery';

/** update_mask paths -> synced field names. */
const fieldsOfMask = (paths: readonly string[]) => [...new Set(paths.map(fieldOfPath(POLICY_SHAPE)))];

/** The members of a policy update whose wire form differs from the request's (unset ones sent as their defaults). */
const policyWire: WireMembers<PolicyPatch> = {
  configuration: (p) => ({ cedarPolicy: p.configuration?.cedarPolicy }),
  isArchived: (p) => p.isArchived ?? false,
  versionNotes: (p) => p.versionNotes ?? '',
};

async function findPolicy(p: PushContext, entry: EntryOf<StoredRequest<'CreatePolicy'>>): Promise<Policy | undefined> {
  const all = await listEvery<Policy>(p.call, 'ListPolicies', 'policies', { pageSize: 100, includeArchived: true });
  return pickCopy(
    all,
    (x) => x.policyId,
    'policies',
    p,
    entry,
    (request, since, x) => isCopyOfCreate(request, since, x, p.userId),
  );
}

const applyPolicy = (p: PushContext, entry: Pick<OutboxEntry, 'seq'>, res: { policy: Policy }) =>
  applyRemotePolicies(p.apply, [res.policy], { excludeSeq: entry.seq });

export const createPolicySpec = defineSpec<'CreatePolicy', WireResponse<'CreatePolicy'> | Policy>({
  operation: 'CreatePolicy',
  ...onlyNewRecords,
  // (Discarded with its versions.)
  create: { created: (_req, res) => [{ resource: POLICY, id: res.policy.policyId }], find: findPolicy, refused: retryAsAsked },
  // (Its configuration is the Cedar text alone: the request travels as it was validated.)
  encode: (req) => wireRequest(req, {}) as WireRequest<'CreatePolicy'>,
  applyResult(p, entry, res) {
    const policy = 'policy' in res ? res.policy : res;
    mapLocalId(p, POLICY, entry.createdIds[0].id, policy.policyId);
    applyRemotePolicies(p.apply, [policy], { excludeSeq: entry.seq });
  },
});

export const updatePolicySpec = defineSpec<'UpdatePolicy'>({
  operation: 'UpdatePolicy',
  targets: (req) => [{ resource: POLICY, recordId: req.policy.policyId, fields: fieldsOfMask(req.updateMask ?? []) }],
  encode(req) {
    const fields = fieldsOfMask(req.updateMask ?? []);
    const policy = { policyId: req.policy.policyId, ...wireMembers(req.policy, fields, policyWire) };
    return compact({ policy, updateMask: mask(fields), versionNotes: req.versionNotes ?? req.policy.versionNotes });
  },
  applyResult: applyPolicy,
  dropField(req, _id, field) {
    const left = fieldsOfMask(req.updateMask ?? []).filter((f) => f !== field);
    return left.length ? { ...req, updateMask: left } : null;
  },
  notFound: 'conflict',
});

const archiveSpec = (operation: 'ArchivePolicy' | 'UnarchivePolicy'): OpSpec =>
  setById({ operation, resource: POLICY, id: 'policyId', field: 'is_archived', applyResult: applyPolicy });

export const archivePolicySpec = archiveSpec('ArchivePolicy');
export const unarchivePolicySpec = archiveSpec('UnarchivePolicy');

export const policySpecs: readonly OpSpec[] = [createPolicySpec, updatePolicySpec, archivePolicySpec, unarchivePolicySpec];
