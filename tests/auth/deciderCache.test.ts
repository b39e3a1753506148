// Authorization is kept per caller across requests (authorize.ts deciderFor)
// and must still decide the very next request after any change to what it
// read: a policy archived or restored on this connection or by another one
// (another process on the same file), a principal attribute, a role.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ApiError, Code } from '../../src-shared/errors';
import { addRole, findMember, setPrincipalAttribute } from '../../src-main/auth/cedar/attributes';
import { authorizeOperation } from '../../src-main/auth/cedar/authorize';
import { DEFAULT_ORGANIZATION_NAME, DEFAULT_USER_NAME, ensureMember, loadCaller } from '../../src-main/auth/identity';
import { setPolicyColumns } from '../../src-main/auth/policyStore';
import { openEngine, type Engine } from '../../src-main/engine';
import { openDatabase, type Db } from '../../src-main/db/database';
import { invoke } from '../../src-main/services/invoke';

let dir: string;
let engine: Engine;
let other: Db;
let organizationId: string;
let userId: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'outpost-decider-'));
  engine = openEngine(dir);
  ({ organizationId, userId } = ensureMember(engine.db, DEFAULT_USER_NAME, DEFAULT_ORGANIZATION_NAME));
  other = openDatabase(join(dir, 'outpost.sqlite'));
});
afterEach(() => {
  other.close();
  engine.close();
  rmSync(dir, { recursive: true, force: true });
});

const scope = () => ({ db: engine.db, caller: { ...loadCaller(engine.db, userId)!, owner: false }, replica: false });
const listing = () => {
  try {
    authorizeOperation(scope(), 'ListAnnotations', { organizationId });
    return 'allowed';
  } catch (e) {
    if (e instanceof ApiError && e.code === Code.PERMISSION_DENIED) return 'denied';
    throw e;
  }
};
const defaultPolicyPk = () => engine.db.get<{ pk: number }>('SELECT pk FROM policies WHERE organization_id = ?', [organizationId])!.pk;

it('follows a policy archived by another connection and restored on this one, from the next request', () => {
  expect(listing()).toBe('allowed');
  expect(listing()).toBe('allowed');
  setPolicyColumns(other, defaultPolicyPk(), { archived_date: '2026-11-28T00:00:00Z' });
  expect(listing()).toBe('denied');
  setPolicyColumns(engine.db, defaultPolicyPk(), { archived_date: null });
  expect(listing()).toBe('allowed');
});

it('follows principal attributes and roles, on this connection and another', async () => {
  const owner = { engine, db: engine.db, caller: loadCaller(engine.db, userId)! };
  await invoke(owner, 'CreatePolicy', {
    name: 'no avionics',
    configuration: {
      cedarPolicy: 'forbid(principal, action, resource) when { principal.hasTag("team") && principal.getTag("team") == "avionics" };',
    },
  });
  await invoke(owner, 'CreatePolicy', {
    name: 'no interns',
    configuration: { cedarPolicy: 'forbid(principal in Role::"intern", action in Action::"read", resource);' },
  });
  expect(listing()).toBe('allowed');
  setPrincipalAttribute(other, findMember(other, DEFAULT_USER_NAME), 'team', 'avionics');
  expect(listing()).toBe('denied');
  setPrincipalAttribute(engine.db, findMember(engine.db, DEFAULT_USER_NAME), 'team', 'propulsion');
  expect(listing()).toBe('allowed');
  addRole(engine.db, findMember(engine.db, DEFAULT_USER_NAME), 'intern');
  expect(listing()).toBe('denied');
});
