import type { EntityJson } from '@cedar-policy/cedar-wasm/nodejs';
import { describe, expect, it } from 'vitest';
import { evaluatePolicy } from './evaluatePolicy';

const POLICY = `
permit(principal, action == Action::"view", resource in Folder::"shared");
// contractors never delete
forbid(principal in Group::"contractors", action == Action::"delete", resource);
permit(principal, action == Action::"delete", resource) when { resource.owner == principal };
`;

const entities: EntityJson[] = [
  { uid: { type: 'User', id: 'alice' }, attrs: {}, parents: [] },
  { uid: { type: 'User', id: 'bob' }, attrs: {}, parents: [{ type: 'Group', id: 'contractors' }] },
  { uid: { type: 'Group', id: 'contractors' }, attrs: {}, parents: [] },
  { uid: { type: 'Folder', id: 'shared' }, attrs: {}, parents: [] },
  {
    uid: { type: 'Doc', id: 'report' },
    attrs: { owner: { __entity: { type: 'User', id: 'bob' } } },
    parents: [{ type: 'Folder', id: 'shared' }],
  },
];

const req = (user: string, action: string) => ({
  principal: { type: 'User', id: user },
  action: { type: 'Action', id: action },
  resource: { type: 'Doc', id: 'report' },
});

describe('evaluatePolicy', () => {
  it('permits, forbids over permits, and denies by default', () => {
    expect(evaluatePolicy(POLICY, req('alice', 'view'), entities)).toEqual({
      decision: 'allow',
      allowed: true,
      reasons: ['policy0'],
      errors: [],
    });
    // bob owns the doc (permit) but is a contractor (forbid wins).
    const bobDelete = evaluatePolicy(POLICY, req('bob', 'delete'), entities);
    expect(bobDelete).toMatchObject({ decision: 'deny', allowed: false, reasons: ['policy1'] });
    // alice does not own it: no permit applies.
    expect(evaluatePolicy(POLICY, req('alice', 'delete'), entities)).toMatchObject({ decision: 'deny', reasons: [] });
  });

  it('rejects unparsable policy text as INVALID_ARGUMENT', () => {
    expect(() => evaluatePolicy('permit(principal, action, resource', req('alice', 'view'), entities)).toThrowError(/cedar_policy/);
  });
});
