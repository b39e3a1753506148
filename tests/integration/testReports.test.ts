// TestReportService over real HTTP: importing the TestStand demo report
// (tests/fixtures/teststand: its 223 steps and 15 measurements), the failure
// paths of the import (nothing written), and every companion operation of
// reports, steps and measurements with organization isolation.
//
// Each describe block works in its own organization (its own API key) to keep
// unfiltered lists and counts to its own rows (filters: filters.test.ts).
import { afterAll, beforeAll, describe, expect, it, test } from 'vitest';
import { MAX_FIELD_CHARS, MAX_STEP_DEPTH } from '../../src-main/services/testReports/atmlParser';
import BetterSqlite3 from 'better-sqlite3';
import { loadCaller } from '../../src-main/auth/identity';
import { ImportStaging, stagingPath } from '../../src-main/services/testReports/importStaging';
import { copyStagedReport } from '../../src-main/services/testReports/importTestReport';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { AtmlParseError, parseAtml, type AtmlSink } from '../../src-main/services/testReports/atmlParser';
import { startTestServer, type TestServer } from '../support/testServer';
import { expectViolation as expectInvalid, unarchivedMetadata } from '../support/assertions';

const SAMPLE = readFileSync(join(__dirname, '../fixtures/teststand/demo_test_report.xml'));

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => s.close());

type Api = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

/** An API key in a fresh organization, and `api()` bound to it. */
function inNewOrg(label: string): { token: string; api: Api; organizationId: string } {
  const org = `${label} ${randomUUID().slice(0, 8)}`;
  const token = s.newToken(`${label.toLowerCase().replace(/\W+/g, '-')}-${randomUUID().slice(0, 8)}@outpost.local`, org);
  const organizationId = s.engine.db.get<{ id: string }>('SELECT id FROM organizations WHERE name = ?', [org])!.id;
  return { token, organizationId, api: (method, path, body) => s.api(method, path, body, token) };
}

async function uploadFile(token: string, bytes: Uint8Array | string, fileName = 'demo_test_report.xml'): Promise<string> {
  const form = new FormData();
  form.append('entityId', randomUUID());
  form.append('entityType', 'test_reports');
  form.append('file', new Blob([bytes as BlobPart], { type: 'application/xml' }), fileName);
  const res = await fetch(`${s.url}/api/v0/remote-files/upload`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.remoteFile.remoteFileId;
}

async function listAll(api: Api, path: string, key: string, pageSize = 1000): Promise<any[]> {
  const out: any[] = [];
  let token = '';
  do {
    const sep = path.includes('?') ? '&' : '?';
    const res = await api('GET', `${path}${sep}page_size=${pageSize}${token ? `&page_token=${encodeURIComponent(token)}` : ''}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    out.push(...res.body[key]);
    token = res.body.nextPageToken;
  } while (token);
  return out;
}

const tally = (values: string[]) => values.reduce<Record<string, number>>((acc, v) => ((acc[v] = (acc[v] ?? 0) + 1), acc), {});

const REPORT_KEYS = [
  'testReportId',
  'status',
  'name',
  'testSystemName',
  'testCase',
  'startTime',
  'endTime',
  'metadata',
  'serialNumber',
  'partNumber',
  'systemOperator',
  'archivedDate',
  'isArchived',
  'runId',
  'overallModifiedDate',
];
const STEP_KEYS = [
  'testStepId',
  'testReportId',
  'parentStepId',
  'name',
  'description',
  'stepType',
  'stepPath',
  'status',
  'startTime',
  'endTime',
  'errorInfo',
  'metadata',
];
const MEASUREMENT_BASE_KEYS = [
  'measurementId',
  'measurementType',
  'name',
  'testStepId',
  'testReportId',
  'unit',
  'passed',
  'timestamp',
  'description',
  'channelNames',
  'metadata',
];

describe('ImportTestReport: the TestStand demo report', () => {
  let org: ReturnType<typeof inNewOrg>;
  let report: any;
  let steps: any[];
  let measurements: any[];

  beforeAll(async () => {
    org = inNewOrg('Import');
    const remoteFileId = await uploadFile(org.token, SAMPLE);
    const res = await org.api('POST', '/api/v1/test-reports:import', { remoteFileId });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    report = res.body.testReport;
    steps = await listAll(org.api, '/api/v1/test-steps', 'testSteps');
    measurements = await listAll(org.api, '/api/v1/test-measurements', 'testMeasurements');
  });

  it('creates the report with the facts of the file (§5.1)', async () => {
    expect(Object.keys(report).sort()).toEqual([...REPORT_KEYS].sort());
    expect(report).toMatchObject({
      status: 'TEST_STATUS_PASSED',
      name: 'test_sequence.seq#OuterSequence',
      testCase: 'test_sequence.seq#OuterSequence',
      testSystemName: 'LPTC-02-WIN',
      serialNumber: 'NONE',
      partNumber: '00008701-913',
      systemOperator: 'ian',
      startTime: '2025-09-10T11:25:07.560Z',
      endTime: '2025-09-10T12:37:00.061Z',
      archivedDate: null,
      isArchived: false,
      runId: '',
    });
    expect(report.metadata).toEqual(
      expect.arrayContaining(
        unarchivedMetadata(
          { key: { name: 'RUN_NUMBER', type: 'METADATA_KEY_TYPE_STRING' }, stringValue: '3898' },
          { key: { name: 'uuid', type: 'METADATA_KEY_TYPE_STRING' }, stringValue: '65fed544-a2c7-4e7a-a482-f815b899fbdc' },
        ),
      ),
    );
    expect((await org.api('GET', `/api/v1/test-reports/${report.testReportId}`)).body).toEqual({ testReport: report });
  });

  it('imports 223 steps with the documented types, statuses and tree (§4, §5.2)', async () => {
    expect(steps).toHaveLength(223);
    expect((await org.api('GET', '/api/v1/test-steps/count')).body).toEqual({ count: '223' });
    expect(Object.keys(steps[0]).sort()).toEqual([...STEP_KEYS].sort());
    expect(tally(steps.map((t) => t.stepType))).toEqual({
      TEST_STEP_TYPE_SEQUENCE: 1,
      TEST_STEP_TYPE_GROUP: 24,
      TEST_STEP_TYPE_ACTION: 136,
      TEST_STEP_TYPE_FLOW_CONTROL: 62,
    });
    expect(tally(steps.map((t) => t.status))).toEqual({ TEST_STATUS_PASSED: 217, TEST_STATUS_SKIPPED: 6 });
    expect(steps.every((t) => t.testReportId === report.testReportId)).toBe(true);
    expect(tally(steps.map((t) => String(t.stepPath.split('.').length)))).toEqual({ 1: 1, 2: 16, 3: 76, 4: 130 });

    // The root is the ResultSet; every other step's parent is the step one path segment up.
    const byPath = new Map(steps.map((t) => [t.stepPath, t]));
    expect(byPath.size).toBe(223);
    const root = byPath.get('1');
    expect(root).toMatchObject({
      parentStepId: '',
      stepType: 'TEST_STEP_TYPE_SEQUENCE',
      name: 'test_sequence.seq#OuterSequence',
      startTime: report.startTime,
      endTime: report.endTime,
    });
    for (const t of steps) {
      if (t.stepPath === '1') continue;
      expect(t.parentStepId, t.stepPath).toBe(byPath.get(t.stepPath.split('.').slice(0, -1).join('.')).testStepId);
    }
    expect(byPath.get('1.4')).toMatchObject({
      name: 'Cycle Test Custom',
      stepType: 'TEST_STEP_TYPE_GROUP',
      status: 'TEST_STATUS_SKIPPED',
      startTime: '2025-09-10T11:56:52.880Z',
      endTime: '2025-09-10T11:56:52.918Z',
    });
    expect(byPath.get('1.16')).toMatchObject({
      name: 'test_sequence.seq#Known State',
      stepType: 'TEST_STEP_TYPE_GROUP',
      status: 'TEST_STATUS_PASSED',
    });
    expect(byPath.get('1.1.15')).toMatchObject({ name: 'Check Pressure Rise', stepType: 'TEST_STEP_TYPE_ACTION' });
    expect(steps.filter((t) => t.errorInfo !== null)).toEqual([]);
  });

  it('lists steps by step_path in natural order: 1.1 .. 1.16 (1.10 after 1.9)', async () => {
    const topLevel = steps.filter((t) => t.stepPath.split('.').length === 2).map((t) => t.stepPath);
    expect(topLevel).toEqual(Array.from({ length: 16 }, (_, i) => `1.${i + 1}`));
    expect(steps[0].stepPath).toBe('1');
    expect(steps[1].stepPath).toBe('1.1');
    // Pre-order: each parent right before its subtree.
    const descendants = (path: string) => steps.filter((t) => t.stepPath.startsWith(`${path}.`)).length;
    expect([descendants('1.1'), descendants('1.2'), descendants('1.5'), descendants('1.13'), descendants('1.16')]).toEqual([
      145, 1, 0, 6, 26,
    ]);
    const explicit = await listAll(org.api, '/api/v1/test-steps?order_by=step_path', 'testSteps');
    expect(explicit.map((t) => t.testStepId)).toEqual(steps.map((t) => t.testStepId));
    const desc = await listAll(org.api, '/api/v1/test-steps?order_by=step_path%20desc', 'testSteps');
    expect(desc.map((t) => t.testStepId)).toEqual(steps.map((t) => t.testStepId).reverse());
  });

  it('pages through the steps with keyset tokens (page_size 50 -> 5 pages)', async () => {
    let token = '';
    const pages: number[] = [];
    const ids: string[] = [];
    do {
      const res = await org.api('GET', `/api/v1/test-steps?pageSize=50${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`);
      pages.push(res.body.testSteps.length);
      ids.push(...res.body.testSteps.map((t: { testStepId: string }) => t.testStepId));
      token = res.body.nextPageToken;
    } while (token);
    expect(pages).toEqual([50, 50, 50, 50, 23]);
    expect(ids).toEqual(steps.map((t) => t.testStepId));
    const byStart = await listAll(org.api, '/api/v1/test-steps?order_by=start_time%20desc,name', 'testSteps', 7);
    expect(byStart).toHaveLength(223);
    const starts = byStart.map((t) => Date.parse(t.startTime));
    expect(starts.every((v, i) => i === 0 || starts[i - 1] >= v)).toBe(true);
  });

  it('imports the 15 measurements of table 4.2 with values, units, bounds and pass state', async () => {
    expect(measurements).toHaveLength(15);
    expect((await org.api('GET', '/api/v1/test-measurements/count')).body).toEqual({ count: '15' });
    const pathOf = new Map(steps.map((t) => [t.testStepId, t.stepPath]));
    const rows = measurements.map((m) => [
      pathOf.get(m.testStepId),
      m.numericValue ?? m.booleanValue,
      m.unit?.abbreviatedName ?? null,
      m.numericBounds ?? null,
    ]);
    expect(rows).toEqual([
      ['1.1.10.4', 0, 'PSI', { min: 0 }],
      ['1.1.10.8', 0, 'PSI', { min: 0 }],
      ['1.1.15', true, null, null],
      ['1.1.15', 0, null, null],
      ['1.1.24.4', 0, 'PSI', { min: 0 }],
      ['1.1.24.8', 0, 'PSI', { min: 0 }],
      ['1.6.1', 8.48851665, 'PSIA', { max: 20 }],
      ['1.6.3', 9.08397234, 'PSIA', { max: 20 }],
      ['1.6.4', 0.000229174, 'sccs', { max: 0.0005 }],
      ['1.7.1', 8.64540325, 'PSIA', { max: 20 }],
      ['1.7.3', 9.06852177, 'PSIA', { max: 20 }],
      ['1.7.4', 0.00006278, 'sccs', { max: 0.0005 }],
      ['1.8.1', 8.50634478, 'PSIA', { max: 20 }],
      ['1.8.3', 9.37397483, 'PSIA', { max: 20 }],
      ['1.8.4', 0.000066831, 'sccs', { max: 0.0005 }],
    ]);
    expect(measurements.every((m) => m.passed === true && m.testReportId === report.testReportId)).toBe(true);
    expect(tally(measurements.map((m) => m.measurementType))).toEqual({
      TEST_MEASUREMENT_TYPE_DOUBLE: 14,
      TEST_MEASUREMENT_TYPE_BOOLEAN: 1,
    });
    // Oneofs: only the set member appears.
    const leak = measurements.find((m) => pathOf.get(m.testStepId) === '1.6.4');
    expect(Object.keys(leak).sort()).toEqual([...MEASUREMENT_BASE_KEYS, 'numericValue', 'numericBounds'].sort());
    expect(leak).toMatchObject({ name: '50 psi internal leak rate', unit: { unitId: '', abbreviatedName: 'sccs' }, channelNames: [] });
    const passedQ = measurements.find((m) => m.measurementType === 'TEST_MEASUREMENT_TYPE_BOOLEAN');
    expect(Object.keys(passedQ).sort()).toEqual([...MEASUREMENT_BASE_KEYS, 'booleanValue'].sort());
    expect(passedQ.unit).toBeNull();
    // A measurement's time is its Test's end time; the default order is timestamp asc.
    const stepById = new Map(steps.map((t) => [t.testStepId, t]));
    expect(measurements.every((m) => m.timestamp === stepById.get(m.testStepId).endTime)).toBe(true);
    const times = measurements.map((m) => Date.parse(m.timestamp));
    expect(times.every((v, i) => i === 0 || times[i - 1] <= v)).toBe(true);
  });

  it('lists reports newest start first, imports again as a new report, and cascades a delete', async () => {
    const second = await org.api('POST', '/api/v1/test-reports:import', { remote_file_id: await uploadFile(org.token, SAMPLE) });
    expect(second.status).toBe(200);
    expect(second.body.testReport.testReportId).not.toBe(report.testReportId);
    expect((await org.api('GET', '/api/v1/test-steps/count')).body.count).toBe('446');
    const created = await org.api('POST', '/api/v1/test-reports', {
      status: 'TEST_STATUS_DRAFT',
      name: 'later',
      testSystemName: 'bench',
      testCase: 'c',
      startTime: '2026-01-01T00:00:00Z',
      endTime: '2026-01-01T00:00:00Z',
    });
    const list = await org.api('GET', '/api/v1/test-reports');
    expect(list.body.testReports.map((r: { testReportId: string }) => r.testReportId)[0]).toBe(created.body.testReport.testReportId);
    expect(list.body.testReports).toHaveLength(3);

    const del = await org.api('DELETE', `/api/v1/test-reports/${second.body.testReport.testReportId}`);
    expect([del.status, del.body]).toEqual([200, {}]);
    expect((await org.api('GET', `/api/v1/test-reports/${second.body.testReport.testReportId}`)).status).toBe(404);
    expect((await org.api('GET', '/api/v1/test-steps/count')).body.count).toBe('223');
    expect((await org.api('GET', '/api/v1/test-measurements/count')).body.count).toBe('15');
    const orphans = s.engine.db.get<{ n: number }>(
      `SELECT (SELECT COUNT(*) FROM test_step_metadata m WHERE NOT EXISTS (SELECT 1 FROM test_steps s WHERE s.pk = m.step_pk))
            + (SELECT COUNT(*) FROM test_measurement_metadata m WHERE NOT EXISTS (SELECT 1 FROM test_measurements x WHERE x.pk = m.measurement_pk)) AS n`,
    );
    expect(orphans?.n).toBe(0);
  });
});

describe('ImportTestReport: failures write nothing', () => {
  let org: ReturnType<typeof inNewOrg>;
  const counts = async () => [
    (await org.api('GET', '/api/v1/test-reports?page_size=1000')).body.testReports.length,
    (await org.api('GET', '/api/v1/test-steps/count')).body.count,
    (await org.api('GET', '/api/v1/test-measurements/count')).body.count,
  ];
  const stagingFiles = () => {
    const dir = join(s.dataDir, 'tmp');
    return existsSync(dir) ? readdirSync(dir).filter((n) => n.startsWith('import-')) : [];
  };
  /** The AtmlParseError message the parser gives for these bytes. */
  async function parserReason(bytes: Uint8Array | string): Promise<string> {
    const sink: AtmlSink = { report() {}, step() {}, measurement() {} };
    try {
      await parseAtml(Readable.from([typeof bytes === 'string' ? Buffer.from(bytes) : bytes]), sink);
    } catch (e) {
      expect(e).toBeInstanceOf(AtmlParseError);
      return (e as Error).message;
    }
    throw new Error('expected a parse error');
  }

  beforeAll(() => {
    org = inNewOrg('Failures');
  });

  it('is NOT_FOUND for an unknown remote file and INVALID_ARGUMENT without one', async () => {
    const unknown = randomUUID();
    const res = await org.api('POST', '/api/v1/test-reports:import', { remoteFileId: unknown });
    expect([res.status, res.body.code]).toEqual([404, 5]);
    expect(res.body.message).toContain(unknown);
    expectInvalid(await org.api('POST', '/api/v1/test-reports:import', {}), 'remote_file_id');
  });

  it('rejects a file that is not XML, saying why', async () => {
    const garbage = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x01, 0x02, 0xfe]);
    const res = await org.api('POST', '/api/v1/test-reports:import', { remoteFileId: await uploadFile(org.token, garbage, 'image.xml') });
    expectInvalid(res, 'remote_file_id');
    expect(res.body.message).toContain(await parserReason(garbage));
    expect(res.body.message).toContain('image.xml');
    const text = 'this is just text';
    const res2 = await org.api('POST', '/api/v1/test-reports:import', { remoteFileId: await uploadFile(org.token, text) });
    expectInvalid(res2, 'remote_file_id');
    expect(res2.body.message).toContain(await parserReason(text));
    expect(await counts()).toEqual([0, '0', '0']);
  });

  it('rejects XML that is not ATML, saying why', async () => {
    const xml = '<?xml version="1.0"?><catalog><book id="1"/></catalog>';
    const res = await org.api('POST', '/api/v1/test-reports:import', { remoteFileId: await uploadFile(org.token, xml) });
    expectInvalid(res, 'remote_file_id');
    const reason = await parserReason(xml);
    expect(reason).toMatch(/ATML/);
    expect(res.body.message).toContain(reason);
    expect(await counts()).toEqual([0, '0', '0']);
  });

  it('leaves no rows (and no staging file) when the document breaks after many steps', async () => {
    const truncated = SAMPLE.subarray(0, Math.floor(SAMPLE.length * 0.8));
    let staged = 0;
    await parseAtml(Readable.from([truncated]), { report() {}, step: () => void staged++, measurement() {} }).catch(() => undefined);
    expect(staged).toBeGreaterThan(100); // the failure happens late, after most steps reached the staging table
    const res = await org.api('POST', '/api/v1/test-reports:import', { remoteFileId: await uploadFile(org.token, truncated) });
    expectInvalid(res, 'remote_file_id');
    expect(res.body.message).toContain(await parserReason(truncated));
    expect(await counts()).toEqual([0, '0', '0']);
    expect(stagingFiles()).toEqual([]);
  });

  it('is FAILED_PRECONDITION for a remote file recorded without content', async () => {
    const created = await org.api('POST', '/api/v1/remote-files', {
      fileName: 'r.xml',
      entityId: randomUUID(),
      entityType: 'ENTITY_TYPE_TEST_REPORT',
      fileMimeType: 'application/xml',
      fileSize: 5,
    });
    const res = await org.api('POST', '/api/v1/test-reports:import', { remoteFileId: created.body.remoteFile.remoteFileId });
    expect([res.status, res.body.code]).toEqual([400, 9]);
  });

  it("cannot import another organization's file", async () => {
    const other = inNewOrg('Other');
    const theirFile = await uploadFile(other.token, SAMPLE);
    const res = await org.api('POST', '/api/v1/test-reports:import', { remoteFileId: theirFile });
    expect([res.status, res.body.code]).toEqual([404, 5]);
    expect(await counts()).toEqual([0, '0', '0']);
  });
});

describe('test reports: create, get, list, update, archive, delete', () => {
  let org: ReturnType<typeof inNewOrg>;
  const base = {
    status: 'TEST_STATUS_PASSED',
    name: 'Leak check',
    testSystemName: 'rig-1',
    testCase: 'leak',
    startTime: '2026-02-01T10:00:00Z',
    endTime: '2026-02-01T11:00:00.5Z',
  };

  beforeAll(() => {
    org = inNewOrg('Reports');
  });

  it('creates a report with the full wire shape (snake_case and enum numbers accepted)', async () => {
    const runId = randomUUID();
    s.engine.db.run(
      'INSERT INTO runs(id, organization_id, name, created_date, created_by_user_id, modified_date, modified_by_user_id) VALUES (?, ?, ?, 0, ?, 0, ?)',
      [runId, org.organizationId, 'Run', 'u', 'u'],
    );
    const res = await org.api('POST', '/api/v1/test-reports', {
      status: 3,
      name: 'Proof',
      test_system_name: 'rig-2',
      test_case: 'proof',
      start_time: '2026-02-02T10:00:00Z',
      end_time: '2026-02-02T10:30:00Z',
      serial_number: 'SN-1',
      part_number: 'PN-1',
      system_operator: 'op',
      run_id: runId,
      metadata: [{ key: { name: 'lot' }, number_value: 7 }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.testReport).toEqual({
      testReportId: expect.any(String),
      status: 'TEST_STATUS_FAILED',
      name: 'Proof',
      testSystemName: 'rig-2',
      testCase: 'proof',
      startTime: '2026-02-02T10:00:00Z',
      endTime: '2026-02-02T10:30:00Z',
      metadata: unarchivedMetadata({ key: { name: 'lot', type: 'METADATA_KEY_TYPE_NUMBER' }, numberValue: 7 }),
      serialNumber: 'SN-1',
      partNumber: 'PN-1',
      systemOperator: 'op',
      archivedDate: null,
      isArchived: false,
      runId,
      overallModifiedDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
    });
    const minimal = await org.api('POST', '/api/v1/test-reports', base);
    expect(minimal.body.testReport).toMatchObject({
      serialNumber: '',
      partNumber: '',
      systemOperator: '',
      runId: '',
      metadata: [],
      endTime: '2026-02-01T11:00:00.500Z',
    });
  });

  it('validates create requests', async () => {
    expectInvalid(await org.api('POST', '/api/v1/test-reports', { ...base, name: '' }), 'name');
    expectInvalid(await org.api('POST', '/api/v1/test-reports', { ...base, testSystemName: undefined }), 'test_system_name');
    expectInvalid(await org.api('POST', '/api/v1/test-reports', { ...base, status: 'PASSED' }), 'status');
    expectInvalid(await org.api('POST', '/api/v1/test-reports', { ...base, startTime: 'yesterday' }), 'start_time');
    expectInvalid(await org.api('POST', '/api/v1/test-reports', { ...base, endTime: '2026-02-01T09:00:00Z' }), 'end_time');
    expectInvalid(await org.api('POST', '/api/v1/test-reports', { ...base, runId: randomUUID() }), 'run_id');
  });

  it('lists by start_time desc by default, with documented order_by fields and paging', async () => {
    const o = inNewOrg('Report list');
    const starts = ['2026-03-02T00:00:00Z', '2026-03-05T00:00:00Z', '2026-03-01T00:00:00Z', '2026-03-04T00:00:00Z', '2026-03-03T00:00:00Z'];
    for (const [i, startTime] of starts.entries()) {
      const r = await o.api('POST', '/api/v1/test-reports', { ...base, name: `r${i}`, startTime, endTime: startTime });
      expect(r.status).toBe(200);
    }
    const all = await listAll(o.api, '/api/v1/test-reports', 'testReports', 2);
    expect(all.map((r) => r.startTime)).toEqual([...starts].sort().reverse());
    const byName = await o.api('GET', '/api/v1/test-reports?order_by=name%20desc');
    expect(byName.body.testReports.map((r: { name: string }) => r.name)).toEqual(['r4', 'r3', 'r2', 'r1', 'r0']);
    for (const field of ['test_report_id', 'test_system_name', 'test_case', 'end_time', 'created_date', 'modified_date']) {
      expect((await o.api('GET', `/api/v1/test-reports?order_by=${field}`)).status, field).toBe(200);
    }
    expectInvalid(await o.api('GET', '/api/v1/test-reports?order_by=status'), 'order_by');
  });

  it('updates by mask and archives with is_archived', async () => {
    const r = (await org.api('POST', '/api/v1/test-reports', base)).body.testReport;
    const upd = await org.api('PATCH', '/api/v1/test-reports', {
      testReport: {
        testReportId: r.testReportId,
        name: 'Renamed',
        status: 'TEST_STATUS_ABORTED',
        serialNumber: 'SN-9',
        testCase: 'ignored',
      },
      updateMask: 'name,status,serialNumber',
    });
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    expect(upd.body.testReport).toMatchObject({ name: 'Renamed', status: 'TEST_STATUS_ABORTED', serialNumber: 'SN-9', testCase: 'leak' });

    const archived = await org.api('PATCH', '/api/v1/test-reports', {
      testReport: { testReportId: r.testReportId, isArchived: true },
      updateMask: 'isArchived',
    });
    expect(archived.body.testReport.isArchived).toBe(true);
    expect(archived.body.testReport.archivedDate).toMatch(/Z$/);
    expect((await org.api('GET', `/api/v1/test-reports/${r.testReportId}`)).body.testReport.isArchived).toBe(true);
    const unarchived = await org.api('PATCH', '/api/v1/test-reports', {
      testReport: { testReportId: r.testReportId, isArchived: false },
      updateMask: 'is_archived',
    });
    expect(unarchived.body.testReport).toMatchObject({ isArchived: false, archivedDate: null });

    expectInvalid(await org.api('PATCH', '/api/v1/test-reports', { testReport: { testReportId: r.testReportId } }), 'update_mask');
    expectInvalid(
      await org.api('PATCH', '/api/v1/test-reports', { testReport: { testReportId: r.testReportId }, updateMask: 'metadata' }),
      'update_mask',
    );
    expectInvalid(
      await org.api('PATCH', '/api/v1/test-reports', { testReport: { testReportId: r.testReportId, name: '' }, updateMask: 'name' }),
      'test_report.name',
    );
    expectInvalid(
      await org.api('PATCH', '/api/v1/test-reports', {
        testReport: { testReportId: r.testReportId, endTime: '2000-01-01T00:00:00Z' },
        updateMask: 'endTime',
      }),
      'test_report.end_time',
    );
    const missing = await org.api('PATCH', '/api/v1/test-reports', {
      testReport: { testReportId: randomUUID(), name: 'x' },
      updateMask: 'name',
    });
    expect(missing.status).toBe(404);
  });

  it('hard-deletes: Get of a deleted report is NOT_FOUND', async () => {
    const r = (await org.api('POST', '/api/v1/test-reports', base)).body.testReport;
    expect((await org.api('DELETE', `/api/v1/test-reports/${r.testReportId}`)).status).toBe(200);
    const got = await org.api('GET', `/api/v1/test-reports/${r.testReportId}`);
    expect([got.status, got.body.code]).toEqual([404, 5]);
    expect((await org.api('DELETE', `/api/v1/test-reports/${r.testReportId}`)).status).toBe(404);
  });
});

describe('test steps and measurements: create, list, count, update, delete', () => {
  let org: ReturnType<typeof inNewOrg>;
  let reportId: string;
  const t0 = '2026-04-01T08:00:00Z';
  const t1 = '2026-04-01T08:05:00Z';

  const createStep = (step: Record<string, unknown>) =>
    org.api('POST', '/api/v1/test-steps', {
      testStep: {
        testReportId: reportId,
        name: 'step',
        stepPath: '1',
        status: 'TEST_STATUS_PASSED',
        stepType: 'TEST_STEP_TYPE_ACTION',
        startTime: t0,
        endTime: t1,
        ...step,
      },
    });
  const createMeasurement = (m: Record<string, unknown>) =>
    org.api('POST', '/api/v1/test-measurements', { testMeasurement: { name: 'm', timestamp: t1, passed: true, ...m } });

  beforeAll(async () => {
    org = inNewOrg('Steps');
    reportId = (
      await org.api('POST', '/api/v1/test-reports', {
        status: 2,
        name: 'r',
        testSystemName: 's',
        testCase: 'c',
        startTime: t0,
        endTime: t1,
      })
    ).body.testReport.testReportId;
  });

  it('creates steps under a report and a parent, with error info and metadata', async () => {
    const root = await createStep({ name: 'Main', stepType: 'TEST_STEP_TYPE_SEQUENCE', stepPath: '1' });
    expect(root.status, JSON.stringify(root.body)).toBe(200);
    expect(root.body.testStep).toEqual({
      testStepId: expect.any(String),
      testReportId: reportId,
      parentStepId: '',
      name: 'Main',
      description: '',
      stepType: 'TEST_STEP_TYPE_SEQUENCE',
      stepPath: '1',
      status: 'TEST_STATUS_PASSED',
      startTime: t0,
      endTime: t1,
      errorInfo: null,
      metadata: [],
    });
    const child = await createStep({
      name: 'Valve',
      parent_step_id: root.body.testStep.testStepId,
      stepPath: '1.10',
      description: 'open valve',
      status: 5,
      error_info: { error_code: -17, error_message: 'timeout' },
      metadata: [{ key: { name: 'retries' }, number_value: 2 }],
    });
    expect(child.status, JSON.stringify(child.body)).toBe(200);
    expect(child.body.testStep).toMatchObject({
      parentStepId: root.body.testStep.testStepId,
      stepPath: '1.10',
      description: 'open valve',
      status: 'TEST_STATUS_ERROR',
      errorInfo: { errorCode: -17, errorMessage: 'timeout' },
      metadata: [{ key: { name: 'retries', type: 'METADATA_KEY_TYPE_NUMBER' }, numberValue: 2 }],
    });
    await createStep({ name: 'Nine', parentStepId: root.body.testStep.testStepId, stepPath: '1.9' });
    const steps = await listAll(org.api, '/api/v1/test-steps', 'testSteps');
    expect(steps.map((t) => t.stepPath)).toEqual(['1', '1.9', '1.10']);
    expect((await org.api('GET', '/api/v1/test-steps/count')).body).toEqual({ count: '3' });
  });

  it('validates steps: parents, paths, required fields', async () => {
    expect((await createStep({ testReportId: randomUUID() })).status).toBe(404);
    expectInvalid(await createStep({ testReportId: undefined }), 'test_step.test_report_id');
    expectInvalid(await createStep({ name: '' }), 'test_step.name');
    expectInvalid(await createStep({ stepPath: '1..2' }), 'test_step.step_path');
    expectInvalid(await createStep({ stepPath: undefined }), 'test_step.step_path');
    expectInvalid(await createStep({ startTime: undefined }), 'test_step.start_time');
    expectInvalid(await createStep({ endTime: '2026-04-01T07:00:00Z' }), 'test_step.end_time');
    expectInvalid(await createStep({ parentStepId: randomUUID() }), 'test_step.parent_step_id');
    expectInvalid(await createStep({ stepType: 9 }), 'test_step.step_type');
    // A step of another report cannot be the parent.
    const other = (
      await org.api('POST', '/api/v1/test-reports', {
        status: 2,
        name: 'o',
        testSystemName: 's',
        testCase: 'c',
        startTime: t0,
        endTime: t1,
      })
    ).body.testReport.testReportId;
    const foreignStep = (await createStep({ testReportId: other })).body.testStep.testStepId;
    expectInvalid(await createStep({ parentStepId: foreignStep }), 'test_step.parent_step_id');
    expect((await org.api('DELETE', `/api/v1/test-reports/${other}`)).status).toBe(200);
  });

  it('updates steps by mask', async () => {
    const step = (await createStep({ name: 'Before', stepPath: '2', errorInfo: { errorCode: 1, errorMessage: 'x' } })).body.testStep;
    const res = await org.api('PATCH', '/api/v1/test-steps', {
      testStep: {
        testStepId: step.testStepId,
        name: 'After',
        stepPath: '2.1',
        status: 'TEST_STATUS_FAILED',
        metadata: [{ key: { name: 'k' }, stringValue: 'v' }],
      },
      updateMask: 'name,stepPath,status,errorInfo,metadata,testCase',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.testStep).toMatchObject({
      name: 'After',
      stepPath: '2.1',
      status: 'TEST_STATUS_FAILED',
      errorInfo: null,
      metadata: [{ key: { name: 'k' }, stringValue: 'v' }],
    });
    expectInvalid(
      await org.api('PATCH', '/api/v1/test-steps', {
        testStep: { testStepId: step.testStepId, parentStepId: 'x' },
        updateMask: 'parentStepId',
      }),
      'update_mask',
    );
    expectInvalid(
      await org.api('PATCH', '/api/v1/test-steps', { testStep: { testStepId: step.testStepId, stepPath: '.' }, updateMask: 'stepPath' }),
      'test_step.step_path',
    );
    expectInvalid(await org.api('PATCH', '/api/v1/test-steps', { testStep: { testStepId: step.testStepId } }), 'update_mask');
    expect(
      (await org.api('PATCH', '/api/v1/test-steps', { testStep: { testStepId: randomUUID(), name: 'x' }, updateMask: 'name' })).status,
    ).toBe(404);
    expect((await org.api('DELETE', `/api/v1/test-steps/${step.testStepId}`)).status).toBe(200);
  });

  it('creates measurements of every value kind; oneofs appear only when set', async () => {
    const step = (await createStep({ name: 'Measure', stepPath: '3' })).body.testStep;
    const numeric = await createMeasurement({
      testStepId: step.testStepId,
      testReportId: reportId,
      name: 'pressure',
      numericValue: 8.5,
      unit: { abbreviatedName: 'PSIA' },
      numericBounds: { max: 20 },
      description: 'LE 20 PSIA',
      channelNames: ['chamber.pressure'],
      metadata: [{ key: { name: 'probe' }, stringValue: 'A' }],
    });
    expect(numeric.status, JSON.stringify(numeric.body)).toBe(200);
    expect(numeric.body.testMeasurement).toEqual({
      measurementId: expect.any(String),
      measurementType: 'TEST_MEASUREMENT_TYPE_DOUBLE',
      name: 'pressure',
      testStepId: step.testStepId,
      testReportId: reportId,
      numericValue: 8.5,
      unit: { unitId: '', abbreviatedName: 'PSIA' },
      numericBounds: { max: 20 },
      passed: true,
      timestamp: t1,
      description: 'LE 20 PSIA',
      channelNames: ['chamber.pressure'],
      metadata: unarchivedMetadata({ key: { name: 'probe', type: 'METADATA_KEY_TYPE_STRING' }, stringValue: 'A' }),
    });
    const text = await createMeasurement({
      testStepId: step.testStepId,
      measurement_type: 3,
      string_value: 'OK',
      string_bounds: { expected_value: 'OK' },
    });
    expect(text.body.testMeasurement).toMatchObject({
      measurementType: 'TEST_MEASUREMENT_TYPE_STRING',
      stringValue: 'OK',
      stringBounds: { expectedValue: 'OK' },
      unit: null,
    });
    expect('numericValue' in text.body.testMeasurement || 'numericBounds' in text.body.testMeasurement).toBe(false);
    const flag = await createMeasurement({ testStepId: step.testStepId, booleanValue: false, passed: false });
    expect(flag.body.testMeasurement).toMatchObject({
      measurementType: 'TEST_MEASUREMENT_TYPE_BOOLEAN',
      booleanValue: false,
      passed: false,
    });
    const nan = await createMeasurement({ testStepId: step.testStepId, numericValue: 'NaN', numericBounds: { min: '-Infinity', max: 1 } });
    expect(nan.body.testMeasurement).toMatchObject({ numericValue: 'NaN', numericBounds: { min: '-Infinity', max: 1 } });
    const limit = await createMeasurement({ testStepId: step.testStepId, measurementType: 'TEST_MEASUREMENT_TYPE_LIMIT', numericValue: 1 });
    expect(limit.body.testMeasurement.measurementType).toBe('TEST_MEASUREMENT_TYPE_LIMIT');
    const bare = await createMeasurement({ testStepId: step.testStepId });
    expect(Object.keys(bare.body.testMeasurement).sort()).toEqual([...MEASUREMENT_BASE_KEYS].sort());
    expect(bare.body.testMeasurement.measurementType).toBe('TEST_MEASUREMENT_TYPE_UNSPECIFIED');
  });

  it('validates measurements (no TestMeasurementType 2, oneofs, parents)', async () => {
    const step = (await createStep({ name: 'V', stepPath: '4' })).body.testStep;
    expectInvalid(await createMeasurement({ testStepId: step.testStepId, measurementType: 2 }), 'test_measurement.measurement_type');
    expectInvalid(
      await createMeasurement({ testStepId: step.testStepId, measurementType: 'TEST_MEASUREMENT_TYPE_STRING', numericValue: 1 }),
      'test_measurement.measurement_type',
    );
    const two = await createMeasurement({ testStepId: step.testStepId, numericValue: 1, stringValue: 'x' });
    expect(two.status).toBe(400);
    expect(two.body.message).toContain('oneof value');
    expectInvalid(await createMeasurement({ testStepId: step.testStepId, name: '' }), 'test_measurement.name');
    expectInvalid(await createMeasurement({ testStepId: step.testStepId, timestamp: undefined }), 'test_measurement.timestamp');
    expectInvalid(await createMeasurement({ testStepId: undefined }), 'test_measurement.test_step_id');
    expectInvalid(await createMeasurement({ testStepId: step.testStepId, testReportId: randomUUID() }), 'test_measurement.test_report_id');
    expect((await createMeasurement({ testStepId: randomUUID() })).status).toBe(404);
  });

  it('creates measurements in a batch, atomically', async () => {
    const o = inNewOrg('Batch');
    const rid = (
      await o.api('POST', '/api/v1/test-reports', { status: 2, name: 'r', testSystemName: 's', testCase: 'c', startTime: t0, endTime: t1 })
    ).body.testReport.testReportId;
    const sid = (
      await o.api('POST', '/api/v1/test-steps', { testStep: { testReportId: rid, name: 's', stepPath: '1', startTime: t0, endTime: t1 } })
    ).body.testStep.testStepId;
    const m = (i: number) => ({ testStepId: sid, name: `m${i}`, numericValue: i, timestamp: `2026-04-01T08:0${i}:00Z`, passed: true });
    const bad = await o.api('POST', '/api/v1/test-measurements:batch', { testMeasurements: [m(1), { ...m(2), name: '' }, m(3)] });
    expectInvalid(bad, 'test_measurements[1].name');
    const unknownStep = await o.api('POST', '/api/v1/test-measurements:batch', {
      testMeasurements: [m(1), { ...m(2), testStepId: randomUUID() }],
    });
    expect(unknownStep.status).toBe(404);
    expect((await o.api('GET', '/api/v1/test-measurements/count')).body).toEqual({ count: '0' });
    const ok = await o.api('POST', '/api/v1/test-measurements:batch', { test_measurements: [m(3), m(1), m(2)] });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.measurementsCreatedCount).toBe(3);
    expect(ok.body.measurementIds).toHaveLength(3);
    const list = await listAll(o.api, '/api/v1/test-measurements', 'testMeasurements');
    expect(list.map((x) => x.name)).toEqual(['m1', 'm2', 'm3']); // timestamp asc
    expect(list.find((x) => x.name === 'm3').measurementId).toBe(ok.body.measurementIds[0]);
    const byName = await o.api('GET', '/api/v1/test-measurements?order_by=name%20desc&page_size=2');
    expect(byName.body.testMeasurements.map((x: { name: string }) => x.name)).toEqual(['m3', 'm2']);
    expect(byName.body.nextPageToken).not.toBe('');
    expectInvalid(await o.api('GET', '/api/v1/test-measurements?order_by=numeric_value'), 'order_by');
    expectInvalid(await o.api('POST', '/api/v1/test-measurements:batch', { testMeasurements: [] }), 'test_measurements');
  });

  it('updates measurements by mask, switching oneof members', async () => {
    const step = (await createStep({ name: 'U', stepPath: '5' })).body.testStep;
    const m = (
      await createMeasurement({ testStepId: step.testStepId, numericValue: 1, numericBounds: { min: 0 }, unit: { abbreviatedName: 'V' } })
    ).body.testMeasurement;
    const toString = await org.api('PATCH', '/api/v1/test-measurements', {
      testMeasurement: {
        measurementId: m.measurementId,
        measurementType: 'TEST_MEASUREMENT_TYPE_STRING',
        stringValue: 'high',
        stringBounds: { expectedValue: 'high' },
      },
      updateMask: 'measurementType,numericValue,stringValue,numericBounds,stringBounds,unit',
    });
    expect(toString.status, JSON.stringify(toString.body)).toBe(200);
    const t = toString.body.testMeasurement;
    expect(t).toMatchObject({
      measurementType: 'TEST_MEASUREMENT_TYPE_STRING',
      stringValue: 'high',
      stringBounds: { expectedValue: 'high' },
      unit: null,
    });
    expect('numericValue' in t || 'numericBounds' in t).toBe(false);
    const more = await org.api('PATCH', '/api/v1/test-measurements', {
      testMeasurement: {
        measurementId: m.measurementId,
        name: 'renamed',
        passed: false,
        timestamp: '2026-04-02T00:00:00Z',
        channelNames: ['a', 'b'],
        description: 'd',
      },
      updateMask: 'name,passed,timestamp,channelNames,description,stringBounds',
    });
    expect(more.body.testMeasurement).toMatchObject({
      name: 'renamed',
      passed: false,
      timestamp: '2026-04-02T00:00:00Z',
      channelNames: ['a', 'b'],
      description: 'd',
      stringValue: 'high',
    });
    expect('stringBounds' in more.body.testMeasurement).toBe(false);
    expectInvalid(
      await org.api('PATCH', '/api/v1/test-measurements', {
        testMeasurement: { measurementId: m.measurementId, numericValue: 2 },
        updateMask: 'numericValue',
      }),
      'test_measurement.measurement_type',
    );
    expectInvalid(
      await org.api('PATCH', '/api/v1/test-measurements', {
        testMeasurement: { measurementId: m.measurementId, testStepId: 'x' },
        updateMask: 'testStepId',
      }),
      'update_mask',
    );
    expectInvalid(
      await org.api('PATCH', '/api/v1/test-measurements', { testMeasurement: { measurementId: m.measurementId } }),
      'update_mask',
    );
    expect(
      (
        await org.api('PATCH', '/api/v1/test-measurements', {
          testMeasurement: { measurementId: randomUUID(), name: 'x' },
          updateMask: 'name',
        })
      ).status,
    ).toBe(404);
  });

  it('deletes measurements, and steps with their subtree and measurements', async () => {
    const parent = (await createStep({ name: 'P', stepPath: '6' })).body.testStep;
    const child = (await createStep({ name: 'C', stepPath: '6.1', parentStepId: parent.testStepId })).body.testStep;
    const grandchild = (await createStep({ name: 'G', stepPath: '6.1.1', parentStepId: child.testStepId })).body.testStep;
    const sibling = (await createStep({ name: 'S', stepPath: '7' })).body.testStep;
    const gm = (await createMeasurement({ testStepId: grandchild.testStepId })).body.testMeasurement;
    const sm = (await createMeasurement({ testStepId: sibling.testStepId })).body.testMeasurement;
    const before = Number((await org.api('GET', '/api/v1/test-steps/count')).body.count);
    const beforeM = Number((await org.api('GET', '/api/v1/test-measurements/count')).body.count);

    expect((await org.api('DELETE', `/api/v1/test-measurements/${sm.measurementId}`)).body).toEqual({});
    expect((await org.api('DELETE', `/api/v1/test-measurements/${sm.measurementId}`)).status).toBe(404);
    expect((await org.api('DELETE', `/api/v1/test-steps/${parent.testStepId}`)).status).toBe(200);
    expect((await org.api('GET', '/api/v1/test-steps/count')).body.count).toBe(String(before - 3));
    expect((await org.api('GET', '/api/v1/test-measurements/count')).body.count).toBe(String(beforeM - 2));
    const ids = (await listAll(org.api, '/api/v1/test-measurements', 'testMeasurements')).map((x) => x.measurementId);
    expect(ids).not.toContain(gm.measurementId);
    expect((await org.api('DELETE', `/api/v1/test-steps/${parent.testStepId}`)).status).toBe(404);
  });

  it('keeps steps and measurements of other organizations invisible', async () => {
    const step = (await createStep({ name: 'Private', stepPath: '8' })).body.testStep;
    const m = (await createMeasurement({ testStepId: step.testStepId })).body.testMeasurement;
    const other = inNewOrg('Outsider');
    expect((await other.api('GET', '/api/v1/test-steps/count')).body).toEqual({ count: '0' });
    expect((await other.api('GET', '/api/v1/test-measurements/count')).body).toEqual({ count: '0' });
    expect((await other.api('GET', '/api/v1/test-steps')).body).toEqual({ testSteps: [], nextPageToken: '' });
    expect((await other.api('GET', '/api/v1/test-reports')).body).toEqual({ testReports: [], nextPageToken: '' });
    for (const [method, path, body] of [
      ['GET', `/api/v1/test-reports/${reportId}`, undefined],
      ['DELETE', `/api/v1/test-reports/${reportId}`, undefined],
      ['PATCH', '/api/v1/test-reports', { testReport: { testReportId: reportId, name: 'x' }, updateMask: 'name' }],
      ['POST', '/api/v1/test-steps', { testStep: { testReportId: reportId, name: 'x', stepPath: '9', startTime: t0, endTime: t1 } }],
      ['PATCH', '/api/v1/test-steps', { testStep: { testStepId: step.testStepId, name: 'x' }, updateMask: 'name' }],
      ['DELETE', `/api/v1/test-steps/${step.testStepId}`, undefined],
      ['POST', '/api/v1/test-measurements', { testMeasurement: { testStepId: step.testStepId, name: 'x', timestamp: t1 } }],
      ['PATCH', '/api/v1/test-measurements', { testMeasurement: { measurementId: m.measurementId, name: 'x' }, updateMask: 'name' }],
      ['DELETE', `/api/v1/test-measurements/${m.measurementId}`, undefined],
    ] as const) {
      const res = await other.api(method, path, body);
      expect([res.status, res.body.code], `${method} ${path}`).toEqual([404, 5]);
    }
    expect((await org.api('GET', `/api/v1/test-reports/${reportId}`)).body.testReport.name).toBe('r');
  });
});

describe('ImportTestReport: a hostile nesting of test groups', () => {
  /** The demo report with a chain of `depth` nested TestGroups added at the start of its ResultSet. */
  const nested = (depth: number) => {
    const text = SAMPLE.toString('utf8');
    const at = text.indexOf('>', text.indexOf('<tr:ResultSet')) + 1;
    const chain =
      '<tr:TestGroup name="g" callerName="call" startDateTime="2025-09-10T11:25:07.560" endDateTime="2025-09-10T11:25:08.560"><tr:Outcome value="Passed"/>'.repeat(
        depth,
      ) + '</tr:TestGroup>'.repeat(depth);
    return text.slice(0, at) + chain + text.slice(at);
  };

  test('steps nested past the limit are INVALID_ARGUMENT, fast, and the database does not grow (it grew quadratically)', async () => {
    const org = inNewOrg('Nesting');
    const doc = nested(10_000); // ~700 KB of nesting: 10,000-level step paths before the limit
    const remoteFileId = await uploadFile(org.token, doc, 'nested.xml');
    const steps = () => s.engine.db.get<{ n: number }>('SELECT count(*) AS n FROM test_steps')!.n;
    const before = steps();
    const res = await org.api('POST', '/api/v1/test-reports:import', { remoteFileId });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 3, message: expect.stringContaining(`steps nest deeper than ${MAX_STEP_DEPTH} levels`) });
    expect(res.body.details[0].fieldViolations[0].field).toBe('remote_file_id');
    expect(steps()).toBe(before);
  });

  test('nesting within the limit imports, each step with its path', async () => {
    const org = inNewOrg('Nesting ok');
    const remoteFileId = await uploadFile(org.token, nested(MAX_STEP_DEPTH - 2), 'nested-ok.xml');
    const res = await org.api('POST', '/api/v1/test-reports:import', { remoteFileId });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const steps = await listAll(
      org.api,
      `/api/v1/test-steps?filter=${encodeURIComponent(`test_report_id == "${res.body.testReport.testReportId}"`)}`,
      'testSteps',
    );
    const deepest = steps.reduce((a, b) => (a.stepPath.split('.').length >= b.stepPath.split('.').length ? a : b));
    expect(deepest.stepPath).toBe(['1', ...Array(MAX_STEP_DEPTH - 2).fill('1')].join('.'));
  });
});

describe('ImportTestReport: step paths stored once, linear in the file', () => {
  /** Bytes of database pages in use (WAL included: page_count is the connection's view). */
  const usedBytes = () => {
    const db = s.engine.db.raw;
    const pragma = (p: string) => db.pragma(p, { simple: true }) as number;
    return (pragma('page_count') - pragma('freelist_count')) * pragma('page_size');
  };
  const group = (inner: string) =>
    `<tr:TestGroup name="g" callerName="call" startDateTime="2025-09-10T11:25:07.560" endDateTime="2025-09-10T11:25:08.560"><tr:Outcome value="Passed"/>${inner}</tr:TestGroup>`;
  /** The demo report with `body` put at the start of its ResultSet. */
  const withSteps = (body: string) => {
    const text = SAMPLE.toString('utf8');
    const at = text.indexOf('>', text.indexOf('<tr:ResultSet')) + 1;
    return text.slice(0, at) + body + text.slice(at);
  };
  /** A chain of `depth` nested groups, each holding `width` empty groups: depth x (width + 1) steps. */
  const deep = (depth: number, width: number): string => (depth === 0 ? '' : group(group('').repeat(width) + deep(depth - 1, width)));

  async function importedSize(doc: string): Promise<{ steps: number; bytes: number; fileBytes: number }> {
    const org = inNewOrg('Size');
    const remoteFileId = await uploadFile(org.token, doc, 'size.xml');
    const before = usedBytes();
    const res = await org.api('POST', '/api/v1/test-reports:import', { remoteFileId });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const steps = Number((await org.api('GET', '/api/v1/test-steps/count')).body.count);
    return { steps, bytes: usedBytes() - before, fileBytes: Buffer.byteLength(doc) };
  }

  test('a deeply nested file (126 levels x 30 wide) costs about what the same steps flat cost, per step and against the file size', async () => {
    const depth = MAX_STEP_DEPTH - 2;
    const width = 30;
    const nested = await importedSize(withSteps(deep(depth, width)));
    const flat = await importedSize(withSteps(group('').repeat(depth * (width + 1))));
    expect(nested.steps).toBe(flat.steps);
    const perStep = (r: typeof nested) => r.bytes / r.steps;
    // Text paths (each step's whole path, and a longer sort key in the row and twice in indexes) made a nested
    // step cost 3.6x a flat one here (2.3 KB against 0.65 KB; 11.7x the file's bytes). The key costs about a byte
    // per level in the row and in each path index: measured 1.33x (0.83 KB; 4.2x the file).
    expect(perStep(nested) / perStep(flat)).toBeLessThan(1.8);
    expect(perStep(nested)).toBeLessThan(1200);
    // And the database grows by a bounded multiple of the file (~200 bytes of file per step here).
    expect(nested.bytes / nested.fileBytes).toBeLessThan(8);
  });

  test('the wire step paths of the demo report are those the text-path storage returned', async () => {
    const org = inNewOrg('Paths');
    const res = await org.api('POST', '/api/v1/test-reports:import', { remoteFileId: await uploadFile(org.token, SAMPLE) });
    expect(res.status).toBe(200);
    const steps = await listAll(org.api, '/api/v1/test-steps', 'testSteps');
    // Captured from the import before the storage change (name, step_path in document order = natural path order).
    const before = JSON.parse(readFileSync(join(__dirname, '../fixtures/teststand/demo_test_report.step_paths.json'), 'utf8'));
    expect(steps.map((x) => [x.name, x.stepPath])).toEqual(before);
    // Filters on step_path still work (decoded in SQL), and pages ordered by it (a key cursor) cover every step once.
    const byPath = async (filter: string) =>
      (await listAll(org.api, `/api/v1/test-steps?filter=${encodeURIComponent(filter)}`, 'testSteps')).map((x) => x.stepPath);
    expect(await byPath('step_path == "1.6.2"')).toEqual(['1.6.2']);
    expect(await byPath('step_path.startsWith("1.1.")')).toEqual(
      before.map((b: string[]) => b[1]).filter((p: string) => p.startsWith('1.1.')),
    );
    expect((await listAll(org.api, '/api/v1/test-steps', 'testSteps', 7)).map((x) => x.stepPath)).toEqual(
      before.map((b: string[]) => b[1]),
    );
    expect((await listAll(org.api, '/api/v1/test-steps?order_by=step_path%20desc', 'testSteps', 7)).map((x) => x.stepPath)).toEqual(
      before.map((b: string[]) => b[1]).reverse(),
    );
  });

  test('a step field over the size cap is INVALID_ARGUMENT naming the field, and writes nothing', async () => {
    const org = inNewOrg('Field cap');
    const doc = withSteps(group('').replace('name="g"', `name="${'n'.repeat(MAX_FIELD_CHARS + 1)}"`));
    const res = await org.api('POST', '/api/v1/test-reports:import', { remoteFileId: await uploadFile(org.token, doc, 'long-name.xml') });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 3,
      message: expect.stringContaining(`a step's name is longer than ${MAX_FIELD_CHARS} characters`),
    });
    expect(res.body.details[0].fieldViolations[0].field).toBe('remote_file_id');
    expect((await org.api('GET', '/api/v1/test-reports')).body.testReports).toEqual([]);
  });
});

describe('ImportTestReport: a big import leaves the server answering, and appears whole', () => {
  test('requests are answered while the import copies its rows, and never see part of the report', async () => {
    const org = inNewOrg('Big import');
    const text = SAMPLE.toString('utf8');
    const at = text.indexOf('>', text.indexOf('<tr:ResultSet')) + 1;
    const end = text.indexOf('</tr:ResultSet>');
    const big = text.slice(0, at) + text.slice(at, end).repeat(60) + text.slice(end);
    const remoteFileId = await uploadFile(org.token, big, 'big.xml');
    const pendingRows = () =>
      s.engine.db.get<{ n: number }>('SELECT count(*) AS n FROM test_steps t JOIN test_report_imports i ON i.report_pk = t.report_pk')!.n;

    let finished = false;
    const importing = org.api('POST', '/api/v1/test-reports:import', { remoteFileId }).then((r) => ((finished = true), r));
    const seen: { count: string; reports: number; pendingRows: number; finished: boolean }[] = [];
    while (!finished) {
      const count = (await org.api('GET', '/api/v1/test-steps/count')).body.count;
      const reports = (await org.api('GET', '/api/v1/test-reports')).body.testReports.length;
      seen.push({ count, reports, pendingRows: pendingRows(), finished });
    }
    const res = await importing;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // Answered while the import was copying (part of its rows already written), before its response.
    expect(seen.some((x) => x.pendingRows > 0 && !x.finished)).toBe(true);
    // Readers never saw part of it: the pending report and its steps are out of lists and counts until the end.
    const total = Number((await org.api('GET', '/api/v1/test-steps/count')).body.count);
    expect(total).toBe(60 * 222 + 1);
    for (const x of seen.filter((y) => !y.finished)) expect([x.count, x.reports]).toEqual(['0', 0]);
    expect(s.engine.db.all('SELECT * FROM test_report_imports')).toEqual([]);
  });

  test('a copy failing half-way leaves nothing behind', async () => {
    const org = inNewOrg('Failed copy');
    const staging = new ImportStaging(stagingPath(join(s.dataDir, 'tmp'), randomUUID()));
    try {
      const parsed = await parseAtml(
        Readable.from([
          SAMPLE.toString('utf8').replace(
            /(<tr:ResultSet[^>]*>)/,
            `$1${'<tr:SessionAction name="a" startDateTime="2025-09-10T11:25:07.560" endDateTime="2025-09-10T11:25:08.560"><tr:ActionOutcome value="Done"/></tr:SessionAction>'.repeat(3000)}`,
          ),
        ]),
        staging.sink,
      );
      expect(parsed.steps).toBeGreaterThan(3000);
      staging.finish();
      // Two measurements with one id: the unique index fails the copy after every step was copied.
      const raw = new BetterSqlite3(staging.path);
      raw.prepare('UPDATE measurements SET id = (SELECT id FROM measurements WHERE seq = 1) WHERE seq = 2').run();
      raw.close();
      const counts = () =>
        ['test_reports', 'test_steps', 'test_step_metadata', 'test_measurements', 'test_measurement_metadata', 'test_report_imports'].map(
          (t) => s.engine.db.get<{ n: number }>(`SELECT count(*) AS n FROM ${t}`)!.n,
        );
      const before = counts();
      const userId = s.engine.db.get<{ id: string }>('SELECT user_id AS id FROM memberships WHERE organization_id = ? LIMIT 1', [
        org.organizationId,
      ])!.id;
      const ctx = { engine: s.engine, db: s.engine.db, caller: loadCaller(s.engine.db, userId)! };
      await expect(copyStagedReport(ctx, staging.path, org.organizationId, null)).rejects.toThrow(/UNIQUE/);
      expect(counts()).toEqual(before);
      expect(s.engine.db.all("SELECT name FROM pragma_database_list WHERE name = 'staging'")).toEqual([]);
    } finally {
      staging.remove();
    }
  });
});

describe('GetTestReportSources (extension): the file a report was imported from, and when', () => {
  test('an imported report names its uploaded file; one made through the API names none; both say when they were stored', async () => {
    const org = inNewOrg('Sources');
    const before = Date.now();
    const remoteFileId = await uploadFile(org.token, SAMPLE, 'bench_B_second_try.xml');
    const imported = (await org.api('POST', '/api/v1/test-reports:import', { remoteFileId })).body.testReport;
    const made = (
      await org.api('POST', '/api/v1/test-reports', {
        status: 'TEST_STATUS_FAILED',
        name: imported.name,
        testSystemName: 'rig',
        testCase: 'case',
        startTime: '2026-02-01T10:00:00Z',
        endTime: '2026-02-01T10:01:00Z',
      })
    ).body.testReport;
    const res = await org.api(
      'GET',
      `/api/v1/test-reports:sources?test_report_ids=${imported.testReportId}&test_report_ids=${made.testReportId}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.sources.map((x: any) => [x.testReportId, x.remoteFileId])).toEqual([
      [imported.testReportId, remoteFileId],
      [made.testReportId, ''],
    ]);
    for (const x of res.body.sources) {
      expect(Date.parse(x.createdDate)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(x.createdDate)).toBeLessThanOrEqual(Date.now());
    }
    // The file's name is the remote file's, read through its own (authorized) list.
    const files = await org.api('GET', `/api/v1/remote-files?filter=${encodeURIComponent(`remote_file_id == "${remoteFileId}"`)}`);
    expect(files.body.remoteFiles.map((f: any) => f.fileName)).toEqual(['bench_B_second_try.xml']);
  });

  test('no report named is INVALID_ARGUMENT naming the field; a report of another organization is NOT_FOUND', async () => {
    const org = inNewOrg('Sources none');
    const empty = await org.api('GET', '/api/v1/test-reports:sources');
    expectInvalid(empty, 'test_report_ids');
    const other = inNewOrg('Sources other');
    const theirs = (
      await other.api('POST', '/api/v1/test-reports', {
        status: 'TEST_STATUS_PASSED',
        name: 'Theirs',
        testSystemName: 'rig',
        testCase: 'case',
        startTime: '2026-02-01T10:00:00Z',
        endTime: '2026-02-01T10:01:00Z',
      })
    ).body.testReport;
    const res = await org.api('GET', `/api/v1/test-reports:sources?test_report_ids=${theirs.testReportId}`);
    expect(res.status).toBe(404);
    expect(res.body.message).toContain(theirs.testReportId);
  });
});
