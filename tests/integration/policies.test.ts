// PolicyService over real HTTP: Cedar checking with locations, versions and
// change messages, archive state, lists, the ListPolicyVersions extension and
// every error path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY_NAME } from '../../src-main/auth/defaultPolicy';
import { startTestServer, type TestServer } from '../support/testServer';
import { violationOf as violation, UUID, RFC3339 as TS } from '../support/assertions';

let server: TestServer;
let otherOrgToken: string;
let teammateToken: string;

beforeAll(async () => {
  server = await startTestServer();
  otherOrgToken = server.newToken('x@y', 'Other Org');
  teammateToken = server.newToken('teammate@outpost.local');
});
afterAll(async () => server?.close());

const TWO = `permit(principal, action == Action::"UpdateAnnotation", resource);
forbid(principal, action == Action::"DeleteAnnotation", resource);`;
const THREE = `permit(principal, action == Action::"UpdateAnnotation", resource);
forbid(principal, action == Action::"DeleteAnnotation", resource);
permit(
  principal,
  action == Action::"GetAnnotation",
  resource
);`;

async function create(body: Record<string, unknown>, token?: string) {
  const res = await server.api('POST', '/api/v1/policies', { configuration: { cedar_policy: TWO }, ...body }, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.policy;
}

const update = (body: unknown, token?: string) => server.api('PATCH', '/api/v1/policies', body, token);

describe('CreatePolicy / GetPolicy', () => {
  it('creates version 1 with the exact shape (snake_case input)', async () => {
    const res = await server.api('POST', '/api/v1/policies', {
      name: 'Editors',
      description: 'Who may edit',
      configuration: { cedar_policy: TWO },
      version_notes: 'first cut',
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['policy']);
    const p = res.body.policy;
    expect(p).toEqual({
      policyId: expect.stringMatching(UUID),
      name: 'Editors',
      description: 'Who may edit',
      organizationId: expect.stringMatching(UUID),
      createdByUserId: expect.stringMatching(UUID),
      modifiedByUserId: p.createdByUserId,
      createdDate: expect.stringMatching(TS),
      modifiedDate: p.createdDate,
      configuration: { cedarPolicy: TWO },
      policyVersionId: expect.stringMatching(UUID),
      archivedDate: null,
      isArchived: false,
      version: 1,
      versionNotes: 'first cut',
      generatedChangeMessage: 'Created with 2 policies (+2 lines)',
    });
    expect(p.policyVersionId).not.toBe(p.policyId);
    const got = await server.api('GET', `/api/v1/policies/${p.policyId}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ policy: p });
  });

  it('omits unset optional fields (description, version_notes) and accepts lowerCamelCase', async () => {
    const p = await create({ name: 'Bare', configuration: { cedarPolicy: 'permit(principal, action, resource);' } });
    expect(p).not.toHaveProperty('description');
    expect(p).not.toHaveProperty('versionNotes');
    expect(p.version).toBe(1);
    expect(p.generatedChangeMessage).toBe('Created with 1 policy (+1 lines)');
    expect(p.archivedDate).toBeNull();
    const empty = await create({ name: 'Empty description', description: '' });
    expect(empty.description).toBe('');
  });

  it('allows duplicate names', async () => {
    const a = await create({ name: 'Twin' });
    const b = await create({ name: 'Twin' });
    expect(a.policyId).not.toBe(b.policyId);
  });

  it("rejects Cedar syntax errors with Cedar's message and the location", async () => {
    const text = 'permit(principal, action, resource);\nforbid(principal, action, resource) when { 1 + };';
    const v = violation(await server.api('POST', '/api/v1/policies', { name: 'Bad', configuration: { cedar_policy: text } }));
    expect(v.field).toBe('configuration.cedar_policy');
    expect(v.description).toContain('unexpected token `}`');
    expect(v.description).toContain('line 2, column 48');
    expect(v.description).toContain(`offset ${text.indexOf('}')}`);
  });

  it('counts columns in characters even after multi-byte text', async () => {
    const line2 = 'permit(principal, action, resource) when { context.name == "Prüfer für Ölstände" && y };';
    const text = `// Zugriff für Prüfer\n${line2}`;
    const v = violation(await server.api('POST', '/api/v1/policies', { name: 'Bad', configuration: { cedar_policy: text } }));
    expect(v.description).toContain('invalid variable: y');
    expect(v.description).toContain(`line 2, column ${line2.indexOf('y') + 1}`);
    expect(v.description).toContain(`offset ${Buffer.byteLength(text.slice(0, text.indexOf(' y ') + 1))}`);
  });

  it.each([
    ['missing name', { configuration: { cedar_policy: TWO } }, 'name', /required/],
    ['empty name', { name: '', configuration: { cedar_policy: TWO } }, 'name', /empty/],
    ['blank name', { name: '  ', configuration: { cedar_policy: TWO } }, 'name', /blank/],
    ['missing configuration', { name: 'n' }, 'configuration', /required/],
    ['missing cedar_policy', { name: 'n', configuration: {} }, 'configuration.cedar_policy', /required/],
    ['cedar_policy not a string', { name: 'n', configuration: { cedar_policy: 42 } }, 'configuration.cedar_policy', /./],
    [
      'no policy at all',
      { name: 'n', configuration: { cedar_policy: '// nothing yet\n' } },
      'configuration.cedar_policy',
      /no Cedar policy/,
    ],
    [
      'a template',
      { name: 'n', configuration: { cedar_policy: 'permit(principal == ?principal, action, resource);' } },
      'configuration.cedar_policy',
      /template/,
    ],
    [
      'unterminated policy',
      { name: 'n', configuration: { cedar_policy: 'permit(principal, action, resource)' } },
      'configuration.cedar_policy',
      /unexpected end of input at line 1, column 36/,
    ],
  ])('rejects %s', async (_label, body, field, description) => {
    const v = violation(await server.api('POST', '/api/v1/policies', body));
    expect(v.field).toBe(field);
    expect(v.description).toMatch(description);
  });

  it('rejects malformed bodies', async () => {
    expect(violation(await server.api('POST', '/api/v1/policies', '{"name":')).field).toBe('body');
    expect(violation(await server.api('POST', '/api/v1/policies', '"text"')).field).toBe('body');
  });

  it('lets a caller in several organizations choose one (organization_id), and lists all of theirs', async () => {
    const multi = server.newToken('multi@outpost.local');
    server.newToken('multi@outpost.local', 'Second Org');
    const missing = await server.api('POST', '/api/v1/policies', { name: 'Where?', configuration: { cedar_policy: TWO } }, multi);
    expect(violation(missing).field).toBe('organization_id');
    const mine = await create({ name: 'Home org policy' });
    const chosen = await create({ name: 'Chosen org', organization_id: mine.organizationId }, multi);
    expect(chosen.organizationId).toBe(mine.organizationId);
    expect(
      (
        await server.api(
          'POST',
          '/api/v1/policies',
          { name: 'x', configuration: { cedar_policy: TWO }, organization_id: 'elsewhere' },
          multi,
        )
      ).status,
    ).toBe(404);
    const listed = await server.api('GET', '/api/v1/policies?page_size=100', undefined, multi);
    expect(listed.body.policies.map((p: any) => p.policyId)).toEqual(expect.arrayContaining([mine.policyId, chosen.policyId]));
  });

  it("GET of an unknown id or another organization's policy is NOT_FOUND", async () => {
    const p = await create({ name: 'Private' });
    expect((await server.api('GET', '/api/v1/policies/unknown')).status).toBe(404);
    const other = await server.api('GET', `/api/v1/policies/${p.policyId}`, undefined, otherOrgToken);
    expect(other.status).toBe(404);
    expect(other.body.code).toBe(5);
  });
});

describe('UpdatePolicy', () => {
  it('makes a new version on a configuration change, with notes and a change message', async () => {
    const p = await create({ name: 'Versioned', version_notes: 'v1' });
    const res = await update(
      {
        policy: { policy_id: p.policyId, configuration: { cedar_policy: THREE } },
        update_mask: 'configuration',
        version_notes: 'allow viewing',
      },
      teammateToken,
    );
    expect(res.status).toBe(200);
    const u = res.body.policy;
    expect(u).toEqual({
      ...p,
      configuration: { cedarPolicy: THREE },
      policyVersionId: expect.stringMatching(UUID),
      version: 2,
      versionNotes: 'allow viewing',
      generatedChangeMessage: 'Changed configuration: 2 policies → 3 policies; added permit on Action::"GetAnnotation"; +5 −0 lines',
      modifiedByUserId: expect.stringMatching(UUID),
      modifiedDate: expect.stringMatching(TS),
    });
    expect(u.policyVersionId).not.toBe(p.policyVersionId);
    expect(u.modifiedByUserId).not.toBe(p.createdByUserId);
    expect(u.modifiedDate).not.toBe(p.modifiedDate);
    expect(u.createdDate).toBe(p.createdDate);
  });

  it('describes removed, changed and reformatted statements and counts changed lines', async () => {
    const p = await create({ name: 'Messages', configuration: { cedar_policy: THREE } });
    const removed = await update({ policy: { policyId: p.policyId, configuration: { cedarPolicy: TWO } }, updateMask: 'configuration' });
    expect(removed.body.policy.generatedChangeMessage).toBe(
      'Changed configuration: 3 policies → 2 policies; removed permit on Action::"GetAnnotation"; +0 −5 lines',
    );
    expect(removed.body.policy).not.toHaveProperty('versionNotes');

    const changedText = TWO.replace(
      'forbid(principal, action == Action::"DeleteAnnotation", resource);',
      'forbid(principal, action == Action::"DeleteAnnotation", resource) unless { principal == User::"admin" };',
    );
    const changed = await update({
      policy: { policyId: p.policyId, configuration: { cedarPolicy: changedText } },
      updateMask: 'configuration.cedarPolicy',
    });
    expect(changed.body.policy.generatedChangeMessage).toBe(
      'Changed configuration: 2 policies → 2 policies; changed forbid on Action::"DeleteAnnotation"; +1 −1 lines',
    );
    expect(changed.body.policy.version).toBe(3);

    const reformatted = await update({
      policy: { policyId: p.policyId, configuration: { cedarPolicy: `// reviewed\n${changedText}\n` } },
      updateMask: 'configuration',
    });
    expect(reformatted.body.policy.generatedChangeMessage).toBe(
      'Changed configuration: 2 policies → 2 policies; formatting only (no policy changed); +1 −0 lines',
    );
    expect(reformatted.body.policy.version).toBe(4);

    const everything = await update({
      policy: {
        policyId: p.policyId,
        configuration: { cedarPolicy: 'permit(principal, action in [Action::"ListAnnotations", Action::"GetAnnotation"], resource);' },
      },
      updateMask: 'configuration',
    });
    expect(everything.body.policy.generatedChangeMessage).toBe(
      'Changed configuration: 2 policies → 1 policy; added permit on [Action::"ListAnnotations", Action::"GetAnnotation"]; removed permit on Action::"UpdateAnnotation", forbid on Action::"DeleteAnnotation"; +1 −3 lines',
    );
  });

  it('names every changed field when name / description change with the configuration', async () => {
    const p = await create({ name: 'Combined', description: 'old' });
    const res = await update({
      policy: {
        policy_id: p.policyId,
        name: 'Combined 2',
        description: 'new',
        configuration: { cedar_policy: 'permit(principal, action, resource);' },
      },
      update_mask: 'name,description,configuration',
    });
    expect(res.status).toBe(200);
    expect(res.body.policy).toMatchObject({ name: 'Combined 2', description: 'new', version: 2 });
    expect(res.body.policy.generatedChangeMessage).toBe(
      'Changed name, description, configuration: 2 policies → 1 policy; added permit on all actions; removed permit on Action::"UpdateAnnotation", forbid on Action::"DeleteAnnotation"; +1 −2 lines',
    );
  });

  it('does not make a version for name / description changes (modified_date still moves)', async () => {
    const p = await create({ name: 'Rename me', version_notes: 'v1' });
    const res = await update({
      policy: { policy_id: p.policyId, name: 'Renamed', description: 'now described' },
      update_mask: 'name,description',
      version_notes: 'ignored',
    });
    expect(res.status).toBe(200);
    const u = res.body.policy;
    expect(u).toEqual({ ...p, name: 'Renamed', description: 'now described', modifiedDate: expect.stringMatching(TS) });
    expect(u.modifiedDate).not.toBe(p.modifiedDate);
    const cleared = await update({ policy: { policy_id: p.policyId }, update_mask: 'description' });
    expect(cleared.body.policy).not.toHaveProperty('description');
    const versions = await server.api('GET', `/api/v1/policies/${p.policyId}/versions`);
    expect(versions.body.policyVersions).toHaveLength(1);
  });

  it('treats the same configuration text again as a no-op (safe to retry)', async () => {
    const p = await create({ name: 'Retry' });
    const res = await update({
      policy: { policy_id: p.policyId, configuration: { cedar_policy: TWO } },
      update_mask: 'configuration',
      version_notes: 'again',
    });
    expect(res.status).toBe(200);
    expect(res.body.policy).toEqual(p);
  });

  it("takes version_notes in the mask (an ordinary optional field): the current version's notes, no new version", async () => {
    const p = await create({ name: 'Noted', version_notes: 'v1' });
    const res = await update({
      policy: { policy_id: p.policyId, version_notes: 'reviewed by the safety board' },
      update_mask: 'version_notes',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.policy).toMatchObject({
      version: p.version,
      policyVersionId: p.policyVersionId,
      versionNotes: 'reviewed by the safety board',
    });
    const versions = await server.api('GET', `/api/v1/policies/${p.policyId}/versions`);
    expect(JSON.stringify(versions.body)).toContain('reviewed by the safety board');
    // With a configuration change, the mask's notes go with the new version.
    const next = await update({
      policy: { policy_id: p.policyId, version_notes: 'allow viewing', configuration: { cedar_policy: THREE } },
      update_mask: 'configuration,version_notes',
    });
    expect(next.body.policy).toMatchObject({ version: p.version + 1, versionNotes: 'allow viewing' });
  });

  it('takes version notes from policy.version_notes when the request has none', async () => {
    const p = await create({ name: 'Notes' });
    const res = await update({
      policy: { policy_id: p.policyId, version_notes: 'inside', configuration: { cedar_policy: THREE } },
      update_mask: 'configuration',
    });
    expect(res.body.policy.versionNotes).toBe('inside');
  });

  it('archives and unarchives through is_archived without a new version', async () => {
    const p = await create({ name: 'Mask archive' });
    const archived = await update({ policy: { policy_id: p.policyId, is_archived: true }, update_mask: 'is_archived' });
    expect(archived.body.policy).toMatchObject({
      isArchived: true,
      archivedDate: expect.stringMatching(TS),
      version: 1,
      policyVersionId: p.policyVersionId,
    });
    const restored = await update({ policy: { policy_id: p.policyId, isArchived: false }, updateMask: 'isArchived' });
    expect(restored.body.policy).toMatchObject({ isArchived: false, archivedDate: null, version: 1 });
  });

  it('rejects a Cedar syntax error in an update on policy.configuration.cedar_policy, changing nothing', async () => {
    const p = await create({ name: 'Guarded' });
    const v = violation(
      await update({
        policy: { policy_id: p.policyId, configuration: { cedar_policy: TWO + '\npermit(principal action, resource);' } },
        update_mask: 'configuration',
      }),
    );
    expect(v.field).toBe('policy.configuration.cedar_policy');
    expect(v.description).toMatch(/unexpected token `action` at line 3, column 18/);
    expect((await server.api('GET', `/api/v1/policies/${p.policyId}`)).body.policy).toEqual(p);
  });

  it.each([
    ['missing update_mask', (id: string) => ({ policy: { policy_id: id, name: 'x' } }), 'update_mask', /required/],
    ['empty update_mask', (id: string) => ({ policy: { policy_id: id, name: 'x' }, update_mask: '' }), 'update_mask', /required/],
    ['unknown mask path', (id: string) => ({ policy: { policy_id: id }, update_mask: 'owner' }), 'update_mask', /unknown field 'owner'/],
    [
      'unknown configuration sub-path',
      (id: string) => ({ policy: { policy_id: id }, update_mask: 'configuration.schema' }),
      'update_mask',
      /unknown field/,
    ],
    [
      'immutable version',
      (id: string) => ({ policy: { policy_id: id }, update_mask: 'version' }),
      'update_mask',
      /'version' cannot be updated/,
    ],
    [
      'immutable policy_version_id',
      (id: string) => ({ policy: { policy_id: id }, update_mask: 'policyVersionId' }),
      'update_mask',
      /cannot be updated/,
    ],
    ['empty name', (id: string) => ({ policy: { policy_id: id, name: '' }, update_mask: 'name' }), 'policy.name', /empty/],
    [
      'configuration named but absent',
      (id: string) => ({ policy: { policy_id: id }, update_mask: 'configuration' }),
      'policy.configuration.cedar_policy',
      /required/,
    ],
    [
      'configuration without text',
      (id: string) => ({ policy: { policy_id: id, configuration: {} }, update_mask: 'configuration' }),
      'policy.configuration.cedar_policy',
      /required/,
    ],
    [
      'bad is_archived',
      (id: string) => ({ policy: { policy_id: id, is_archived: 'perhaps' }, update_mask: 'is_archived' }),
      'policy.is_archived',
      /./,
    ],
    ['missing policy', () => ({ update_mask: 'name' }), 'policy', /required/],
    ['missing policy_id', () => ({ policy: { name: 'x' }, update_mask: 'name' }), 'policy.policy_id', /required/],
  ])('rejects %s', async (_label, body, field, description) => {
    const p = await create({ name: 'Errors' });
    const v = violation(await update(body(p.policyId)));
    expect(v.field).toBe(field);
    expect(v.description).toMatch(description);
    expect((await server.api('GET', `/api/v1/policies/${p.policyId}`)).body.policy).toEqual(p);
  });

  it("is NOT_FOUND for an unknown id and for another organization's policy", async () => {
    const p = await create({ name: 'Mine' });
    expect((await update({ policy: { policy_id: 'nope', name: 'x' }, update_mask: 'name' })).status).toBe(404);
    const other = await update(
      { policy: { policy_id: p.policyId, configuration: { cedar_policy: THREE } }, update_mask: 'configuration' },
      otherOrgToken,
    );
    expect(other.status).toBe(404);
    expect((await server.api('GET', `/api/v1/policies/${p.policyId}`)).body.policy).toEqual(p);
  });
});

describe('ArchivePolicy / UnarchivePolicy', () => {
  it('archives and unarchives by path, returning the policy, ignoring any body', async () => {
    const p = await create({ name: 'Archive me' });
    const archived = await server.api('POST', `/api/v1/policies/${p.policyId}/archive`, '{ not even json');
    expect(archived.status).toBe(200);
    expect(Object.keys(archived.body)).toEqual(['policy']);
    expect(archived.body.policy).toEqual({
      ...p,
      isArchived: true,
      archivedDate: expect.stringMatching(TS),
      modifiedDate: expect.stringMatching(TS),
    });
    // Archiving again keeps the original archive date.
    const again = await server.api('POST', `/api/v1/policies/${p.policyId}/archive`);
    expect(again.body.policy.archivedDate).toBe(archived.body.policy.archivedDate);
    const restored = await server.api('POST', `/api/v1/policies/${p.policyId}/unarchive`, { policy_id: 'ignored' });
    expect(restored.status).toBe(200);
    expect(restored.body.policy).toMatchObject({ isArchived: false, archivedDate: null, version: 1 });
  });

  it('is NOT_FOUND for unknown or foreign policies and wrong methods are rejected', async () => {
    const p = await create({ name: 'Foreign archive' });
    expect((await server.api('POST', '/api/v1/policies/unknown/archive')).status).toBe(404);
    expect((await server.api('POST', `/api/v1/policies/${p.policyId}/archive`, undefined, otherOrgToken)).status).toBe(404);
    expect((await server.api('POST', `/api/v1/policies/${p.policyId}/unarchive`, undefined, otherOrgToken)).status).toBe(404);
    expect((await server.api('GET', `/api/v1/policies/${p.policyId}/archive`)).status).toBe(501);
  });
});

describe('ValidatePolicy', () => {
  it('returns {valid: true} without failureMessage for good text', async () => {
    const res = await server.api('POST', '/api/v1/policies:validate', { cedar_policy: THREE });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ valid: true });
  });

  it("returns {valid: false, failureMessage} with Cedar's error and location", async () => {
    const res = await server.api('POST', '/api/v1/policies:validate', { cedarPolicy: 'permit(principal, action, resource) when { x };' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['valid', 'failureMessage']);
    expect(res.body.valid).toBe(false);
    expect(res.body.failureMessage).toContain('invalid variable: x');
    expect(res.body.failureMessage).toContain('line 1, column 44');
    const empty = await server.client.ValidatePolicy({ cedarPolicy: '' });
    expect(empty).toEqual({ valid: false, failureMessage: expect.stringMatching(/no Cedar policy/) });
  });

  it('requires cedar_policy', async () => {
    expect(violation(await server.api('POST', '/api/v1/policies:validate', {})).field).toBe('cedar_policy');
  });
});

describe('ListPolicies', () => {
  let org: TestServer;
  const names = ['delta', 'alpha', 'echo', 'charlie', 'bravo'];
  const made: any[] = [];

  // Every organization starts with the default policy (members may do everything; issue #20), listed like any other.
  let defaultPolicy: any;

  beforeAll(async () => {
    org = await startTestServer();
    defaultPolicy = (await org.api('GET', '/api/v1/policies')).body.policies[0];
    expect(defaultPolicy).toMatchObject({ name: DEFAULT_POLICY_NAME, version: 1, isArchived: false });
    for (const n of names) {
      const res = await org.api('POST', '/api/v1/policies', { name: n, configuration: { cedar_policy: TWO } });
      made.push(res.body.policy);
    }
    await org.api('POST', `/api/v1/policies/${made[1].policyId}/archive`);
    made[1] = (await org.api('GET', `/api/v1/policies/${made[1].policyId}`)).body.policy;
    await org.api('POST', '/api/v1/policies', { name: 'foreign', configuration: { cedar_policy: TWO } }, org.newToken('x@y', 'Other Org'));
  });
  afterAll(async () => org?.close());

  async function all(query: string): Promise<{ items: any[]; pages: number }> {
    const items: any[] = [];
    let pageToken = '';
    let pages = 0;
    do {
      const res = await org.api('GET', `/api/v1/policies?${query}${pageToken ? `&page_token=${encodeURIComponent(pageToken)}` : ''}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['nextPageToken', 'policies']);
      items.push(...res.body.policies);
      pageToken = res.body.nextPageToken;
      pages++;
    } while (pageToken);
    return { items, pages };
  }

  it('lists newest first, excluding archived policies, with full objects', async () => {
    const res = await org.api('GET', '/api/v1/policies');
    expect(res.body).toEqual({ policies: [made[4], made[3], made[2], made[0], defaultPolicy], nextPageToken: '' });
  });

  it('includes archived policies with include_archived', async () => {
    expect((await all('include_archived=true')).items.map((p) => p.name)).toEqual([...names].reverse().concat(DEFAULT_POLICY_NAME));
    expect((await all('includeArchived=1&page_size=1')).items).toHaveLength(6);
    expect((await all('include_archived=false')).items).toHaveLength(5);
  });

  it('pages with tokens and orders by name / created_date / modified_date', async () => {
    const paged = await all('page_size=2&include_archived=true&order_by=name');
    expect(paged.pages).toBe(3);
    expect(paged.items.map((p) => p.name)).toEqual([...names, DEFAULT_POLICY_NAME].sort());
    expect((await all('page_size=3&order_by=name%20desc')).items.map((p) => p.name)).toEqual([
      'echo',
      'delta',
      'charlie',
      'bravo',
      DEFAULT_POLICY_NAME,
    ]);
    expect((await all('order_by=created_date')).items.map((p) => p.name)).toEqual([
      DEFAULT_POLICY_NAME,
      'delta',
      'echo',
      'charlie',
      'bravo',
    ]);
    expect((await all('order_by=modifiedDate%20desc&include_archived=true')).items[0].name).toBe('alpha');
  });

  it('caps the page size at 100 and rejects bad parameters', async () => {
    expect((await org.api('GET', '/api/v1/policies?page_size=1000')).status).toBe(200);
    expect(violation(await org.api('GET', '/api/v1/policies?order_by=description')).field).toBe('order_by');
    expect(violation(await org.api('GET', '/api/v1/policies?include_archived=maybe')).field).toBe('include_archived');
    const first = await org.api('GET', '/api/v1/policies?page_size=1');
    const mismatch = await org.api(
      'GET',
      `/api/v1/policies?page_size=1&include_archived=true&page_token=${encodeURIComponent(first.body.nextPageToken)}`,
    );
    expect(violation(mismatch).field).toBe('page_token');
  });

  it('shows 100 policies at most per page', async () => {
    const many = await startTestServer();
    try {
      for (let i = 0; i < 105; i++) {
        const res = await many.api('POST', '/api/v1/policies', {
          name: `p${i}`,
          configuration: { cedar_policy: 'permit(principal, action, resource);' },
        });
        expect(res.status).toBe(200);
      }
      const page = await many.api('GET', '/api/v1/policies?page_size=500');
      expect(page.body.policies).toHaveLength(100);
      expect(page.body.nextPageToken).not.toBe('');
      const rest = await many.api('GET', `/api/v1/policies?page_size=500&page_token=${encodeURIComponent(page.body.nextPageToken)}`);
      expect(rest.body.policies).toHaveLength(6); // 105 + the default policy
      expect(rest.body.nextPageToken).toBe('');
    } finally {
      await many.close();
    }
  });
});

describe('ListPolicyVersions (Outpost extension)', () => {
  it('returns every version newest first with configuration, notes and change message, paging with tokens', async () => {
    const p = await create({ name: 'History', version_notes: 'initial' });
    const v2 = (
      await update({
        policy: { policy_id: p.policyId, configuration: { cedar_policy: THREE } },
        update_mask: 'configuration',
        version_notes: 'add view',
      })
    ).body.policy;
    const v3 = (
      await update({ policy: { policy_id: p.policyId, configuration: { cedar_policy: TWO } }, update_mask: 'configuration' }, teammateToken)
    ).body.policy;

    const res = await server.api('GET', `/api/v1/policies/${p.policyId}/versions`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['policyVersions', 'nextPageToken']);
    expect(res.body.nextPageToken).toBe('');
    expect(res.body.policyVersions).toEqual([
      {
        policyVersionId: v3.policyVersionId,
        policyId: p.policyId,
        version: 3,
        generatedChangeMessage: v3.generatedChangeMessage,
        configuration: { cedarPolicy: TWO },
        createdDate: v3.modifiedDate,
        createdByUserId: v3.modifiedByUserId,
      },
      {
        policyVersionId: v2.policyVersionId,
        policyId: p.policyId,
        version: 2,
        versionNotes: 'add view',
        generatedChangeMessage: v2.generatedChangeMessage,
        configuration: { cedarPolicy: THREE },
        createdDate: v2.modifiedDate,
        createdByUserId: p.createdByUserId,
      },
      {
        policyVersionId: p.policyVersionId,
        policyId: p.policyId,
        version: 1,
        versionNotes: 'initial',
        generatedChangeMessage: 'Created with 2 policies (+2 lines)',
        configuration: { cedarPolicy: TWO },
        createdDate: p.createdDate,
        createdByUserId: p.createdByUserId,
      },
    ]);
    expect(res.body.policyVersions[0]).not.toHaveProperty('versionNotes');

    const first = await server.client.ListPolicyVersions({ policyId: p.policyId, pageSize: 2 });
    expect(first.policyVersions.map((v) => v.version)).toEqual([3, 2]);
    const second = await server.client.ListPolicyVersions({ policyId: p.policyId, pageSize: 2, pageToken: first.nextPageToken });
    expect(second.policyVersions.map((v) => v.version)).toEqual([1]);
    expect(second.nextPageToken).toBe('');
    const oldest = await server.api('GET', `/api/v1/policies/${p.policyId}/versions?order_by=version`);
    expect(oldest.body.policyVersions.map((v: any) => v.version)).toEqual([1, 2, 3]);
  });

  it('is NOT_FOUND for unknown and foreign policies', async () => {
    const p = await create({ name: 'Foreign history' });
    expect((await server.api('GET', '/api/v1/policies/unknown/versions')).status).toBe(404);
    expect((await server.api('GET', `/api/v1/policies/${p.policyId}/versions`, undefined, otherOrgToken)).status).toBe(404);
  });

  it('is marked as an Outpost extension in the OpenAPI document', async () => {
    const { buildOpenApiDocument } = await import('../../src-shared/openapi');
    const doc = buildOpenApiDocument() as any;
    expect(doc.paths['/api/v1/policies/{policyId}/versions'].get['x-outpost-extension']).toBe(true);
    expect(doc.paths['/api/v1/policies/{policyId}/archive'].post.requestBody).toBeUndefined();
  });
});
