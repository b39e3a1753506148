import { describe, expect, test } from 'vitest';
import { fakeClient } from '../testing/fakeClient';
import { policy, policyVersion } from '../testing/moreFactories';
import { createPolicy, listPolicies, listVersions, savePolicyText, setPolicyArchived, validatePolicyText } from './policyService';

describe('policyService', () => {
  test('listPolicies: name order, archived only when asked', async () => {
    const fake = fakeClient().on('ListPolicies', () => ({ policies: [policy()], nextPageToken: '' }));
    await listPolicies(fake.client, false);
    await listPolicies(fake.client, true, 'tok');
    expect(fake.callsTo('ListPolicies')).toEqual([
      { pageSize: 100, orderBy: 'name' },
      { pageSize: 100, orderBy: 'name', includeArchived: true, pageToken: 'tok' },
    ]);
  });

  test('savePolicyText sends the configuration mask and the request-level version notes', async () => {
    const p = policy();
    const fake = fakeClient().on('UpdatePolicy', () => ({ policy: p }));
    await savePolicyText(fake.client, p.policyId, 'forbid (principal, action, resource);', '  tighten  ');
    await savePolicyText(fake.client, p.policyId, 'x', '  ');
    expect(fake.callsTo('UpdatePolicy')).toEqual([
      {
        policy: { policyId: p.policyId, configuration: { cedarPolicy: 'forbid (principal, action, resource);' } },
        updateMask: 'configuration',
        versionNotes: 'tighten',
      },
      { policy: { policyId: p.policyId, configuration: { cedarPolicy: 'x' } }, updateMask: 'configuration' },
    ]);
  });

  test('validatePolicyText reports the failure message', async () => {
    const fake = fakeClient().on('ValidatePolicy', (req) =>
      req.cedarPolicy === 'ok' ? { valid: true } : { valid: false, failureMessage: 'unexpected token at 1:5' },
    );
    expect(await validatePolicyText(fake.client, 'ok')).toEqual({ valid: true, message: 'Valid Cedar.' });
    expect(await validatePolicyText(fake.client, 'bad')).toEqual({ valid: false, message: 'unexpected token at 1:5' });
  });

  test('create, archive, unarchive, versions', async () => {
    const p = policy();
    const fake = fakeClient()
      .on('CreatePolicy', () => ({ policy: p }))
      .on('ArchivePolicy', () => ({ policy: { ...p, isArchived: true } }))
      .on('UnarchivePolicy', () => ({ policy: p }))
      .on('ListPolicyVersions', (req) =>
        req.pageToken
          ? { policyVersions: [policyVersion(p, 1, 'a')], nextPageToken: '' }
          : { policyVersions: [policyVersion(p, 2, 'b')], nextPageToken: 'next' },
      );
    await createPolicy(fake.client, 'Readers', 'permit (principal, action, resource);');
    expect(fake.callsTo('CreatePolicy')).toEqual([
      { name: 'Readers', configuration: { cedarPolicy: 'permit (principal, action, resource);' }, versionNotes: 'Created' },
    ]);
    expect((await setPolicyArchived(fake.client, p.policyId, true)).isArchived).toBe(true);
    expect((await setPolicyArchived(fake.client, p.policyId, false)).isArchived).toBe(false);
    expect((await listVersions(fake.client, p.policyId)).map((v) => v.version)).toEqual([2, 1]);
  });
});
