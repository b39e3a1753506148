// Policies (Cedar text, versioned) as the policy view uses them.
import type { Policy, PolicyVersion } from '../../../../src-shared/api/policies';
import type { Client } from '../../../../src-shared/client';

export type { Policy, PolicyVersion };

/** ListPolicies allows at most 100 per page. */
export const POLICY_PAGE_SIZE = 100;

export const NEW_POLICY_TEMPLATE = `// Who may do what. Cedar: https://docs.cedarpolicy.com
permit (
  principal,
  action,
  resource
);
`;

export async function listPolicies(
  client: Client,
  includeArchived: boolean,
  pageToken?: string,
): Promise<{ policies: Policy[]; nextPageToken: string }> {
  const res = await client.ListPolicies({
    pageSize: POLICY_PAGE_SIZE,
    orderBy: 'name',
    ...(includeArchived ? { includeArchived: true } : {}),
    ...(pageToken ? { pageToken } : {}),
  });
  return { policies: res.policies, nextPageToken: res.nextPageToken };
}

/** One policy by id (the palette and the address open one that is not listed yet). */
export async function getPolicy(client: Client, policyId: string): Promise<Policy> {
  return (await client.GetPolicy({ policyId })).policy;
}

export async function createPolicy(client: Client, name: string, cedarPolicy: string, description = ''): Promise<Policy> {
  const res = await client.CreatePolicy({
    name,
    configuration: { cedarPolicy },
    ...(description ? { description } : {}),
    versionNotes: 'Created',
  });
  return res.policy;
}

/** Saves new Cedar text (a new version when it differs); `versionNotes` says why. */
export async function savePolicyText(client: Client, policyId: string, cedarPolicy: string, versionNotes: string): Promise<Policy> {
  const notes = versionNotes.trim();
  const res = await client.UpdatePolicy({
    policy: { policyId, configuration: { cedarPolicy } },
    updateMask: 'configuration',
    ...(notes ? { versionNotes: notes } : {}),
  });
  return res.policy;
}

export interface Validation {
  readonly valid: boolean;
  readonly message: string;
}

export async function validatePolicyText(client: Client, cedarPolicy: string): Promise<Validation> {
  const res = await client.ValidatePolicy({ cedarPolicy });
  return { valid: res.valid, message: res.valid ? 'Valid Cedar.' : (res.failureMessage ?? 'Invalid Cedar.') };
}

export async function setPolicyArchived(client: Client, policyId: string, archived: boolean): Promise<Policy> {
  const res = archived ? await client.ArchivePolicy({ policyId }) : await client.UnarchivePolicy({ policyId });
  return res.policy;
}

/** Every stored version, newest first (follows page tokens up to `limit`). */
export async function listVersions(client: Client, policyId: string, limit = 500): Promise<PolicyVersion[]> {
  const versions: PolicyVersion[] = [];
  let pageToken: string | undefined;
  do {
    const res = await client.ListPolicyVersions({ policyId, pageSize: 100, ...(pageToken ? { pageToken } : {}) });
    versions.push(...res.policyVersions);
    pageToken = res.nextPageToken || undefined;
  } while (pageToken && versions.length < limit);
  return versions;
}
