// Stored policy and policy-version rows -> wire objects.
import type { Policy, PolicyVersion } from '../../../src-shared/api/policies';
import { formatOptionalTimestamp, formatTimestamp } from '../../../src-shared/api/time';
import { loadByPks } from '../../db/childRows';
import type { Db } from '../../db/database';

export interface PolicyRow {
  pk: number;
  id: string;
  organization_id: string;
  name: string;
  description: string | null;
  cedar_policy: string;
  policy_version_id: string;
  version: number;
  version_notes: string | null;
  generated_change_message: string | null;
  created_by_user_id: string;
  modified_by_user_id: string;
  created_date: number;
  modified_date: number;
  archived_date: number | null;
}

export interface PolicyVersionRow {
  pk: number;
  id: string;
  policy_pk: number;
  version: number;
  version_notes: string | null;
  generated_change_message: string;
  cedar_policy: string;
  created_by_user_id: string;
  created_date: number;
}

export function policyToWire(r: PolicyRow): Policy {
  const p: Policy = {
    policyId: r.id,
    name: r.name,
    organizationId: r.organization_id,
    createdByUserId: r.created_by_user_id,
    modifiedByUserId: r.modified_by_user_id,
    createdDate: formatTimestamp(r.created_date),
    modifiedDate: formatTimestamp(r.modified_date),
    configuration: { cedarPolicy: r.cedar_policy },
    policyVersionId: r.policy_version_id,
    archivedDate: formatOptionalTimestamp(r.archived_date),
    isArchived: r.archived_date !== null,
    version: r.version,
  };
  // proto3 `optional` fields are omitted when unset (reference §1.4).
  if (r.description !== null) p.description = r.description;
  if (r.version_notes !== null) p.versionNotes = r.version_notes;
  if (r.generated_change_message !== null) p.generatedChangeMessage = r.generated_change_message;
  return p;
}

export const loadPolicies = (db: Db, pks: readonly number[]) => loadByPks<PolicyRow>(db, 'policies', pks).map(policyToWire);

export function versionToWire(r: PolicyVersionRow, policyId: string): PolicyVersion {
  const v: PolicyVersion = {
    policyVersionId: r.id,
    policyId,
    version: r.version,
    generatedChangeMessage: r.generated_change_message,
    configuration: { cedarPolicy: r.cedar_policy },
    createdDate: formatTimestamp(r.created_date),
    createdByUserId: r.created_by_user_id,
  };
  if (r.version_notes !== null) v.versionNotes = r.version_notes;
  return v;
}
