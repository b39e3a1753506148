// ExplainPolicyDecision (the policies view's "try it"), over real HTTP and a real SQLite file: allowed (and by which
// statement), denied by a forbid, denied by default (no permit), the record's read a write also needs, what the
// organization itself decides, who may ask about whom, bad input naming its field — and that every answer agrees
// with what the same user's real call gets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY_NAME } from '../../src-main/auth/defaultPolicy';
import { startTestServer, type TestServer } from '../support/testServer';

let server: TestServer;
let alice: string;
let bob: string;
let aliceId: string;
let bobId: string;
let defaultPolicyId: string;

const EXPLAIN = '/api/v1/policies:explain';
const T0 = '2026-01-01T00:00:00Z';
const T1 = '2026-01-01T00:01:00Z';

const ok = async (method: string, path: string, body?: unknown, token?: string) => {
  const res = await server.api(method, path, body, token);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
};
const explain = (body: Record<string, unknown>, token?: string) => ok('POST', EXPLAIN, body, token);
const annotation = async (name: string, extra: Record<string, unknown> = {}, token?: string) =>
  (await ok('POST', '/api/v1/annotations', { name, startTime: T0, endTime: T1, assets: ['bench-1'], ...extra }, token)).annotation;
const createPolicy = async (name: string, cedarPolicy: string) =>
  (await ok('POST', '/api/v1/policies', { name, configuration: { cedarPolicy } })).policy;
const retire = (policyId: string) => ok('POST', `/api/v1/policies/${policyId}/archive`);

/** A refused request: its status, gRPC code, the field its BadRequest names, and no stack trace. */
async function expectInvalid(body: Record<string, unknown>, field: string, message: RegExp) {
  const res = await server.api('POST', EXPLAIN, body);
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.code).toBe(3);
  expect(res.body.details[0].fieldViolations[0].field).toBe(field);
  expect(res.body.message).toMatch(message);
  expect(res.body.message).not.toMatch(/\n\s+at /);
}

beforeAll(async () => {
  server = await startTestServer();
  alice = server.newToken('alice@outpost.local');
  bob = server.newToken('bob@outpost.local');
  aliceId = (await ok('GET', '/api/v2/me', undefined, alice)).userId;
  bobId = (await ok('GET', '/api/v2/me', undefined, bob)).userId;
  await ok('POST', '/api/v1/assets', { name: 'bench-1' });
  defaultPolicyId = (await ok('GET', '/api/v1/policies')).policies.find((p: { name: string }) => p.name === DEFAULT_POLICY_NAME).policyId;
});
afterAll(async () => server?.close());

describe('ExplainPolicyDecision', () => {
  it('allowed: names the permit that allowed it, with its text; a write also shows the record’s read', async () => {
    const a = await annotation('pump check', {}, bob);
    const answer = await explain({ userId: aliceId, action: 'ArchiveAnnotation', resourceId: a.annotationId });
    expect(answer).toMatchObject({
      allowed: true,
      userId: aliceId,
      action: 'ArchiveAnnotation',
      actionGroup: 'archive',
      resourceType: 'Annotation',
      resourceId: a.annotationId,
      leftToRemote: false,
    });
    const byDefault = {
      policyId: defaultPolicyId,
      policyName: DEFAULT_POLICY_NAME,
      statement: 1,
      text: expect.stringContaining('permit(principal in Organization::'),
    };
    expect(answer.checks).toEqual([
      { action: 'ArchiveAnnotation', allowed: true, decidedBy: [byDefault], errors: [] },
      { action: 'GetAnnotation', allowed: true, decidedBy: [byDefault], errors: [] },
    ]);
    // A read is one decision.
    const read = await explain({ userId: aliceId, action: 'GetAnnotation', resourceId: a.annotationId });
    expect(read.checks.map((c: { action: string }) => c.action)).toEqual(['GetAnnotation']);
    // The typed client asks the same (the operation is declared once, in the table).
    const viaClient = await server.client.ExplainPolicyDecision({
      userId: aliceId,
      action: 'ArchiveAnnotation',
      resourceId: a.annotationId,
    });
    expect(viaClient).toEqual(answer);
  });

  it('denied by a forbid: names the forbid and its statement, and the user’s real call is refused the same way', async () => {
    const a = await annotation('valve drift', {}, bob);
    const noArchive = await createPolicy(
      'No archiving for Alice',
      `permit(principal, action, resource) when { false };\nforbid(principal == User::"${aliceId}", action in Action::"archive", resource);`,
    );
    try {
      const answer = await explain({ userId: aliceId, action: 'ArchiveAnnotation', resourceId: a.annotationId });
      expect(answer.allowed).toBe(false);
      expect(answer.checks[0]).toEqual({
        action: 'ArchiveAnnotation',
        allowed: false,
        decidedBy: [
          {
            policyId: noArchive.policyId,
            policyName: 'No archiving for Alice',
            statement: 2,
            text: `forbid(principal == User::"${aliceId}", action in Action::"archive", resource);`,
          },
        ],
        errors: [],
      });
      expect(answer.checks[1]).toMatchObject({ action: 'GetAnnotation', allowed: true });
      expect((await server.api('POST', `/api/v1/annotations/${a.annotationId}:archive`, {}, alice)).status).toBe(403);
      // Bob is not named by the forbid: allowed, and his archive goes through.
      expect((await explain({ userId: bobId, action: 'ArchiveAnnotation', resourceId: a.annotationId })).allowed).toBe(true);
      expect((await server.api('POST', `/api/v1/annotations/${a.annotationId}:archive`, {}, bob)).status).toBe(200);
    } finally {
      await retire(noArchive.policyId);
    }
  });

  it('a write on a record the user may not read is denied by the read check, as the write path refuses it', async () => {
    const a = await annotation('secret pump', { tags: ['secret'] }, bob);
    const hide = await createPolicy(
      'Secrets for their creator',
      'forbid(principal, action in Action::"read", resource is Annotation) when { resource.tags.contains("secret") } unless { resource.creator == principal };',
    );
    try {
      // Bob (who may read it, and may change policies) asks about Alice.
      const answer = await explain({ userId: aliceId, action: 'UpdateAnnotation', resourceId: a.annotationId }, bob);
      expect(answer.allowed).toBe(false);
      expect(answer.checks.map((c: { action: string; allowed: boolean }) => [c.action, c.allowed])).toEqual([
        ['UpdateAnnotation', true],
        ['GetAnnotation', false],
      ]);
      expect(answer.checks[1].decidedBy).toEqual([expect.objectContaining({ policyId: hide.policyId, statement: 1 })]);
      const update = { annotation: { annotationId: a.annotationId, name: 'peek' }, updateMask: 'name' };
      expect((await server.api('PATCH', '/api/v1/annotations', update, alice)).status).toBe(403);
      expect((await explain({ action: 'UpdateAnnotation', resourceId: a.annotationId }, bob)).allowed).toBe(true);
      // Alice cannot ask about a record she may not read (its answer would tell her about it).
      const peek = await server.api('POST', EXPLAIN, { action: 'GetAnnotation', resourceId: a.annotationId }, alice);
      expect(peek.status, JSON.stringify(peek.body)).toBe(403);
      expect(peek.body.message).toContain('GetAnnotation');
    } finally {
      await retire(hide.policyId);
    }
  });

  it('denied by default: no active statement permits it (none named), as the real call says', async () => {
    const a = await annotation('default deny', {}, bob);
    const readOnly = await createPolicy('Members read', 'permit(principal, action in Action::"read", resource);');
    await retire(defaultPolicyId);
    try {
      const answer = await explain({ userId: aliceId, action: 'UpdateAnnotation', resourceId: a.annotationId });
      expect(answer.allowed).toBe(false);
      expect(answer.checks[0]).toEqual({ action: 'UpdateAnnotation', allowed: false, decidedBy: [], errors: [] });
      expect(answer.checks[1]).toMatchObject({ action: 'GetAnnotation', allowed: true, decidedBy: [{ policyId: readOnly.policyId }] });
      const update = { annotation: { annotationId: a.annotationId, name: 'x' }, updateMask: 'name' };
      const refused = await server.api('PATCH', '/api/v1/annotations', update, alice);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toContain('no active policy permits it');
      // Without a record: what the organization decides (a create).
      const create = await explain({ userId: aliceId, action: 'CreateAnnotation' });
      expect(create).toMatchObject({ allowed: false, resourceType: 'Organization', resourceId: a.organizationId });
      expect(create.checks).toEqual([{ action: 'CreateAnnotation', allowed: false, decidedBy: [], errors: [] }]);
    } finally {
      await ok('POST', `/api/v1/policies/${defaultPolicyId}/unarchive`);
      await retire(readOnly.policyId);
    }
  });

  it('asking about yourself is anyone’s; about another user needs UpdatePolicy (the owner always may)', async () => {
    const a = await annotation('who asks', {}, bob);
    // The default policy lets members change policies, so they may ask about each other.
    expect((await explain({ userId: bobId, action: 'GetAnnotation', resourceId: a.annotationId }, alice)).userId).toBe(bobId);
    const noAdmin = await createPolicy('Only the owner administers', 'forbid(principal, action in Action::"admin", resource);');
    try {
      const refused = await server.api('POST', EXPLAIN, { userId: bobId, action: 'GetAnnotation', resourceId: a.annotationId }, alice);
      expect(refused.status, JSON.stringify(refused.body)).toBe(403);
      expect(refused.body.code).toBe(7);
      expect(refused.body.message).toMatch(/^Asking what another user may do is for those who may change the policies\. UpdatePolicy/);
      // Herself (the caller, userId unset or her own) and the owner asking about anyone: answered.
      expect((await explain({ action: 'GetAnnotation', resourceId: a.annotationId }, alice)).userId).toBe(aliceId);
      expect((await explain({ userId: aliceId, action: 'GetAnnotation', resourceId: a.annotationId }, alice)).allowed).toBe(true);
      expect((await explain({ userId: bobId, action: 'GetAnnotation', resourceId: a.annotationId })).allowed).toBe(true);
    } finally {
      await retire(noAdmin.policyId);
    }
  });

  it('bad input names the field and changes nothing', async () => {
    const a = await annotation('bad input', {}, bob);
    const versions = (await ok('GET', `/api/v1/policies/${defaultPolicyId}/versions`)).policyVersions.length;
    await expectInvalid({ userId: aliceId, resourceId: a.annotationId }, 'action', /^action: is required/);
    await expectInvalid(
      { userId: aliceId, action: 'Teleport', resourceId: a.annotationId },
      'action',
      /'Teleport' is not an action of the Cedar schema/,
    );
    await expectInvalid({ userId: aliceId, action: 'archive', resourceId: a.annotationId }, 'action', /'archive' is an action group/);
    await expectInvalid(
      { userId: 'nobody', action: 'GetAnnotation', resourceId: a.annotationId },
      'user_id',
      /no user 'nobody' is a member/,
    );
    await expectInvalid(
      { userId: aliceId, action: 'GetAnnotation', resourceId: 'no-such-id' },
      'resource_id',
      /no Annotation 'no-such-id'/,
    );
    // A record of another type than the action's.
    await expectInvalid({ userId: aliceId, action: 'GetRule', resourceId: a.annotationId }, 'resource_id', /GetRule acts on a Rule/);
    await expectInvalid(
      { userId: aliceId, action: 'CreateTag', resourceId: a.annotationId },
      'resource_id',
      /CreateTag acts on the organization/,
    );
    // Another organization's user and record are unknown here.
    const olga = server.newToken('olga@elsewhere', 'Elsewhere');
    const olgaId = (await ok('GET', '/api/v2/me', undefined, olga)).userId;
    await expectInvalid({ userId: olgaId, action: 'GetAnnotation', resourceId: a.annotationId }, 'user_id', /no user/);
    await ok('POST', '/api/v1/assets', { name: 'rig-e' }, olga);
    const theirs = (await ok('POST', '/api/v1/annotations', { name: 'e', startTime: T0, endTime: T1, assets: ['rig-e'] }, olga)).annotation;
    await expectInvalid({ userId: aliceId, action: 'GetAnnotation', resourceId: theirs.annotationId }, 'resource_id', /no Annotation/);
    expect((await ok('GET', `/api/v1/policies/${defaultPolicyId}/versions`)).policyVersions).toHaveLength(versions);
    expect((await ok('GET', `/api/v1/annotations/${a.annotationId}`)).annotation.modifiedDate).toBe(a.modifiedDate);
  });

  it('is one operation of the table: an Outpost extension in the served OpenAPI document', async () => {
    const doc = await ok('GET', '/api/v1/openapi.json');
    const op = doc.paths['/api/v1/policies:explain'].post;
    expect(op['x-outpost-extension']).toBe(true);
    expect(op.operationId).toBe('ExplainPolicyDecision');
  });
});
