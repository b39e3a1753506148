// Cedar policies decide every operation (issue #20), over real HTTP and a real
// SQLite file: the default policy of a fresh organization, forbid over permit,
// action groups, attribute conditions (the propulsion rule), list filtering
// with correct paging, cross-organization NOT_FOUND, schema validation with
// locations, and policy changes deciding the very next request.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addRole, findMember, setPrincipalAttribute, setResourceAttribute } from '../../src-main/auth/cedar/attributes';
import { DEFAULT_POLICY_NAME, defaultPolicyText } from '../../src-main/auth/defaultPolicy';
import { startTestServer, type TestServer } from '../support/testServer';

let server: TestServer;
let alice: string; // a member of the default organization (not the data directory owner)
let outsider: string; // a member of another organization

beforeAll(async () => {
  server = await startTestServer();
  alice = server.newToken('alice@outpost.local');
  outsider = server.newToken('olga@elsewhere', 'Elsewhere');
  await ok('POST', '/api/v1/assets', { name: 'bench-1' });
});
afterAll(async () => server?.close());

const ok = async (method: string, path: string, body?: unknown, token?: string) => {
  const res = await server.api(method, path, body, token);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
};

function expectDenied(res: { status: number; body: any }, action: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(403);
  expect(res.body.code).toBe(7);
  expect(res.body.message).toContain(action);
  expect(res.body.message).not.toMatch(/\n\s+at /); // no stack trace
}

/** Creates a policy (as the owner) and returns it; archive it with `retire`. */
const createPolicy = async (name: string, cedarPolicy: string) =>
  (await ok('POST', '/api/v1/policies', { name, configuration: { cedarPolicy } })).policy;
const retire = (policyId: string) => ok('POST', `/api/v1/policies/${policyId}/archive`);

const annotation = async (name: string, extra: Record<string, unknown> = {}, token?: string) =>
  (
    await ok(
      'POST',
      '/api/v1/annotations',
      { name, startTime: '2026-01-01T00:00:00Z', endTime: '2026-01-01T00:01:00Z', assets: ['bench-1'], ...extra },
      token,
    )
  ).annotation;

describe('the default policy', () => {
  it('a fresh organization has one policy letting its members do everything, so a new install behaves as before', async () => {
    const fresh = await startTestServer();
    try {
      const listed = await fresh.api('GET', '/api/v1/policies');
      expect(listed.status).toBe(200);
      expect(listed.body.policies).toHaveLength(1);
      const [p] = listed.body.policies;
      expect(p).toMatchObject({
        name: DEFAULT_POLICY_NAME,
        isArchived: false,
        version: 1,
        configuration: { cedarPolicy: defaultPolicyText(p.organizationId) },
      });
      expect(p.configuration.cedarPolicy).toContain(`permit(principal in Organization::"${p.organizationId}", action, resource);`);
      const member = fresh.newToken('new@outpost.local');
      expect((await fresh.api('POST', '/api/v1/assets', { name: 'rig' }, member)).status).toBe(200);
      const created = await fresh.api(
        'POST',
        '/api/v1/annotations',
        { name: 'first', startTime: '2026-01-01T00:00:00Z', endTime: '2026-01-01T00:01:00Z', assets: ['rig'] },
        member,
      );
      expect(created.status).toBe(200);
      expect((await fresh.api('GET', '/api/v1/annotations', undefined, member)).body.annotations).toHaveLength(1);
      // A second organization gets its own default policy, naming it.
      const other = fresh.newToken('x@elsewhere', 'Elsewhere');
      const theirs = (await fresh.api('GET', '/api/v1/policies', undefined, other)).body.policies;
      expect(theirs.map((x: any) => x.name)).toEqual([DEFAULT_POLICY_NAME]);
      expect(theirs[0].organizationId).not.toBe(p.organizationId);
    } finally {
      await fresh.close();
    }
  });
});

describe('deny, forbid over permit, policy changes', () => {
  it("the issue's example: forbid(principal, action, resource) makes GET /api/v1/annotations 403 from the next request, and archiving it restores access", async () => {
    const a = await annotation('before the lock', {}, alice);
    expect((await server.api('GET', '/api/v1/annotations', undefined, alice)).status).toBe(200);
    const lock = await createPolicy('Lock everything', 'forbid(principal, action, resource);');
    const listed = await server.api('GET', '/api/v1/annotations', undefined, alice);
    expectDenied(listed, 'ListAnnotations');
    expect(listed.body.message).toContain('forbidden by "Lock everything #1');
    expectDenied(await server.api('GET', '/api/v1/annotations'), 'ListAnnotations'); // the owner too
    expectDenied(await server.api('GET', `/api/v1/annotations/${a.annotationId}`, undefined, alice), 'GetAnnotation');
    const refused = await server.api(
      'POST',
      '/api/v1/annotations',
      { name: 'x', startTime: '2026-01-01T00:00:00Z', endTime: '2026-01-01T00:01:00Z', assets: ['bench-1'] },
      alice,
    );
    expectDenied(refused, 'CreateAnnotation');
    expect(server.engine.db.get<{ n: number }>("SELECT count(*) AS n FROM annotations WHERE name = 'x'")!.n).toBe(0);
    // The owner can always mend the policies (else a forbid of everything could never be undone).
    await retire(lock.policyId);
    expect((await server.api('GET', '/api/v1/annotations', undefined, alice)).status).toBe(200);
    expect((await server.api('GET', `/api/v1/annotations/${a.annotationId}`, undefined, alice)).status).toBe(200);
  });

  it('action groups: a forbid on Action::"archive" refuses archive operations and archiving updates, and leaves reads and writes', async () => {
    const a = await annotation('grouped', {}, alice);
    const noArchive = await createPolicy('No archiving', 'forbid(principal, action in Action::"archive", resource);');
    try {
      expectDenied(await server.api('POST', `/api/v1/annotations/${a.annotationId}:archive`, {}, alice), 'ArchiveAnnotation');
      expectDenied(
        await server.api('POST', '/api/v1/annotations:batchArchive', { annotationIds: [a.annotationId] }, alice),
        'BatchArchiveAnnotations',
      );
      expectDenied(await server.api('DELETE', `/api/v1/annotations/${a.annotationId}`, undefined, alice), 'DeleteAnnotation');
      // Archiving through UpdateAnnotation's mask is an archive too.
      const viaMask = await server.api(
        'PATCH',
        '/api/v1/annotations',
        { annotation: { annotationId: a.annotationId, deletedDate: '2026-02-01T00:00:00Z' }, updateMask: 'deleted_date' },
        alice,
      );
      expectDenied(viaMask, 'ArchiveAnnotation');
      const renamed = await ok(
        'PATCH',
        '/api/v1/annotations',
        { annotation: { annotationId: a.annotationId, name: 'renamed' }, updateMask: 'name' },
        alice,
      );
      expect(renamed.annotation).toMatchObject({ name: 'renamed', archivedDate: null });
      expect((await server.api('GET', `/api/v1/annotations/${a.annotationId}`, undefined, alice)).body.annotation.archivedDate).toBeNull();
    } finally {
      await retire(noArchive.policyId);
    }
    // The very next request after the archive of the policy decides without it.
    expect((await ok('POST', `/api/v1/annotations/${a.annotationId}:archive`, {}, alice)).annotation.archivedDate).not.toBeNull();
  });

  it('a channel is archived by `active`: a forbid on BatchArchiveChannels refuses UpdateChannel with active in its mask too', async () => {
    const assetId = (await ok('GET', `/api/v1/assets?filter=${encodeURIComponent("name == 'bench-1'")}`, undefined, alice)).assets[0]
      .assetId;
    const { channel } = await ok('POST', '/api/v3/channels', { assetId, name: 'guarded.channel' }, alice);
    const noArchive = await createPolicy('No channel archiving', 'forbid(principal, action == Action::"BatchArchiveChannels", resource);');
    try {
      expectDenied(
        await server.api('POST', '/api/v3/channels:batchArchive', { channelIds: [channel.channelId] }, alice),
        'BatchArchiveChannels',
      );
      const viaMask = await server.api(
        'PATCH',
        '/api/v3/channels',
        { channel: { channelId: channel.channelId }, updateMask: 'active' },
        alice,
      );
      expectDenied(viaMask, 'BatchArchiveChannels');
      const described = await ok(
        'PATCH',
        '/api/v3/channels',
        { channel: { channelId: channel.channelId, displayDescription: 'still editable' }, updateMask: 'display_description' },
        alice,
      );
      expect(described.channel).toMatchObject({ displayDescription: 'still editable', active: true });
    } finally {
      await retire(noArchive.policyId);
    }
  });

  it('without any permit the default is deny; roles grant what a permit names (policy edits decide the next request)', async () => {
    const own = await startTestServer();
    try {
      const lead = own.newToken('lead@outpost.local');
      const member = own.newToken('member@outpost.local');
      addRole(own.engine.db, findMember(own.engine.db, 'lead@outpost.local'), 'lead');
      const [defaultPolicy] = (await own.api('GET', '/api/v1/policies')).body.policies;
      expect((await own.api('POST', '/api/v1/assets', { name: 'rig' })).status).toBe(200);
      const rules = await own.api('POST', '/api/v1/policies', {
        name: 'Leads write, members read',
        configuration: {
          cedarPolicy: 'permit(principal in Role::"lead", action, resource);\npermit(principal, action in Action::"read", resource);',
        },
      });
      expect(rules.status).toBe(200);
      expect((await own.api('POST', `/api/v1/policies/${defaultPolicy.policyId}/archive`)).status).toBe(200);
      const body = { name: 'n', startTime: '2026-01-01T00:00:00Z', endTime: '2026-01-01T00:01:00Z', assets: ['rig'] };
      const denied = await own.api('POST', '/api/v1/annotations', body, member);
      expectDenied(denied, 'CreateAnnotation');
      expect(denied.body.message).toContain('no active policy permits it');
      expect((await own.api('GET', '/api/v1/annotations', undefined, member)).status).toBe(200);
      expect((await own.api('POST', '/api/v1/annotations', body, lead)).status).toBe(200);
      // A new version of the policy (members may write too) decides the next request.
      const updated = await own.api('PATCH', '/api/v1/policies', {
        policy: {
          policyId: rules.body.policy.policyId,
          configuration: { cedarPolicy: 'permit(principal, action in [Action::"read", Action::"write"], resource);' },
        },
        updateMask: 'configuration',
      });
      expect(updated.body.policy.version).toBe(2);
      expect((await own.api('POST', '/api/v1/annotations', body, member)).status).toBe(200);
    } finally {
      await own.close();
    }
  });
});

describe('another organization', () => {
  it('a record of another organization stays NOT_FOUND, whatever the policies say (never 403, which would confirm it exists)', async () => {
    const a = await annotation('ours', {}, alice);
    const lock = await createPolicy('Lock everything again', 'forbid(principal, action, resource);');
    try {
      for (const [method, path] of [
        ['GET', `/api/v1/annotations/${a.annotationId}`],
        ['POST', `/api/v1/annotations/${a.annotationId}:archive`],
      ] as const) {
        const res = await server.api(method, path, method === 'POST' ? {} : undefined, outsider);
        expect(res.status).toBe(404);
        expect(res.body.code).toBe(5);
      }
      expect((await server.api('GET', '/api/v1/annotations', undefined, outsider)).body.annotations).toEqual([]);
    } finally {
      await retire(lock.policyId);
    }
  });
});

describe('attribute conditions: only users with team == "propulsion" may archive annotations on assets tagged propulsion', () => {
  const RULE = `forbid(principal, action in Action::"archive", resource is Annotation)
when { resource.assetTags.contains("propulsion") }
unless { principal.hasTag("team") && principal.getTag("team") == "propulsion" };`;
  let carol: string;
  let dave: string;
  let onEngine: any;
  let onCabin: any;
  let rule: any;

  beforeAll(async () => {
    carol = server.newToken('carol@outpost.local');
    dave = server.newToken('dave@outpost.local');
    setPrincipalAttribute(server.engine.db, findMember(server.engine.db, 'carol@outpost.local'), 'team', 'propulsion');
    setPrincipalAttribute(server.engine.db, findMember(server.engine.db, 'dave@outpost.local'), 'team', 'avionics');
    await ok('POST', '/api/v1/assets', { name: 'engine-1', tags: ['propulsion'] });
    await ok('POST', '/api/v1/assets', { name: 'cabin-1', tags: ['interior'] });
    onEngine = await annotation('thrust dip', { assets: ['engine-1'] }, dave);
    onCabin = await annotation('door sensor', { assets: ['cabin-1'] }, dave);
    rule = await createPolicy('Propulsion archives', RULE);
  });
  afterAll(async () => retire(rule.policyId));

  it('refuses dave (team avionics) on the propulsion asset, naming the action and the policy', async () => {
    const res = await server.api('POST', `/api/v1/annotations/${onEngine.annotationId}:archive`, {}, dave);
    expectDenied(res, 'ArchiveAnnotation');
    expect(res.body.message).toContain(`Annotation::"${onEngine.annotationId}"`);
    expect(res.body.message).toContain('Propulsion archives #1');
    expectDenied(
      await server.api('POST', '/api/v1/annotations:batchArchive', { annotationIds: [onCabin.annotationId, onEngine.annotationId] }, dave),
      'BatchArchiveAnnotations',
    );
    // Nothing of the refused batch was archived.
    expect((await ok('GET', `/api/v1/annotations/${onCabin.annotationId}`, undefined, dave)).annotation.archivedDate).toBeNull();
  });

  it('lets dave archive elsewhere and edit the propulsion annotation (a write, not an archive)', async () => {
    expect((await ok('POST', `/api/v1/annotations/${onCabin.annotationId}:archive`, {}, dave)).annotation.archivedDate).not.toBeNull();
    await ok('POST', `/api/v1/annotations/${onCabin.annotationId}:unarchive`, {}, dave);
    await ok(
      'PATCH',
      '/api/v1/annotations',
      { annotation: { annotationId: onEngine.annotationId, description: 'checked' }, updateMask: 'description' },
      dave,
    );
  });

  it('lets carol (team propulsion) archive it; attributes are read at each request', async () => {
    expect((await ok('POST', `/api/v1/annotations/${onEngine.annotationId}:archive`, {}, carol)).annotation.archivedDate).not.toBeNull();
    await ok('POST', `/api/v1/annotations/${onEngine.annotationId}:unarchive`, {}, carol);
    setPrincipalAttribute(server.engine.db, findMember(server.engine.db, 'dave@outpost.local'), 'team', 'propulsion');
    expect((await ok('POST', `/api/v1/annotations/${onEngine.annotationId}:archive`, {}, dave)).annotation.archivedDate).not.toBeNull();
    setPrincipalAttribute(server.engine.db, findMember(server.engine.db, 'dave@outpost.local'), 'team', 'avionics');
    expectDenied(await server.api('POST', `/api/v1/annotations/${onEngine.annotationId}:unarchive`, {}, dave), 'UnarchiveAnnotation');
  });
});

// Two policies hiding the same rows: one on tags (compiled into the page's SQL), one on a resource attribute
// (getTag: decided row by row, reading on past hidden rows until the page is full).
describe.each([
  ['compiled into SQL', 'forbid(principal, action in Action::"read", resource is Annotation) when { resource.tags.contains("secret") };'],
  [
    'decided row by row',
    'forbid(principal, action in Action::"read", resource is Annotation) when { resource.hasTag("clearance") && resource.getTag("clearance") == "high" };',
  ],
])('lists show only what the caller may see, with correct paging (%s)', (how, text) => {
  let hidden: any;
  const made: { name: string; secret: boolean }[] = [];
  const prefix = `paging-${how.split(' ')[0]}-`;

  beforeAll(async () => {
    // 37 annotations; every third is secret, and a run of hidden rows spans page boundaries.
    for (let i = 0; i < 37; i++) {
      const secret = i % 3 === 0 || (i >= 20 && i < 28);
      const name = `${prefix}${String(i).padStart(2, '0')}`;
      const a = await annotation(name, { tags: secret ? ['secret'] : ['open'] }, alice);
      if (secret) setResourceAttribute(server.engine.db, 'Annotation', a.annotationId, 'clearance', 'high');
      made.push({ name, secret });
    }
    hidden = await createPolicy(`Secrets are hidden (${how})`, text);
  });
  afterAll(async () => retire(hidden.policyId));

  async function pages(query: string, pageSize: number) {
    const names: string[] = [];
    let token = '';
    let count = 0;
    do {
      const res = await server.api(
        'GET',
        `/api/v1/annotations?page_size=${pageSize}&${query}${token ? `&page_token=${encodeURIComponent(token)}` : ''}`,
        undefined,
        alice,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const page = res.body.annotations.map((a: any) => a.name);
      // Every page but the last is full: no holes.
      if (res.body.nextPageToken) expect(page).toHaveLength(pageSize);
      names.push(...page);
      token = res.body.nextPageToken;
      count++;
    } while (token);
    return { names, count };
  }
  const mine = () => `filter=${encodeURIComponent(`name.startsWith('${prefix}')`)}`;

  it.each([
    ['order_by=name', false],
    ['order_by=name%20desc', true],
  ])('pages of 4 by %s: every visible row once, no hidden row, every page full', async (order, desc) => {
    const visible = made.filter((m) => !m.secret).map((m) => m.name);
    const expected = desc ? [...visible].reverse() : visible;
    const { names, count } = await pages(`${order}&${mine()}`, 4);
    expect(names).toEqual(expected);
    expect(new Set(names).size).toBe(names.length);
    expect(count).toBe(Math.ceil(expected.length / 4));
  });

  it('a hidden record is refused by id too, and a filter naming it finds nothing', async () => {
    const secretOne = (
      await server.api('GET', `/api/v1/annotations?filter=${encodeURIComponent(`name == '${prefix}00'`)}`, undefined, alice)
    ).body.annotations;
    expect(secretOne).toEqual([]);
    const row = server.engine.db.get<{ id: string }>('SELECT id FROM annotations WHERE name = ?', [`${prefix}00`])!;
    expectDenied(await server.api('GET', `/api/v1/annotations/${row.id}`, undefined, alice), 'GetAnnotation');
  });

  it('archiving the policy shows every row at the next request', async () => {
    await retire(hidden.policyId);
    expect((await pages(`order_by=name&${mine()}`, 50)).names).toEqual(made.map((m) => m.name));
    await ok('POST', `/api/v1/policies/${hidden.policyId}/unarchive`);
    expect((await pages(`order_by=name&${mine()}`, 50)).names).toEqual(made.filter((m) => !m.secret).map((m) => m.name));
  });
});

describe('policies are validated against the Cedar schema', () => {
  it("the API decisions' examples (docs/API.md) are valid against the schema", async () => {
    const decisions = readFileSync(join(__dirname, '../../docs/API.md'), 'utf8');
    const examples = [...decisions.matchAll(/```cedar\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(examples.length).toBeGreaterThanOrEqual(2);
    for (const cedarPolicy of examples) expect(await ok('POST', '/api/v1/policies:validate', { cedarPolicy })).toEqual({ valid: true });
  });

  it("refuses an unknown action, an unknown attribute or entity type with Cedar's message and location, changing nothing", async () => {
    const bad = await server.api('POST', '/api/v1/policies', {
      name: 'typo',
      configuration: { cedarPolicy: 'permit(principal, action, resource);\npermit(principal, action == Action::"view", resource);' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(3);
    expect(bad.body.details[0].fieldViolations[0].field).toBe('configuration.cedar_policy');
    expect(bad.body.details[0].fieldViolations[0].description).toMatch(/unrecognized action `Action::"view"` at line 2, column 29/);
    const p = await createPolicy('valid', 'forbid(principal, action == Action::"DeleteAnnotation", resource) when { false };');
    const update = await server.api('PATCH', '/api/v1/policies', {
      policy: {
        policyId: p.policyId,
        configuration: { cedarPolicy: 'forbid(principal, action, resource is Annotation) when { resource.owner == principal };' },
      },
      updateMask: 'configuration',
    });
    expect(update.status).toBe(400);
    expect(update.body.details[0].fieldViolations[0]).toMatchObject({
      field: 'policy.configuration.cedar_policy',
      description: expect.stringMatching(/attribute `owner` on entity type `Annotation` not found at line 1, column 58/),
    });
    expect((await ok('GET', `/api/v1/policies/${p.policyId}`)).policy.version).toBe(1);
    const entity = await server.api('POST', '/api/v1/policies:validate', { cedarPolicy: 'permit(principal is Robot, action, resource);' });
    expect(entity.body).toEqual({ valid: false, failureMessage: expect.stringMatching(/Robot/) });
    expect(server.engine.db.get<{ n: number }>("SELECT count(*) AS n FROM policies WHERE name = 'typo'")!.n).toBe(0);
    await retire(p.policyId);
  });
});
