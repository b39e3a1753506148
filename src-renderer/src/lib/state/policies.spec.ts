import { describe, expect, test } from 'vitest';
import { ApiError } from '../../../../src-shared/errors';
import type { Policy } from '../services/policyService';
import { fakeClient } from '../testing/fakeClient';
import { policy, policyVersion } from '../testing/moreFactories';
import { PolicyWorkspace } from './policies.svelte';

function engine() {
  let current = policy({ name: 'Field team', configuration: { cedarPolicy: 'permit (principal, action, resource);' } });
  const versions = [policyVersion(current, 1, current.configuration.cedarPolicy)];
  const fake = fakeClient()
    .on('ListPolicies', () => ({ policies: [current], nextPageToken: '' }))
    .on('ListPolicyVersions', () => ({ policyVersions: [...versions].reverse(), nextPageToken: '' }))
    .on('ValidatePolicy', (req) =>
      String(req.cedarPolicy).includes('permit') || String(req.cedarPolicy).includes('forbid')
        ? { valid: true }
        : { valid: false, failureMessage: 'parse error' },
    )
    .on('UpdatePolicy', (req) => {
      const text = (req.policy as { configuration: { cedarPolicy: string } }).configuration.cedarPolicy;
      if (!text.includes('(')) throw ApiError.invalid('policy.configuration.cedar_policy', 'unexpected end of input');
      const version = (current.version ?? 1) + 1;
      current = { ...current, version, configuration: { cedarPolicy: text }, policyVersionId: `${current.policyId}-v${version}` };
      versions.push(policyVersion(current, version, text));
      return { policy: current };
    });
  return {
    fake,
    versions,
    get current(): Policy {
      return current;
    },
  };
}

describe('PolicyWorkspace', () => {
  test('select loads the text into the editor and the history', async () => {
    const e = engine();
    const ws = new PolicyWorkspace(e.fake.client);
    await ws.load();
    await ws.select(ws.list.items[0]);
    expect(ws.draft).toBe('permit (principal, action, resource);');
    expect(ws.dirty).toBe(false);
    expect(ws.versions.map((v) => v.version)).toEqual([1]);
  });

  test('edit, validate, save as a new version with notes', async () => {
    const e = engine();
    const ws = new PolicyWorkspace(e.fake.client);
    await ws.load();
    await ws.select(ws.list.items[0]);
    ws.setDraft('forbid (principal, action, resource);');
    expect(ws.dirty).toBe(true);
    await ws.validate();
    expect(ws.validation).toEqual({ valid: true, message: 'Valid Cedar.' });
    ws.versionNotes = 'lock down';
    expect(await ws.save()).toBe(true);
    expect(e.fake.callsTo('UpdatePolicy')[0]).toMatchObject({ updateMask: 'configuration', versionNotes: 'lock down' });
    expect(ws.selected?.version).toBe(2);
    expect(ws.dirty).toBe(false);
    expect(ws.versionNotes).toBe('');
    expect(ws.versions.map((v) => v.version)).toEqual([2, 1]);
    expect(ws.list.items[0].version).toBe(2);
  });

  test('a rejected save keeps the draft and shows the API message', async () => {
    const ws = new PolicyWorkspace(engine().fake.client);
    await ws.load();
    await ws.select(ws.list.items[0]);
    ws.setDraft('permit');
    expect(await ws.save()).toBe(false);
    expect(ws.draft).toBe('permit');
    expect(ws.actionError).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: 'policy.configuration.cedar_policy: unexpected end of input',
    });
  });

  test('validation failure shows the parser message; editing clears it', async () => {
    const ws = new PolicyWorkspace(engine().fake.client);
    await ws.load();
    await ws.select(ws.list.items[0]);
    ws.setDraft('nonsense');
    await ws.validate();
    expect(ws.validation).toEqual({ valid: false, message: 'parse error' });
    ws.setDraft('nonsense!');
    expect(ws.validation).toBeUndefined();
  });

  test('revert and restore an old version', async () => {
    const e = engine();
    const ws = new PolicyWorkspace(e.fake.client);
    await ws.load();
    await ws.select(ws.list.items[0]);
    ws.setDraft('forbid (principal, action, resource);');
    await ws.save();
    ws.setDraft('scratch');
    ws.revert();
    expect(ws.draft).toBe('forbid (principal, action, resource);');
    ws.restoreVersion(ws.versions.find((v) => v.version === 1)!);
    expect(ws.draft).toBe('permit (principal, action, resource);');
    expect(ws.versionNotes).toBe('Restore version 1');
    expect(ws.dirty).toBe(true);
  });

  test('create opens the new policy; a rejected create keeps its error apart', async () => {
    const created = policy({ name: 'New one' });
    const fake = fakeClient()
      .on('ListPolicies', () => ({ policies: [], nextPageToken: '' }))
      .on('ListPolicyVersions', () => ({ policyVersions: [], nextPageToken: '' }))
      .on('CreatePolicy', (req) => {
        if (req.name === 'dup') throw ApiError.alreadyExists('policy', 'dup');
        return { policy: created };
      });
    const ws = new PolicyWorkspace(fake.client);
    await ws.load();
    expect(await ws.create('dup', 'permit (principal, action, resource);')).toBe(false);
    expect(ws.createError?.code).toBe('ALREADY_EXISTS');
    expect(await ws.create('New one', 'permit (principal, action, resource);')).toBe(true);
    expect(ws.selected?.policyId).toBe(created.policyId);
    expect(ws.list.items).toHaveLength(1);
  });

  test('"Show archived" lists again with archived policies, and next pages keep to it', async () => {
    const [active, archived, later] = [policy({ name: 'A' }), policy({ name: 'B', isArchived: true }), policy({ name: 'C' })];
    const fake = fakeClient().on('ListPolicies', (req) => {
      if (req.pageToken) return { policies: [later], nextPageToken: '' };
      return req.includeArchived ? { policies: [active, archived], nextPageToken: 'p2' } : { policies: [active], nextPageToken: '' };
    });
    const ws = new PolicyWorkspace(fake.client);
    await ws.load();
    await ws.setIncludeArchived(true);
    expect(ws.list.items.map((p) => p.name)).toEqual(['A', 'B']);
    await ws.list.loadMore();
    expect(ws.list.items.map((p) => p.name)).toEqual(['A', 'B', 'C']);
    expect(fake.callsTo('ListPolicies')).toEqual([
      { pageSize: 100, orderBy: 'name' },
      { pageSize: 100, orderBy: 'name', includeArchived: true },
      { pageSize: 100, orderBy: 'name', includeArchived: true, pageToken: 'p2' },
    ]);
  });

  test('compares two versions: the line diff of their texts, reset when another policy is opened', async () => {
    const e = engine();
    const ws = new PolicyWorkspace(e.fake.client);
    await ws.load();
    await ws.select(ws.list.items[0]);
    ws.setDraft('permit (principal, action, resource);\nforbid (principal, action, resource) when { false };');
    await ws.save();
    expect(ws.versions.map((v) => v.version)).toEqual([2, 1]);
    ws.compareWithPrevious(ws.versions[0]);
    expect(ws.compare).toEqual({ from: ws.versions[1].policyVersionId, to: ws.versions[0].policyVersionId });
    expect(ws.comparison?.lines).toEqual([
      { kind: 'same', text: 'permit (principal, action, resource);', before: 1, after: 1 },
      { kind: 'added', text: 'forbid (principal, action, resource) when { false };', after: 2 },
    ]);
    // Picked the other way round: the line is removed.
    ws.compareVersions(ws.versions[0].policyVersionId, ws.versions[1].policyVersionId);
    expect(ws.comparison?.lines.map((l) => l.kind)).toEqual(['same', 'removed']);
    // The oldest version compares with itself: nothing changed.
    ws.compareWithPrevious(ws.versions[1]);
    expect(ws.comparison?.lines.map((l) => l.kind)).toEqual(['same']);
    await ws.select(ws.list.items[0]);
    expect(ws.compare).toBeUndefined();
    expect(ws.comparison).toBeUndefined();
  });
});
