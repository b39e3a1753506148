// CEL filters of every list operation over real HTTP (issue #3): for each
// resource its declared fields work (equality, a timestamp range, relations /
// metadata where the resource has them, enums, negation) and an unknown field
// is INVALID_ARGUMENT naming the column, with a BadRequest detail on `filter`.
// Annotations and annotation logs have their own suites (annotationList.test.ts).
//
// Every describe block works in a fresh organization, so lists hold exactly
// its own rows. Lists are read with page_size 2 so filters are also paged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestServer, type TestServer } from '../support/testServer';
import { DEFAULT_POLICY_NAME } from '../../src-main/auth/defaultPolicy';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => s.close());

type Res = { status: number; body: any };

interface Org {
  token: string;
  organizationId: string;
  userId: string;
  api(method: string, path: string, body?: unknown): Promise<Res>;
  ok(method: string, path: string, body?: unknown): Promise<any>;
}

async function freshOrg(label: string, user = `${label}-${randomUUID().slice(0, 8)}@filters.test`): Promise<Org> {
  const token = s.newToken(user, `${label} ${randomUUID().slice(0, 8)}`);
  const api = (method: string, path: string, body?: unknown) => s.api(method, path, body, token);
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await api(method, path, body);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body;
  };
  const me = await ok('GET', '/api/v2/me');
  return { token, organizationId: me.organizations[0].organizationId, userId: me.userId, api, ok };
}

function withQuery(path: string, query: string): string {
  return query ? `${path}${path.includes('?') ? '&' : '?'}${query}` : path;
}

const filterQuery = (filter: string) => `filter=${encodeURIComponent(filter)}`;

/** Every item of a filtered list (paged by 2), in list order. */
async function listAll(org: Org, path: string, key: string, filter: string, pageSize = 2): Promise<any[]> {
  const items: any[] = [];
  let pageToken = '';
  for (let i = 0; i < 50; i++) {
    const query = [filterQuery(filter), `page_size=${pageSize}`, pageToken ? `page_token=${encodeURIComponent(pageToken)}` : '']
      .filter(Boolean)
      .join('&');
    const body = await org.ok('GET', withQuery(path, query));
    expect(body[key].length).toBeLessThanOrEqual(pageSize);
    items.push(...body[key]);
    pageToken = body.nextPageToken;
    if (!pageToken) return items;
  }
  throw new Error('too many pages');
}

/** A lister: filter -> the sorted labels of the matching items. */
function lister(org: Org, path: string, key: string, label: (item: any) => string) {
  return async (filter: string) => (await listAll(org, path, key, filter)).map(label).sort();
}

/** The position a filter error names: `... at column N` ends the message. */
const column = (n: number) => new RegExp(`at column ${n}$`);

/** 400 INVALID_ARGUMENT, BadRequest on `filter`, the message containing each fragment and naming a column. */
function expectFilterError(res: Res, ...fragments: (string | RegExp)[]) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.code).toBe(3);
  expect(res.body.message).toMatch(/^filter: /);
  expect(res.body.details[0]['@type']).toBe('type.googleapis.com/google.rpc.BadRequest');
  expect(res.body.details[0].fieldViolations.map((v: { field: string }) => v.field)).toEqual(['filter']);
  for (const f of fragments) {
    if (typeof f === 'string') expect(res.body.message).toContain(f);
    else expect(res.body.message).toMatch(f);
  }
  expect(res.body.message).toMatch(/at (line \d+, )?column \d+$/);
}

async function rejects(org: Org, path: string, filter: string, ...fragments: (string | RegExp)[]) {
  expectFilterError(await org.api('GET', withQuery(path, filterQuery(filter))), ...fragments);
}

const ts = (iso: string) => `timestamp('${iso}')`;

// ---------------------------------------------------------------------------------------------------
describe('ListSavedSearches filters', () => {
  const path = '/api/v1/saved_searches';
  let org: Org;
  let names: (filter: string) => Promise<string[]>;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    org = await freshOrg('saved-searches');
    for (const [name, overviewMode] of [
      ['Alpha', 'ANNOTATIONS'],
      ['Beta', 'RUNS'],
      ['Gamma', 'ANNOTATIONS'],
    ]) {
      ids[name] = (await org.ok('POST', path, { name, properties: { overviewMode } })).savedSearch.savedSearchId;
    }
    names = lister(org, path, 'savedSearches', (x) => x.name);
  });

  it('equality on name and saved_search_id', async () => {
    expect(await names("name == 'Beta'")).toEqual(['Beta']);
    expect(await names(`saved_search_id == '${ids.Gamma}'`)).toEqual(['Gamma']);
    expect(await names(`saved_search_id in ['${ids.Alpha}', '${ids.Beta}']`)).toEqual(['Alpha', 'Beta']);
  });

  it('overview_mode reads the stored properties document', async () => {
    expect(await names("overview_mode == 'ANNOTATIONS'")).toEqual(['Alpha', 'Gamma']);
    expect(await names("overview_mode == 'RUNS' || name.startsWith('G')")).toEqual(['Beta', 'Gamma']);
  });

  it('negation', async () => {
    expect(await names("!(overview_mode == 'ANNOTATIONS')")).toEqual(['Beta']);
    expect(await names("name != 'Alpha' && !name.endsWith('ta')")).toEqual(['Gamma']);
  });

  it('undocumented and unknown fields are INVALID_ARGUMENT (saved searches have no timestamp, enum or relation filter fields)', async () => {
    await rejects(org, path, "nmae == 'Alpha'", "undeclared reference to 'nmae'", column(1));
    await rejects(org, path, `created_date > ${ts('2020-01-01T00:00:00Z')}`, "undeclared reference to 'created_date'");
  });
});

// ---------------------------------------------------------------------------------------------------
describe('ListPolicies / ListPolicyVersions filters', () => {
  const path = '/api/v1/policies';
  const CEDAR = 'permit(principal, action, resource);';
  let org: Org;
  let names: (filter: string) => Promise<string[]>;
  const p: Record<string, any> = {};

  beforeAll(async () => {
    org = await freshOrg('policies');
    p.editors = (
      await org.ok('POST', path, { name: 'Editors', description: 'Who may edit', configuration: { cedarPolicy: CEDAR } })
    ).policy;
    p.viewers = (await org.ok('POST', path, { name: 'Viewers', configuration: { cedarPolicy: CEDAR } })).policy;
    p.admins = (await org.ok('POST', path, { name: 'Admins', description: 'All', configuration: { cedarPolicy: CEDAR } })).policy;
    await org.ok('POST', `${path}/${p.admins.policyId}/archive`);
    await org.ok('PATCH', path, {
      // A forbid that locks nothing these tests need (a forbid of everything would deny the lists themselves).
      policy: {
        policyId: p.editors.policyId,
        configuration: { cedarPolicy: 'forbid(principal, action == Action::"DeleteAnnotation", resource);' },
      },
      updateMask: 'configuration',
      versionNotes: 'lock down',
    });
    // The organization's default policy (issue #20) is listed too; these filters are about the policies made here.
    const listed = lister(org, path, 'policies', (x) => x.name);
    names = async (filter) => (await listed(filter)).filter((n) => n !== DEFAULT_POLICY_NAME);
  });

  it('equality on name, policy_id, organization_id and the user ids', async () => {
    expect(await names("name == 'Viewers'")).toEqual(['Viewers']);
    expect(await names(`policy_id == '${p.editors.policyId}'`)).toEqual(['Editors']);
    expect(await names(`organization_id == '${org.organizationId}' && created_by_user_id == '${org.userId}'`)).toEqual([
      'Editors',
      'Viewers',
    ]);
    expect(await names(`modified_by_user_id != '${org.userId}'`)).toEqual([]);
  });

  it('timestamp range on created_date and modified_date', async () => {
    expect(await names(`created_date >= ${ts(p.viewers.createdDate)}`)).toEqual(['Viewers']);
    expect(await names(`created_date < ${ts(p.viewers.createdDate)}`)).toEqual(['Editors']);
    // The configuration change moved Editors' modified_date past Viewers' creation.
    expect(await names(`modified_date > ${ts(p.viewers.createdDate)}`)).toEqual(['Editors']);
  });

  it('description is optional: an unset one is null', async () => {
    expect(await names('description == null')).toEqual(['Viewers']);
    expect(await names("description.startsWith('Who')")).toEqual(['Editors']);
  });

  it('negation (an unset description is never equal)', async () => {
    expect(await names("!(description == 'Who may edit')")).toEqual(['Viewers']);
    expect(await names("!(name in ['Editors'])")).toEqual(['Viewers']);
  });

  it('archive state is the include_archived request field, not a filter field', async () => {
    expect(await names("name == 'Admins'")).toEqual([]);
    const withArchived = await listAll(org, `${path}?include_archived=true`, 'policies', "name == 'Admins' || description == null");
    expect(withArchived.map((x) => x.name).sort()).toEqual(['Admins', 'Viewers']);
    await rejects(org, path, 'is_archived == true', "undeclared reference to 'is_archived'", column(1));
    await rejects(org, path, `name == 'x' && archived_date != null`, "undeclared reference to 'archived_date'", column(16));
  });

  it('ListPolicyVersions (Outpost extension) filters the PolicyVersion fields', async () => {
    const versionsPath = `${path}/${p.editors.policyId}/versions`;
    const versions = lister(org, versionsPath, 'policyVersions', (v) => String(v.version));
    expect(await versions('version == 2')).toEqual(['2']);
    expect(await versions('version_notes == null')).toEqual(['1']);
    expect(await versions("version_notes == 'lock down'")).toEqual(['2']);
    expect(await versions(`!(version > 1) && created_by_user_id == '${org.userId}'`)).toEqual(['1']);
    await rejects(org, versionsPath, "policy_id == 'x'", "undeclared reference to 'policy_id'");
  });
});

// ---------------------------------------------------------------------------------------------------
describe('ListRules / ListRuleVersions filters', () => {
  let org: Org;
  let names: (filter: string) => Promise<string[]>;
  const r: Record<string, string> = {};
  const condition = {
    expression: { singleChannelComparison: { channelName: 'chamber.pressure', comparator: 'GREATER_THAN', double: 10 } },
    actions: [{ actionType: 'ANNOTATION', configuration: { annotation: { tagIds: [], annotationType: 'ANNOTATION_TYPE_DATA_REVIEW' } } }],
  };
  const rule = (name: string, extra: Record<string, unknown> = {}) => ({
    name,
    description: `${name} rule`,
    conditions: [condition],
    ...extra,
  });

  beforeAll(async () => {
    org = await freshOrg('rules');
    r.gnc = (
      await org.ok('POST', '/api/v1/rules', {
        update: rule('gnc', {
          clientKey: 'k-gnc',
          isExternal: true,
          assetConfiguration: { assetIds: ['asset-1'], tagIds: ['tag-hot'] },
          metadata: [
            { key: { name: 'team' }, stringValue: 'gnc' },
            { key: { name: 'priority' }, numberValue: 2 },
          ],
        }),
      })
    ).ruleId;
    r.ops = (
      await org.ok('POST', '/api/v1/rules', {
        update: rule('ops', {
          assetConfiguration: { assetIds: ['asset-2'], tagIds: [] },
          metadata: [{ key: { name: 'team' }, stringValue: 'ops' }],
        }),
      })
    ).ruleId;
    r.old = (await org.ok('POST', '/api/v1/rules', { update: rule('old', { assetId: 'asset-legacy' }) })).ruleId;
    await org.ok('POST', '/api/v1/rules/archive', { ruleId: r.old });
    const gnc = (await org.ok('GET', `/api/v1/rules?rule_id=${r.gnc}`)).rule;
    await org.ok('PUT', '/api/v1/rules', { ...gnc, conditions: [condition, condition], versionNotes: 'second cut' });
    names = lister(org, '/api/v1/rules:list', 'rules', (x) => x.name);
  });

  it('equality on rule_id, client_key, name and description', async () => {
    expect(await names(`rule_id == '${r.ops}'`)).toEqual(['ops']);
    expect(await names("client_key == 'k-gnc'")).toEqual(['gnc']);
    // No client key reads as '' (as on the wire).
    expect(await names("client_key == ''")).toEqual(['old', 'ops']);
    expect(await names("description == 'old rule' || name == 'ops'")).toEqual(['old', 'ops']);
  });

  it('timestamp range, and the nullable archived_date / deleted_date', async () => {
    const ops = (await org.ok('GET', `/api/v1/rules?rule_id=${r.ops}`)).rule;
    expect(await names(`created_date >= ${ts(ops.createdDate)}`)).toEqual(['old', 'ops']);
    expect(await names(`created_date < ${ts(ops.createdDate)} && modified_date > ${ts(ops.createdDate)}`)).toEqual(['gnc']);
    expect(await names(`archived_date > ${ts('2000-01-01T00:00:00Z')}`)).toEqual(['old']);
    // Delete and archive are one concept: the archived rule has a delete date.
    expect(await names('deleted_date == null')).toEqual(['gnc', 'ops']);
    expect(await names(`deleted_date > ${ts('2000-01-01T00:00:00Z')}`)).toEqual(['old']);
  });

  it('bools: is_external, is_archived, is_live_evaluation_enabled', async () => {
    expect(await names('is_external')).toEqual(['gnc']);
    expect(await names('is_archived == true')).toEqual(['old']);
    expect(await names('is_archived == false && !is_external')).toEqual(['ops']);
    expect(await names('is_live_evaluation_enabled == true')).toEqual(['gnc', 'old', 'ops']);
  });

  it('relations asset_id (asset configuration and the deprecated asset_id) and tag_id', async () => {
    expect(await names("asset_id == 'asset-1'")).toEqual(['gnc']);
    expect(await names("asset_id == 'asset-legacy'")).toEqual(['old']);
    expect(await names("asset_id in ['asset-1', 'asset-2']")).toEqual(['gnc', 'ops']);
    expect(await names("tag_id == 'tag-hot'")).toEqual(['gnc']);
    expect(await names("!(tag_id == 'tag-hot')")).toEqual(['old', 'ops']);
  });

  it('metadata', async () => {
    expect(await names("metadata['team'] == 'gnc'")).toEqual(['gnc']);
    expect(await names('metadata.priority >= 2')).toEqual(['gnc']);
    expect(await names("'team' in metadata && !(metadata.team == 'gnc')")).toEqual(['ops']);
  });

  it('folders and activeFolders: no local folders, so no rule is in one', async () => {
    expect(await names("folders == 'f-1'")).toEqual([]);
    expect(await names("!(activeFolders == 'f-1')")).toEqual(['gnc', 'old', 'ops']);
  });

  it('unknown fields are INVALID_ARGUMENT naming the column', async () => {
    await rejects(org, '/api/v1/rules:list', "name == 'gnc' && folder_ids == 'x'", "undeclared reference to 'folder_ids'", column(18));
  });

  it('ListRuleVersions: rule_version_id, user_notes, change_message', async () => {
    const path = `/api/v1/rules/${r.gnc}/versions`;
    const all = await listAll(org, path, 'ruleVersions', '');
    expect(all.map((v) => v.version)).toEqual(['2', '1']);
    const versions = lister(org, path, 'ruleVersions', (v) => v.version);
    expect(await versions("user_notes == 'second cut'")).toEqual(['2']);
    expect(await versions(`rule_version_id == '${all[1].ruleVersionId}'`)).toEqual(['1']);
    expect(await versions(`change_message == '${all[0].generatedChangeMessage}'`)).toEqual(['2']);
    expect(await versions("!(user_notes == 'second cut')")).toEqual(['1']);
    await rejects(org, path, 'version == 1', "undeclared reference to 'version'");
  });
});

// ---------------------------------------------------------------------------------------------------
describe('ListTestReports / ListTestSteps / ListTestMeasurements / Count* filters', () => {
  let org: Org;
  let r1: any;
  let r2: any;
  let r3: any;
  const step: Record<string, any> = {};
  const m: Record<string, any> = {};
  const reports = () => lister(org, '/api/v1/test-reports', 'testReports', (x) => x.name);
  const steps = () => lister(org, '/api/v1/test-steps', 'testSteps', (x) => x.name);
  const measurements = () => lister(org, '/api/v1/test-measurements', 'testMeasurements', (x) => x.name);
  const count = async (kind: 'test-steps' | 'test-measurements', filter: string) =>
    (await org.ok('GET', `/api/v1/${kind}/count?${filterQuery(filter)}`)).count;

  const report = (name: string, start: string, extra: Record<string, unknown> = {}) =>
    org.ok('POST', '/api/v1/test-reports', {
      status: 'TEST_STATUS_PASSED',
      name,
      testSystemName: 'rig-1',
      testCase: 'case',
      startTime: start,
      endTime: start.replace('T00', 'T01'),
      ...extra,
    });
  const createStep = async (name: string, reportId: string, stepPath: string, extra: Record<string, unknown> = {}) =>
    (
      await org.ok('POST', '/api/v1/test-steps', {
        testStep: {
          testReportId: reportId,
          name,
          stepPath,
          status: 'TEST_STATUS_PASSED',
          stepType: 'TEST_STEP_TYPE_ACTION',
          startTime: '2026-01-01T00:00:00Z',
          endTime: '2026-01-01T00:10:00Z',
          ...extra,
        },
      })
    ).testStep;
  const createMeasurement = async (name: string, testStepId: string, value: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    (
      await org.ok('POST', '/api/v1/test-measurements', {
        testMeasurement: { name, testStepId, passed: true, timestamp: '2026-01-01T00:05:00Z', ...value, ...extra },
      })
    ).testMeasurement;

  beforeAll(async () => {
    org = await freshOrg('test-reports');
    r1 = (await report('r1', '2026-01-01T00:00:00Z', { serialNumber: 'SN-1', metadata: [{ key: { name: 'station' }, stringValue: 'A' }] }))
      .testReport;
    r2 = (
      await report('r2', '2026-02-01T00:00:00Z', {
        status: 'TEST_STATUS_FAILED',
        serialNumber: 'SN-2',
        metadata: [{ key: { name: 'station' }, stringValue: 'B' }],
      })
    ).testReport;
    r3 = (await report('r3', '2026-03-01T00:00:00Z')).testReport;
    await org.ok('PATCH', '/api/v1/test-reports', {
      testReport: { testReportId: r3.testReportId, isArchived: true },
      updateMask: 'isArchived',
    });

    step.s1 = await createStep('s1', r1.testReportId, '1', {
      stepType: 'TEST_STEP_TYPE_GROUP',
      metadata: [{ key: { name: 'limit' }, numberValue: 5 }],
    });
    step.s11 = await createStep('s1.1', r1.testReportId, '1.1', {
      parentStepId: step.s1.testStepId,
      status: 'TEST_STATUS_FAILED',
      startTime: '2026-01-01T00:01:00Z',
      errorInfo: { errorCode: 42, errorMessage: 'timeout' },
    });
    step.s2 = await createStep('s2', r1.testReportId, '2', { status: 'TEST_STATUS_SKIPPED', startTime: '2026-01-01T00:02:00Z' });
    step.t1 = await createStep('t1', r2.testReportId, '1');

    m.high = await createMeasurement('high', step.s1.testStepId, { numericValue: 9.5, measurementType: 'TEST_MEASUREMENT_TYPE_DOUBLE' });
    m.low = await createMeasurement('low', step.s1.testStepId, { numericValue: 8 }, { passed: false, timestamp: '2026-01-01T00:06:00Z' });
    m.flag = await createMeasurement(
      'flag',
      step.s1.testStepId,
      { booleanValue: true },
      { metadata: [{ key: { name: 'unit' }, stringValue: 'bool' }] },
    );
    m.word = await createMeasurement('word', step.s11.testStepId, { stringValue: 'OK' });
    m.other = await createMeasurement('other', step.t1.testStepId, { numericValue: 10 });
  });

  describe('reports', () => {
    it('equality on test_report_id, names and serial_number', async () => {
      const names = reports();
      expect(await names(`test_report_id == '${r1.testReportId}'`)).toEqual(['r1']);
      expect(await names("serial_number == 'SN-2' || name == 'r3'")).toEqual(['r2', 'r3']);
      expect(await names("test_system_name == 'rig-1' && run_id == ''")).toEqual(['r1', 'r2', 'r3']);
    });

    it('enum status (bare names, strings and numbers)', async () => {
      const names = reports();
      expect(await names('status == TEST_STATUS_FAILED')).toEqual(['r2']);
      expect(await names("status == 'TEST_STATUS_PASSED'")).toEqual(['r1', 'r3']);
      expect(await names('status in [3, 4]')).toEqual(['r2']);
      await rejects(org, '/api/v1/test-reports', 'status == TEST_STATUS_BROKEN', "'TEST_STATUS_BROKEN' is not a value of status");
    });

    it('timestamp range on start_time, and created_date the way the Python client writes it', async () => {
      const names = reports();
      expect(await names(`start_time >= ${ts('2026-01-15T00:00:00Z')} && start_time < ${ts('2026-02-15T00:00:00Z')}`)).toEqual(['r2']);
      expect(await names(`end_time <= ${ts('2026-01-01T01:00:00Z')}`)).toEqual(['r1']);
      expect(await names(`test_report_id == '${r2.testReportId}' && created_date >= ${ts('2000-01-01T00:00:00+00:00')}`)).toEqual(['r2']);
    });

    it('metadata, archive state and negation', async () => {
      const names = reports();
      expect(await names("metadata['station'] == 'A'")).toEqual(['r1']);
      expect(await names("!(metadata.station == 'A')")).toEqual(['r2']); // r3 has no station: an error, in neither
      expect(await names('is_archived == false')).toEqual(['r1', 'r2']);
      expect(await names(`archived_date > ${ts('2000-01-01T00:00:00Z')}`)).toEqual(['r3']);
      expect(await names('!(status == TEST_STATUS_PASSED)')).toEqual(['r2']);
    });

    it('unknown fields are INVALID_ARGUMENT naming the column', async () => {
      await rejects(org, '/api/v1/test-reports', "status == 2 && operator == 'ian'", "undeclared reference to 'operator'", column(16));
    });
  });

  describe('steps', () => {
    it("test_report_id == '...' (the renderer's report view) lists and counts one report's steps", async () => {
      const filter = `test_report_id == '${r1.testReportId}'`;
      const inOrder = await listAll(org, '/api/v1/test-steps?order_by=step_path', 'testSteps', filter);
      expect(inOrder.map((x) => x.stepPath)).toEqual(['1', '1.1', '2']);
      expect(await count('test-steps', filter)).toBe('3');
      expect(await count('test-steps', `test_report_id == '${r2.testReportId}'`)).toBe('1');
      expect(await count('test-steps', '')).toBe('4');
    });

    it('parent_step_id, step_path and test_step_id', async () => {
      const names = steps();
      expect(await names(`parent_step_id == '${step.s1.testStepId}'`)).toEqual(['s1.1']);
      expect(await names(`parent_step_id == '' && test_report_id == '${r1.testReportId}'`)).toEqual(['s1', 's2']);
      expect(await names("step_path.startsWith('1.')")).toEqual(['s1.1']);
      expect(await names(`test_step_id == '${step.t1.testStepId}'`)).toEqual(['t1']);
    });

    it('enums step_type and status, with counts', async () => {
      const names = steps();
      expect(await names('step_type == TEST_STEP_TYPE_GROUP')).toEqual(['s1']);
      expect(await names('status in [TEST_STATUS_FAILED, TEST_STATUS_SKIPPED]')).toEqual(['s1.1', 's2']);
      expect(await count('test-steps', '!(status == TEST_STATUS_PASSED)')).toBe('2');
    });

    it('timestamp range, error info (absent without error_info) and metadata', async () => {
      const names = steps();
      expect(await names(`start_time > ${ts('2026-01-01T00:00:30Z')} && start_time <= ${ts('2026-01-01T00:01:00Z')}`)).toEqual(['s1.1']);
      expect(await names("error_code == 42 && error_message.contains('time')")).toEqual(['s1.1']);
      expect(await names('error_code == null')).toEqual(['s1', 's2', 't1']);
      expect(await names('metadata.limit > 4.5')).toEqual(['s1']);
      expect(await count('test-steps', `created_date >= ${ts('2000-01-01T00:00:00Z')} && modified_date >= created_date`)).toBe('4');
    });

    it('unknown fields are INVALID_ARGUMENT, in List and Count', async () => {
      await rejects(org, '/api/v1/test-steps', "test_case == 'x'", "undeclared reference to 'test_case'", column(1));
      expectFilterError(
        await org.api('GET', `/api/v1/test-steps/count?${filterQuery("stepPath == '1'")}`),
        "undeclared reference to 'stepPath'",
      );
    });
  });

  describe('measurements', () => {
    it("test_step_id == '...' (the renderer's step view) and test_report_id == '...', with counts", async () => {
      const names = measurements();
      expect(await names(`test_step_id == '${step.s1.testStepId}'`)).toEqual(['flag', 'high', 'low']);
      expect(await names(`test_report_id == '${r1.testReportId}'`)).toEqual(['flag', 'high', 'low', 'word']);
      expect(await count('test-measurements', `test_report_id == '${r1.testReportId}'`)).toBe('4');
      expect(await count('test-measurements', `test_step_id == '${step.t1.testStepId}'`)).toBe('1');
    });

    it('numeric_value matches only measurements whose value is numeric', async () => {
      const names = measurements();
      expect(await names('numeric_value > 8.5')).toEqual(['high', 'other']);
      expect(await count('test-measurements', `numeric_value > 8.5 && test_report_id == '${r1.testReportId}'`)).toBe('1');
      // The boolean and string measurements are neither > 8.5 nor its negation.
      expect(await names('!(numeric_value > 8.5)')).toEqual(['low']);
      expect(await names('numeric_value == null')).toEqual(['flag', 'word']);
      // Even a stale numeric column of a boolean measurement is not its value.
      s.engine.db.run('UPDATE test_measurements SET numeric_value = 100 WHERE id = ?', [m.flag.measurementId]);
      expect(await names('numeric_value > 8.5')).toEqual(['high', 'other']);
    });

    it('string_value, boolean_value and passed', async () => {
      const names = measurements();
      expect(await names("string_value == 'OK'")).toEqual(['word']);
      expect(await names('boolean_value == true')).toEqual(['flag']);
      expect(await names('boolean_value == false')).toEqual([]);
      expect(await names('!passed')).toEqual(['low']);
    });

    it('enum measurement_type, timestamp range, metadata and negation', async () => {
      const names = measurements();
      expect(await names('measurement_type == TEST_MEASUREMENT_TYPE_BOOLEAN')).toEqual(['flag']);
      expect(await names('measurement_type == TEST_MEASUREMENT_TYPE_DOUBLE')).toEqual(['high', 'low', 'other']);
      expect(await names(`timestamp > ${ts('2026-01-01T00:05:00Z')}`)).toEqual(['low']);
      expect(await names("metadata.unit == 'bool'")).toEqual(['flag']);
      expect(await names(`!(test_step_id == '${step.s1.testStepId}')`)).toEqual(['other', 'word']);
    });

    it('unknown fields are INVALID_ARGUMENT, in List and Count', async () => {
      await rejects(org, '/api/v1/test-measurements', 'value > 1', "undeclared reference to 'value'", column(1));
      expectFilterError(
        await org.api('GET', `/api/v1/test-measurements/count?${filterQuery('unit == 1')}`),
        "undeclared reference to 'unit'",
      );
    });
  });
});

// ---------------------------------------------------------------------------------------------------
describe('ListRemoteFiles filters', () => {
  const path = '/api/v1/remote-files';
  let org: Org;
  let names: (filter: string) => Promise<string[]>;
  const runId = randomUUID();
  const annotationId = randomUUID();
  const f: Record<string, any> = {};

  beforeAll(async () => {
    org = await freshOrg('remote-files');
    const create = async (fileName: string, entityType: string, entityId: string, extra: Record<string, unknown> = {}) =>
      (await org.ok('POST', path, { fileName, entityId, entityType, fileMimeType: 'application/octet-stream', fileSize: '10', ...extra }))
        .remoteFile;
    f.a = await create('a.csv', 'ENTITY_TYPE_RUN', runId, { metadataValues: [{ key: { name: 'site' }, stringValue: 'pad 39A' }] });
    f.b = await create('b.png', 'ENTITY_TYPE_ANNOTATION', annotationId, {
      metadataValues: [{ key: { name: 'site' }, stringValue: 'lab' }],
    });
    f.c = await create('c.csv', 'ENTITY_TYPE_RUN', runId);
    names = lister(org, path, 'remoteFiles', (x) => x.fileName);
  });

  it('equality on remote_file_id, entity_id and file_name', async () => {
    expect(await names(`remote_file_id == '${f.b.remoteFileId}'`)).toEqual(['b.png']);
    expect(await names(`entity_id == '${runId}'`)).toEqual(['a.csv', 'c.csv']);
    expect(await names("file_name.endsWith('.csv') && file_name != 'c.csv'")).toEqual(['a.csv']);
  });

  it('enum entity_type and negation', async () => {
    expect(await names('entity_type == ENTITY_TYPE_ANNOTATION')).toEqual(['b.png']);
    expect(await names("!(entity_type == 'ENTITY_TYPE_RUN')")).toEqual(['b.png']);
  });

  it('metadata (the metadata_values list)', async () => {
    expect(await names("metadata['site'] == 'pad 39A'")).toEqual(['a.csv']);
    expect(await names("!('site' in metadata)")).toEqual(['c.csv']);
  });

  it('unknown and undocumented fields are INVALID_ARGUMENT (remote files have no timestamp filter field)', async () => {
    await rejects(org, path, `created_date > ${ts('2020-01-01T00:00:00Z')}`, "undeclared reference to 'created_date'", column(1));
    await rejects(org, path, 'entity_type == ENTITY_TYPE_SPACESHIP', "'ENTITY_TYPE_SPACESHIP' is not a value of entity_type");
  });
});

// ---------------------------------------------------------------------------------------------------
describe('ListArtifacts filters', () => {
  const path = '/api/v1/artifacts';
  let org: Org;
  let titles: (filter: string) => Promise<string[]>;
  let annotationId: string;
  let runId: string;
  const a: Record<string, any> = {};

  async function upload(title: string, links: unknown[]) {
    const form = new FormData();
    form.append('title', title);
    form.append('links', JSON.stringify(links));
    form.append('file', new Blob(['t,v\n0,1\n'], { type: 'text/csv' }), `${title}.csv`);
    const res = await fetch(`${s.url}/api/v1/artifacts:upload`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${org.token}` },
      body: form,
    });
    const body = (await res.json()) as any;
    expect(res.status, JSON.stringify(body)).toBe(200);
    return body.artifact;
  }
  const structured = async (title: string, extra: Record<string, unknown>) =>
    (await org.ok('POST', path, { title, content: { title }, ...extra })).artifact;
  const link = (relation: string, entityType: string, entityId: string) => ({ relation, entityType, entityId });

  beforeAll(async () => {
    org = await freshOrg('artifacts');
    const asset = (await org.ok('POST', '/api/v1/assets', { name: 'Engine' })).asset;
    annotationId = (
      await org.ok('POST', '/api/v1/annotations', {
        name: 'spike',
        startTime: '2026-09-01T10:00:00Z',
        endTime: '2026-09-01T10:00:01Z',
        assets: [asset.name],
      })
    ).annotation.annotationId;
    runId = (await org.ok('POST', '/api/v2/runs', { name: 'run', description: '' })).run.runId;
    a.notes = await structured('notes', {
      links: [link('ATTACHED_TO', 'ANNOTATION', annotationId)],
      metadata: [{ key: { name: 'source' }, stringValue: 'bench' }],
    });
    a.trace = await upload('trace', [link('REFERENCES', 'RUN', runId), link('ATTACHED_TO', 'CONVERSATION', 'conv-1')]);
    a.chat = await structured('chat', { createdVia: 'CONVERSATION', links: [link('GENERATED_FROM', 'CONVERSATION', 'conv-1')] });
    a.old = await upload('old', [link('ATTACHED_TO', 'ANNOTATION', annotationId)]);
    for (const x of [a.chat, a.old]) await org.ok('POST', `${path}/${x.artifactId}:archive`, {});
    titles = lister(org, path, 'artifacts', (x) => x.title);
  });

  it('links.exists(...) over relation, entity_type, entity_id and artifact_version_id', async () => {
    expect(await titles(`links.exists(l, l.entity_type == ANNOTATION && l.entity_id == '${annotationId}')`)).toEqual(['notes']);
    expect(await titles(`include_archived && links.exists(l, l.entity_type == ANNOTATION && l.entity_id == '${annotationId}')`)).toEqual([
      'notes',
      'old',
    ]);
    expect(await titles("links.exists(l, l.entity_type == CONVERSATION && l.entity_id == 'conv-1')")).toEqual(['trace']);
    expect(await titles('links.exists(l, l.relation == REFERENCES)')).toEqual(['trace']);
    expect(await titles(`links.exists(l, l.artifact_version_id == '${a.notes.artifactVersionId}')`)).toEqual(['notes']);
    expect(await titles('links.all(l, l.relation == ATTACHED_TO)')).toEqual(['notes']);
    expect(await titles('!links.exists(l, l.entity_type == RUN)')).toEqual(['notes']);
  });

  it('enums compare by unprefixed value name', async () => {
    expect(await titles('storage_class == STRUCTURED')).toEqual(['notes']);
    expect(await titles('storage_class == FILE')).toEqual(['trace']);
    // CONVERSATION is a value of two enums (created_via 2, entity_type 5): the field decides.
    expect(await titles('include_archived == true && created_via == CONVERSATION')).toEqual(['chat']);
    expect(await titles("created_via == 'API'")).toEqual(['notes']);
    await rejects(
      org,
      path,
      'storage_class == ARTIFACT_STORAGE_CLASS_STRUCTURED',
      "'ARTIFACT_STORAGE_CLASS_STRUCTURED' is not a value of storage_class",
      column(18),
    );
  });

  it('archived artifacts only with include_archived, or when archived_date governs alone', async () => {
    expect(await titles('')).toEqual(['notes', 'trace']);
    expect(await titles('include_archived == true')).toEqual(['chat', 'notes', 'old', 'trace']);
    expect(await titles('include_archived')).toEqual(['chat', 'notes', 'old', 'trace']);
    expect(await titles('include_archived == false')).toEqual(['notes', 'trace']);
    expect(await titles(`archived_date > ${ts('2000-01-01T00:00:00Z')}`)).toEqual(['chat', 'old']);
    expect(await titles('archived_date == null')).toEqual(['notes', 'trace']);
    expect(await titles(`storage_class == FILE && (archived_date == null || archived_date > ${ts('2000-01-01T00:00:00Z')})`)).toEqual([
      'old',
      'trace',
    ]);
    // A string or a metadata key named archived_date is not the field.
    expect(await titles("title == 'archived_date' || metadata['archived_date'] == 'x'")).toEqual([]);
    await rejects(org, path, "include_archived || title == 'x'", 'include_archived');
    await rejects(org, path, 'is_archived == true', "undeclared reference to 'is_archived'", column(1));
  });

  it('equality, timestamp range, metadata and negation on the artifact fields', async () => {
    expect(await titles(`artifact_id == '${a.trace.artifactId}'`)).toEqual(['trace']);
    expect(await titles(`organization_id == '${org.organizationId}' && created_by_user_id == '${org.userId}' && version == 1`)).toEqual([
      'notes',
      'trace',
    ]);
    expect(await titles("file_type == 'csv' && file_name.startsWith('trace')")).toEqual(['trace']);
    expect(await titles(`created_date >= ${ts(a.trace.createdDate)} && version_created_date >= ${ts(a.trace.createdDate)}`)).toEqual([
      'trace',
    ]);
    expect(await titles(`include_archived && created_date > ${ts(a.trace.createdDate)}`)).toEqual(['chat', 'old']);
    expect(await titles("metadata['source'] == 'bench'")).toEqual(['notes']);
    expect(await titles('!(storage_class == STRUCTURED)')).toEqual(['trace']);
  });

  it('filters combine with conversation scoping', async () => {
    const scoped = await listAll(org, `${path}?conversation_id=conv-1`, 'artifacts', 'include_archived && storage_class == STRUCTURED');
    expect(scoped.map((x) => x.title)).toEqual(['chat']);
  });
});

// ---------------------------------------------------------------------------------------------------
describe('ListAssets filters', () => {
  const path = '/api/v1/assets';
  let org: Org;
  let names: (filter: string) => Promise<string[]>;
  const x: Record<string, any> = {};
  let coldTagId: string;

  beforeAll(async () => {
    org = await freshOrg('assets');
    x.r1 = (
      await org.ok('POST', path, { name: 'Rover-1', tags: ['hot', 'cold'], metadata: [{ key: { name: 'serial' }, stringValue: 'SN-1' }] })
    ).asset;
    x.r2 = (
      await org.ok('POST', path, { name: 'rover-2', tags: ['cold'], metadata: [{ key: { name: 'mass' }, numberValue: 12.5 }] })
    ).asset;
    x.lander = (await org.ok('POST', path, { name: 'Lander' })).asset;
    await org.ok('PATCH', path, {
      asset: { assetId: x.lander.assetId, archivedDate: '2026-01-01T00:00:00Z' },
      updateMask: 'archived_date',
    });
    coldTagId = (await org.ok('GET', `/api/v2/tags?${filterQuery("name == 'cold'")}`)).tags[0].tagId;
    names = lister(org, path, 'assets', (a) => a.name);
  });

  it('equality on asset_id, name and name_lower', async () => {
    expect(await names(`asset_id == '${x.r2.assetId}'`)).toEqual(['rover-2']);
    expect(await names("name == 'Rover-1'")).toEqual(['Rover-1']);
    expect(await names("name_lower.startsWith('rover')")).toEqual(['Rover-1', 'rover-2']);
    expect(await names(`created_by_user_id == '${org.userId}' && modified_by_user_id == '${org.userId}'`)).toEqual([
      'Lander',
      'Rover-1',
      'rover-2',
    ]);
  });

  it('relations tag_name and tag_id (tag names resolved in the organization)', async () => {
    expect(await names("tag_name == 'hot'")).toEqual(['Rover-1']);
    expect(await names(`tag_id == '${coldTagId}'`)).toEqual(['Rover-1', 'rover-2']);
    expect(await names("!(tag_name == 'hot')")).toEqual(['Lander', 'rover-2']);
    // Another organization's tag of the same name is another tag.
    const other = await freshOrg('assets-other');
    await other.ok('POST', path, { name: 'elsewhere', tags: ['cold'] });
    const otherCold = (await other.ok('GET', `/api/v2/tags?${filterQuery("name == 'cold'")}`)).tags[0].tagId;
    expect(otherCold).not.toBe(coldTagId);
    expect(await names(`tag_id == '${otherCold}'`)).toEqual([]);
  });

  it('timestamp range, archive state and metadata', async () => {
    expect(await names(`created_date >= ${ts(x.r2.createdDate)}`)).toEqual(['Lander', 'rover-2']);
    expect(await names(`archived_date >= ${ts('2026-01-01T00:00:00Z')}`)).toEqual(['Lander']);
    expect(await names('is_archived == false')).toEqual(['Rover-1', 'rover-2']);
    expect(await names("metadata.serial == 'SN-1' || metadata['mass'] > 10")).toEqual(['Rover-1', 'rover-2']);
  });

  it('unknown fields are INVALID_ARGUMENT naming the column', async () => {
    await rejects(org, path, "tags == 'hot'", "undeclared reference to 'tags'", column(1));
  });
});

// ---------------------------------------------------------------------------------------------------
describe('ListRuns filters', () => {
  const path = '/api/v2/runs';
  let org: Org;
  let names: (filter: string) => Promise<string[]>;
  const run: Record<string, any> = {};
  let asset: any;
  const tagId = async (name: string) => (await org.ok('GET', `/api/v2/tags?${filterQuery(`name == '${name}'`)}`)).tags[0].tagId as string;

  beforeAll(async () => {
    org = await freshOrg('runs');
    asset = (await org.ok('POST', '/api/v1/assets', { name: 'Engine A', tags: ['hot'] })).asset;
    run.ignition = (
      await org.ok('POST', `${path}:adhoc`, {
        name: 'ignition',
        description: 'first',
        startTime: '2026-09-01T00:00:00Z',
        stopTime: '2026-09-01T02:00:00Z',
        assetIds: [asset.assetId],
        tags: ['night'],
        clientKey: 'ck-1',
        metadata: [{ key: { name: 'pad' }, stringValue: '39A' }],
      })
    ).run;
    // Started long ago and still going: its duration is start-to-now.
    run.coast = (await org.ok('POST', path, { name: 'coast', description: '', startTime: '2020-01-01T00:00:00Z' })).run;
    run.idle = (await org.ok('POST', path, { name: 'idle', description: '' })).run;
    await org.ok('PATCH', path, { run: { runId: run.idle.runId, isArchived: true }, updateMask: 'is_archived' });
    const annotation = async (runId: string, state: string) =>
      (
        await org.ok('POST', '/api/v1/annotations', {
          name: 'a',
          startTime: '2026-09-01T00:10:00Z',
          endTime: '2026-09-01T00:11:00Z',
          runId,
          state,
        })
      ).annotation;
    const flagged = await annotation(run.ignition.runId, 'ANNOTATION_STATE_FLAGGED');
    await annotation(run.coast.runId, 'ANNOTATION_STATE_OPEN');
    await org.ok('POST', `/api/v1/annotations/${flagged.annotationId}/logs`, {
      kind: 'ANNOTATION_LOG_KIND_COMMENT',
      comment: { body: [{ type: 'ANNOTATION_COMMENT_BODY_ELEMENT_TYPE_TEXT', text: 'look' }] },
    });
    names = lister(org, path, 'runs', (r) => r.name);
  });

  it('equality on run_id, organization_id, client_key (optional) and name', async () => {
    expect(await names(`run_id == '${run.coast.runId}'`)).toEqual(['coast']);
    expect(await names("client_key == 'ck-1'")).toEqual(['ignition']);
    expect(await names('client_key == null')).toEqual(['coast', 'idle']);
    expect(await names(`organization_id == '${org.organizationId}' && description == 'first'`)).toEqual(['ignition']);
  });

  it('relations asset_id, asset_name, tag_id and asset_tag_id', async () => {
    expect(await names(`asset_id == '${asset.assetId}'`)).toEqual(['ignition']);
    expect(await names("asset_name == 'Engine A'")).toEqual(['ignition']);
    expect(await names(`tag_id == '${await tagId('night')}'`)).toEqual(['ignition']);
    expect(await names(`asset_tag_id == '${await tagId('hot')}'`)).toEqual(['ignition']);
    expect(await names(`!(asset_tag_id == '${await tagId('hot')}')`)).toEqual(['coast', 'idle']);
  });

  it('timestamp ranges on start_time / stop_time (optional)', async () => {
    expect(await names(`start_time >= ${ts('2026-01-01T00:00:00Z')}`)).toEqual(['ignition']);
    expect(await names(`start_time < ${ts('2026-01-01T00:00:00Z')} && stop_time == null`)).toEqual(['coast']);
    expect(await names(`created_date >= ${ts(run.coast.createdDate)}`)).toEqual(['coast', 'idle']);
  });

  it('duration (seconds) and duration_string (a CEL duration)', async () => {
    expect(await names('duration == 7200.0')).toEqual(['ignition']);
    expect(await names('duration > 3600')).toEqual(['coast', 'ignition']);
    expect(await names("duration_string > duration('10h')")).toEqual(['coast']);
    expect(await names("duration_string == duration('2h')")).toEqual(['ignition']);
    expect(await names('duration == null')).toEqual(['idle']);
  });

  it("the run's annotations: annotation_state (enum relation) and annotation_comments_count", async () => {
    expect(await names('annotation_state == ANNOTATION_STATE_FLAGGED')).toEqual(['ignition']);
    expect(await names('!(annotation_state == ANNOTATION_STATE_OPEN)')).toEqual(['idle', 'ignition']);
    expect(await names('annotation_comments_count > 0')).toEqual(['ignition']);
    expect(await names('annotation_comments_count == 0')).toEqual(['coast', 'idle']);
  });

  it('archive state and metadata', async () => {
    expect(await names('is_archived == true')).toEqual(['idle']);
    expect(await names(`archived_date > ${ts('2000-01-01T00:00:00Z')}`)).toEqual(['idle']);
    expect(await names("metadata.pad == '39A'")).toEqual(['ignition']);
  });

  it('unknown fields are INVALID_ARGUMENT naming the column', async () => {
    await rejects(org, path, "is_pinned == false || tag_name == 'night'", "undeclared reference to 'is_pinned'", column(1));
  });
});

// ---------------------------------------------------------------------------------------------------
describe('ListTags / ListActiveUsers / ListChannels filters', () => {
  let org: Org;

  beforeAll(async () => {
    org = await freshOrg('small-lists', `amy-${randomUUID().slice(0, 8)}@filters.test`);
  });

  it('tags: tag_id and name, negation, unknown fields', async () => {
    const ids: Record<string, string> = {};
    for (const n of ['mango', 'apple', 'kiwi']) ids[n] = (await org.ok('POST', '/api/v2/tags', { name: n })).tag.tagId;
    const names = lister(org, '/api/v2/tags', 'tags', (t) => t.name);
    expect(await names(`tag_id == '${ids.kiwi}'`)).toEqual(['kiwi']);
    expect(await names("name == 'apple' || name == 'mango'")).toEqual(['apple', 'mango']);
    expect(await names("!(name in ['apple', 'mango'])")).toEqual(['kiwi']);
    // Tags have no timestamp, enum or relation filter fields.
    await rejects(org, '/api/v2/tags', `created_date > ${ts('2020-01-01T00:00:00Z')}`, "undeclared reference to 'created_date'", column(1));
  });

  it('users: user_id and name, negation, unknown fields', async () => {
    const orgName = (await org.ok('GET', '/api/v2/me')).organizations[0].organizationName;
    const bob = s.newToken(`bob-${randomUUID().slice(0, 8)}@filters.test`, orgName);
    const bobId = (await s.api('GET', '/api/v2/me', undefined, bob)).body.userId;
    const names = lister(org, '/api/v2/users', 'users', (u) => u.userName.split('-')[0]);
    expect(await names(`user_id == '${bobId}'`)).toEqual(['bob']);
    expect(await names("name.startsWith('amy-')")).toEqual(['amy']);
    expect(await names(`!(user_id == '${org.userId}')`)).toEqual(['bob']);
    await rejects(org, '/api/v2/users', "user_name == 'x'", "undeclared reference to 'user_name'", column(1));
  });

  it('channels: equality, timestamp range, run relations (through the asset), negation, unknown fields', async () => {
    const assetA = (await org.ok('POST', '/api/v1/assets', { name: 'A' })).asset;
    const assetB = (await org.ok('POST', '/api/v1/assets', { name: 'B' })).asset;
    const channel = async (assetId: string, name: string) =>
      (await org.ok('POST', '/api/v3/channels', { assetId, name, description: `${name} sensor` })).channel;
    const temp = await channel(assetA.assetId, 'temp');
    await channel(assetA.assetId, 'accel');
    const bTemp = await channel(assetB.assetId, 'pressure');
    const runA = (
      await org.ok('POST', '/api/v2/runs:adhoc', {
        name: 'run A',
        description: '',
        startTime: '2026-09-01T00:00:00Z',
        stopTime: '2026-09-01T01:00:00Z',
        assetIds: [assetA.assetId],
        clientKey: 'ck-a',
      })
    ).run;
    await org.ok('POST', '/api/v2/runs:adhoc', {
      name: 'run B',
      description: '',
      startTime: '2026-09-01T00:00:00Z',
      stopTime: '2026-09-01T01:00:00Z',
      assetIds: [assetB.assetId],
    });
    const names = lister(org, '/api/v3/channels', 'channels', (c) => c.name);
    expect(await names(`channel_id == '${temp.channelId}'`)).toEqual(['temp']);
    expect(await names(`asset_id == '${assetB.assetId}' || description == 'accel sensor'`)).toEqual(['accel', 'pressure']);
    expect(await names(`created_date >= ${ts(bTemp.createdDate)}`)).toEqual(['pressure']);
    expect(await names(`run_id == '${runA.runId}'`)).toEqual(['accel', 'temp']);
    expect(await names("run_name == 'run B'")).toEqual(['pressure']);
    expect(await names("run_client_key == 'ck-a'")).toEqual(['accel', 'temp']);
    // run B has no client key: B's channels have no element, so "no run key is ck-a" holds.
    expect(await names("!(run_client_key == 'ck-a')")).toEqual(['pressure']);
    expect(
      await names(`created_by_user_id == '${org.userId}' && modified_by_user_id == '${org.userId}' && modified_date >= created_date`),
    ).toEqual(['accel', 'pressure', 'temp']);
    await rejects(org, '/api/v3/channels', 'data_type == 1', "undeclared reference to 'data_type'", column(1));
  });
});

// ---------------------------------------------------------------------------------------------------
describe('ListExternalSyncTokens filters', () => {
  it('declares no filterable fields: any field is an undeclared reference', async () => {
    const org = await freshOrg('sync-tokens');
    await rejects(
      org,
      '/api/v1/external-sync:list-tokens',
      `created_date > ${ts('2020-01-01T00:00:00Z')}`,
      "undeclared reference to 'created_date'",
      column(1),
    );
    // A filter naming no field is still a filter.
    expect((await org.ok('GET', `/api/v1/external-sync:list-tokens?${filterQuery('true')}`)).externalSyncTokens).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------
// Engine bugs found while wiring the lists, now fixed in src-main/filter/: relation fields used as
// lists (relationLists.ts). Kept as regression tests of the behavior the reference documents.
describe('Relation fields as lists (reference §6 rule filters)', () => {
  let org: Org;
  const rules = () => lister(org, '/api/v1/rules:list', 'rules', (x) => x.name);

  beforeAll(async () => {
    org = await freshOrg('engine-bugs');
    const condition = {
      expression: { singleChannelComparison: { channelName: 'c', comparator: 'GREATER_THAN', double: 1 } },
      actions: [{ actionType: 'ANNOTATION', configuration: { annotation: { tagIds: [], annotationType: 'ANNOTATION_TYPE_DATA_REVIEW' } } }],
    };
    for (const name of ['a', 'b']) await org.ok('POST', '/api/v1/rules', { update: { name, description: '', conditions: [condition] } });
  });

  // Reference §6: folder membership is `"<folder_id>" in folders` (once rejected with
  // 400 "no such overload: string in string").
  it('relation fields as lists: `"f-1" in folders` is accepted (no local folders: matches nothing)', async () => {
    expect(await rules()("'f-1' in folders")).toEqual([]);
  });

  // Reference §6: `size(activeFolders) == 0` selects uncategorized rules (every local rule; it
  // once compiled to "some folder has size 0", a constant false).
  it('relation fields as lists: `size(activeFolders) == 0` matches every rule without folders', async () => {
    expect(await rules()('size(activeFolders) == 0')).toEqual(['a', 'b']);
  });

  // FilterFieldKind RELATION is "has-many, CEL comprehension" (reference §1.8); a comprehension
  // over a relation field was rejected: "Expression of type 'string' cannot be range of a comprehension".
  it("relation fields as lists: `folders.exists(f, f == 'f-1')` is accepted", async () => {
    expect(await rules()("folders.exists(f, f == 'f-1')")).toEqual([]);
  });

  it('a relation with no elements: size 0, `in` false, exists false, all true, exists_one false', async () => {
    expect(await rules()("!('f-1' in folders)")).toEqual(['a', 'b']);
    expect(await rules()('activeFolders.size() > 0')).toEqual([]);
    expect(await rules()("folders.all(f, f == 'f-1')")).toEqual(['a', 'b']);
    expect(await rules()("!folders.exists(f, f.startsWith('f'))")).toEqual(['a', 'b']);
    expect(await rules()("folders.exists_one(f, f == 'f-1')")).toEqual([]);
    expect(await rules()("!folders.exists_one(f, f == 'f-1')")).toEqual(['a', 'b']);
    expect(await rules()("name == 'a' && size(folders) == 0")).toEqual(['a']);
  });
});
