// Authorization has one door (issue #28): every operation of the contract is
// walked here, over real HTTP and a real SQLite file, against records a Cedar
// read-forbid hides from Alice (the policy: `secret`-tagged annotations,
// and records of every other type carrying a `secret` resource attribute; their
// creator, Bob, still reads them). For each operation Alice's call names a
// hidden record (or lists where one would be) and must show nothing of it: a
// list answers without it, a get or a write is refused (403/404) and changes
// nothing. Bob's same read shows the record, so each probe is known to reach
// it. Every /api/v1/outpost/sync/* operation is the data directory owner's. An
// operation missing from PROBES fails the test: a new operation must join it.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { formDataOf } from '../../src-shared/client';
import { httpRequestOf } from '../../src-shared/httpRequest';
import { operations, type OperationName } from '../../src-shared/operations';
import { setResourceAttribute } from '../../src-main/auth/cedar/attributes';
import { startTestServer, type TestServer } from '../support/testServer';

const MARK = 'TOPSECRET';
const READ_FORBIDS = [
  // The policy, verbatim.
  'forbid(principal, action in Action::"read", resource is Annotation) when { resource.tags.contains("secret") } unless { resource.creator == principal };',
  // The same for every record type, by a resource attribute.
  ...['Asset', 'Run', 'Channel', 'SavedSearch', 'Rule', 'Policy', 'TestReport', 'RemoteFile', 'Artifact'].map(
    (t) =>
      `forbid(principal, action in Action::"read", resource is ${t}) when { resource.hasTag("secret") } unless { resource.creator == principal };`,
  ),
];

let server: TestServer;
let bob: string; // creates the hidden records (their creator still reads them)
let alice: string; // the same organization; may not read them

interface Secrets {
  annotationId: string;
  annotationLogId: string;
  assetId: string;
  runId: string;
  channelId: string;
  savedSearchId: string;
  ruleId: string;
  ruleClientKey: string;
  ruleVersionId: string;
  policyId: string;
  testReportId: string;
  testStepId: string;
  measurementId: string;
  remoteFileId: string;
  artifactId: string;
}
let s: Secrets;
let bench: string; // the id of the asset every record hangs on
const benchId = () => bench;

type Request = Record<string, unknown>;
/**
 * - `shows`: a read whose answer would hold the hidden record: Alice's answer lacks it (or is refused), Bob's has it.
 * - `refused`: the call names a hidden record: Alice gets 403 without a trace of it, and nothing changes.
 * - `noRecord`: the operation shows no record of a type a policy decides (why says so); Alice's call shows no mark.
 * - `owner`: a sync extension operation: anyone but the data directory owner gets 403.
 * - `public`: answers without a caller (why says what guards it).
 */
type Probe =
  | { kind: 'shows'; request: (s: Secrets) => Request }
  | { kind: 'refused'; request: (s: Secrets) => Request }
  | { kind: 'noRecord'; why: string; request: (s: Secrets) => Request }
  | { kind: 'owner' }
  | { kind: 'public'; why: string };

const T0 = '2026-01-01T00:00:00Z';
const T1 = '2026-01-01T00:01:00Z';
const shows = (request: (s: Secrets) => Request): Probe => ({ kind: 'shows', request });
const refused = (request: (s: Secrets) => Request): Probe => ({ kind: 'refused', request });
const noRecord = (why: string, request: (s: Secrets) => Request = () => ({})): Probe => ({ kind: 'noRecord', why, request });
const owner: Probe = { kind: 'owner' };
const file = () => new File([new TextEncoder().encode('a,b\n1,2\n')], 'alice.csv', { type: 'text/csv' });

const PROBES: Record<OperationName, Probe> = {
  Ping: { kind: 'public', why: 'a health check: no record' },
  GetOpenApiDocument: { kind: 'public', why: 'the API description: no record' },
  GetRemoteFileContent: { kind: 'public', why: 'answers only a URL signed by GetRemoteFileDownloadUrl, which decides the read' },

  CreateAnnotation: noRecord('shows only the annotation Alice creates', () => ({
    name: 'alice note',
    startTime: T0,
    endTime: T1,
    assets: ['bench-1'],
  })),
  DeleteAnnotation: refused((s) => ({ annotationId: s.annotationId })),
  ArchiveAnnotation: refused((s) => ({ annotationId: s.annotationId })),
  UnarchiveAnnotation: refused((s) => ({ annotationId: s.annotationId })),
  BatchDeleteAnnotations: refused((s) => ({ annotationIds: [s.annotationId] })),
  BatchArchiveAnnotations: refused((s) => ({ annotationIds: [s.annotationId] })),
  BatchUnarchiveAnnotations: refused((s) => ({ annotationIds: [s.annotationId] })),
  ListAnnotations: shows(() => ({ pageSize: 1000 })),
  GetAnnotation: shows((s) => ({ annotationId: s.annotationId })),
  UpdateAnnotation: refused((s) => ({ annotation: { annotationId: s.annotationId, name: 'renamed' }, updateMask: 'name' })),
  // Each item is its own UpdateAnnotation, decided as one.
  BatchUpdateAnnotations: refused((s) => ({
    requests: [{ annotation: { annotationId: s.annotationId, name: 'renamed' }, updateMask: 'name' }],
  })),
  // The records it names are decided before any runs; a filter selects only what the list shows (ListAnnotations' gate).
  BatchChangeAnnotations: refused((s) => ({ records: [{ annotationId: s.annotationId, change: { addTag: 'peek' } }] })),
  CreateAnnotationLog: refused((s) => ({
    annotationId: s.annotationId,
    kind: 'ANNOTATION_LOG_KIND_COMMENT',
    comment: { body: [{ type: 'ANNOTATION_COMMENT_BODY_ELEMENT_TYPE_TEXT', text: 'peek' }] },
  })),
  ListAnnotationLogs: shows((s) => ({ annotationId: s.annotationId })),
  ListAllAnnotationLogs: shows(() => ({ pageSize: 1000 })),
  DeleteAnnotationLog: refused((s) => ({ annotationId: s.annotationId, annotationLogId: s.annotationLogId })),

  GetAsset: shows((s) => ({ assetId: s.assetId })),
  ListAssets: shows(() => ({ pageSize: 1000 })),
  CreateAsset: noRecord('shows only the asset Alice creates', () => ({ name: 'alice-rig' })),
  UpdateAsset: refused((s) => ({ asset: { assetId: s.assetId, tags: ['x'] }, updateMask: 'tags' })),
  ArchiveAsset: refused((s) => ({ assetId: s.assetId })),
  DeleteAsset: refused((s) => ({ assetId: s.assetId })),

  GetRun: shows((s) => ({ runId: s.runId })),
  ListRuns: shows(() => ({ pageSize: 1000 })),
  CreateRun: noRecord('shows only the run Alice creates', () => ({ name: 'alice run' })),
  CreateAdhocRun: noRecord('shows only the run Alice creates', () => ({
    name: 'alice adhoc',
    startTime: T0,
    stopTime: T1,
    assetIds: ['bench-1'],
  })),
  UpdateRun: refused((s) => ({ run: { runId: s.runId, description: 'peek' }, updateMask: 'description' })),
  StopRun: refused((s) => ({ runId: s.runId })),
  DeleteRun: refused((s) => ({ runId: s.runId })),
  CreateAutomaticRunAssociationForAssets: refused((s) => ({ runId: s.runId, assetNames: ['bench-1'] })),

  CreateTag: noRecord('a tag is a name, not a record a policy decides', () => ({ name: 'alice-tag' })),
  ListTags: noRecord('tags are names, not records a policy decides'),
  GetUser: noRecord('users are not records a policy decides', () => ({ userId: 'nobody' })),
  ListActiveUsers: noRecord('users are not records a policy decides'),
  ListUsers: noRecord('users are not records a policy decides'),
  GetMe: noRecord('the caller itself'),

  GetChannel: shows((s) => ({ channelId: s.channelId })),
  ListChannels: shows(() => ({ pageSize: 1000 })),
  CreateChannel: noRecord('shows only the channel Alice creates', () => ({ assetId: benchId(), name: 'alice.channel' })),
  UpdateChannel: refused((s) => ({ channel: { channelId: s.channelId, displayDescription: 'peek' }, updateMask: 'display_description' })),
  BatchArchiveChannels: refused((s) => ({ channelIds: [s.channelId] })),
  BatchUnarchiveChannels: refused((s) => ({ channelIds: [s.channelId] })),

  ListUnits: noRecord('units are names, not records a policy decides'),
  CreateUnit: noRecord('a unit is a name, not a record a policy decides', () => ({ name: 'alice-unit' })),

  GetSavedSearch: shows((s) => ({ savedSearchId: s.savedSearchId })),
  CreateSavedSearch: noRecord('shows only the search Alice creates', () => ({
    name: 'alice search',
    properties: { overviewMode: 'OVERVIEW_MODE_ANNOTATIONS' },
  })),
  ListSavedSearches: shows(() => ({ pageSize: 1000 })),
  UpdateSavedSearch: refused((s) => ({ savedSearch: { savedSearchId: s.savedSearchId, name: 'peek' }, updateMask: 'name' })),
  DeleteSavedSearch: refused((s) => ({ savedSearchId: s.savedSearchId })),
  BatchDeleteSavedSearches: refused((s) => ({ savedSearchIds: [s.savedSearchId] })),

  CreateRule: noRecord('shows only the rule Alice creates', () => ({ update: { name: 'alice rule', assetId: benchId() } })),
  UpdateRule: refused((s) => ({ ruleId: s.ruleId, name: 'peek', assetId: benchId() })),
  BatchUpdateRules: refused((s) => ({ rules: [{ ruleId: s.ruleId, name: 'peek', assetId: benchId() }] })),
  GetRule: shows((s) => ({ ruleId: s.ruleId })),
  BatchGetRules: shows((s) => ({ ruleIds: [s.ruleId] })),
  ListRules: shows(() => ({ pageSize: 1000 })),
  ListRuleVersions: shows((s) => ({ ruleId: s.ruleId })),
  GetRuleVersion: shows((s) => ({ ruleVersionId: s.ruleVersionId })),
  BatchGetRuleVersions: shows((s) => ({ ruleVersionIds: [s.ruleVersionId] })),
  ArchiveRule: refused((s) => ({ ruleId: s.ruleId })),
  UnarchiveRule: refused((s) => ({ ruleId: s.ruleId })),
  BatchArchiveRules: refused((s) => ({ ruleIds: [s.ruleId] })),
  BatchUnarchiveRules: refused((s) => ({ ruleIds: [s.ruleId] })),
  DeleteRule: refused((s) => ({ clientKey: s.ruleClientKey })),
  UndeleteRule: refused((s) => ({ ruleId: s.ruleId })),
  BatchDeleteRules: refused((s) => ({ ruleIds: [s.ruleId] })),
  BatchUndeleteRules: refused((s) => ({ ruleIds: [s.ruleId] })),

  GetPolicy: shows((s) => ({ policyId: s.policyId })),
  ListPolicies: shows(() => ({ pageSize: 1000 })),
  CreatePolicy: noRecord('shows only the policy Alice creates', () => ({
    name: 'alice policy',
    configuration: { cedarPolicy: 'forbid(principal, action, resource) when { false };' },
  })),
  UpdatePolicy: refused((s) => ({ policy: { policyId: s.policyId, name: 'peek' }, updateMask: 'name' })),
  ValidatePolicy: noRecord('validates the text it is given', () => ({ cedarPolicy: 'permit(principal, action, resource);' })),
  ArchivePolicy: refused((s) => ({ policyId: s.policyId })),
  UnarchivePolicy: refused((s) => ({ policyId: s.policyId })),
  ListPolicyVersions: shows((s) => ({ policyId: s.policyId })),
  // What the policies decide for the caller on a record: only on one the caller may read.
  ExplainPolicyDecision: shows((s) => ({ action: 'ArchiveAnnotation', resourceId: s.annotationId })),

  ImportTestReport: noRecord('imports the file Alice names (her own here): nothing hidden', () => ({ remoteFileId: 'no-such-file' })),
  CreateTestReport: noRecord('shows only the report Alice creates', () => ({
    status: 'TEST_STATUS_PASSED',
    name: 'alice report',
    testSystemName: 'rig',
    testCase: 'case',
    startTime: T0,
    endTime: T1,
  })),
  GetTestReport: shows((s) => ({ testReportId: s.testReportId })),
  ListTestReports: shows(() => ({ pageSize: 1000 })),
  CountAnnotations: shows(() => ({})),
  GetTestReportSources: shows((s) => ({ testReportIds: [s.testReportId] })),
  UpdateTestReport: refused((s) => ({ testReport: { testReportId: s.testReportId, name: 'peek' }, updateMask: 'name' })),
  DeleteTestReport: refused((s) => ({ testReportId: s.testReportId })),
  CreateTestStep: refused((s) => ({
    testStep: {
      testReportId: s.testReportId,
      name: 'peek',
      stepType: 'TEST_STEP_TYPE_ACTION',
      stepPath: '9',
      status: 'TEST_STATUS_PASSED',
      startTime: T0,
      endTime: T1,
    },
  })),
  ListTestSteps: shows(() => ({ pageSize: 1000 })),
  CountTestSteps: shows((s) => ({ filter: `test_report_id == "${s.testReportId}"` })),
  UpdateTestStep: refused((s) => ({ testStep: { testStepId: s.testStepId, name: 'peek' }, updateMask: 'name' })),
  DeleteTestStep: refused((s) => ({ testStepId: s.testStepId })),
  CreateTestMeasurement: refused((s) => ({
    testMeasurement: {
      testStepId: s.testStepId,
      testReportId: s.testReportId,
      name: 'peek',
      measurementType: 'TEST_MEASUREMENT_TYPE_STRING',
      stringValue: 'x',
      passed: true,
      timestamp: T0,
    },
  })),
  CreateTestMeasurements: refused((s) => ({
    testMeasurements: [
      {
        testStepId: s.testStepId,
        testReportId: s.testReportId,
        name: 'peek',
        measurementType: 'TEST_MEASUREMENT_TYPE_STRING',
        stringValue: 'x',
        passed: true,
        timestamp: T0,
      },
    ],
  })),
  ListTestMeasurements: shows(() => ({ pageSize: 1000 })),
  CountTestMeasurements: shows((s) => ({ filter: `test_report_id == "${s.testReportId}"` })),
  UpdateTestMeasurement: refused((s) => ({ testMeasurement: { measurementId: s.measurementId, name: 'peek' }, updateMask: 'name' })),
  DeleteTestMeasurement: refused((s) => ({ measurementId: s.measurementId })),

  UploadRemoteFile: noRecord('stores only the file Alice uploads', () => ({
    entityId: benchId(),
    entityType: 'ENTITY_TYPE_ASSET',
    file: file(),
  })),
  GetRemoteFile: shows((s) => ({ remoteFileId: s.remoteFileId })),
  CreateRemoteFile: noRecord('shows only the file record Alice creates', () => ({
    fileName: 'alice.bin',
    entityId: benchId(),
    entityType: 'ENTITY_TYPE_ASSET',
    fileMimeType: 'application/octet-stream',
    fileSize: '1',
  })),
  ListRemoteFiles: shows(() => ({ pageSize: 1000 })),
  UpdateRemoteFile: refused((s) => ({ remoteFile: { remoteFileId: s.remoteFileId, description: 'peek' }, updateMask: 'description' })),
  DeleteRemoteFile: refused((s) => ({ remoteFileId: s.remoteFileId })),
  BatchDeleteRemoteFiles: refused((s) => ({ remoteFileIds: [s.remoteFileId] })),
  GetRemoteFileDownloadUrl: refused((s) => ({ remoteFileId: s.remoteFileId })),

  ListArtifacts: shows(() => ({ pageSize: 1000 })),
  UploadArtifact: noRecord('stores only the artifact Alice uploads', () => ({ file: file(), title: 'alice artifact' })),
  CreateStructuredArtifact: noRecord('shows only the artifact Alice creates', () => ({ title: 'alice doc', content: { a: 1 } })),
  GetArtifact: shows((s) => ({ artifactId: s.artifactId })),
  DownloadArtifactContent: shows((s) => ({ artifactId: s.artifactId })),
  CreateArtifactVersion: refused((s) => ({ artifactId: s.artifactId, file: file() })),
  ListArtifactVersions: shows((s) => ({ artifactId: s.artifactId })),
  LinkArtifact: refused((s) => ({
    artifactId: s.artifactId,
    relation: 'ARTIFACT_LINK_RELATION_ATTACHED_TO',
    entityType: 'ARTIFACT_ENTITY_TYPE_ASSET',
    entityId: benchId(),
  })),
  UnlinkArtifact: refused((s) => ({
    artifactId: s.artifactId,
    relation: 'ARTIFACT_LINK_RELATION_ATTACHED_TO',
    entityType: 'ARTIFACT_ENTITY_TYPE_ASSET',
    entityId: benchId(),
  })),
  ArchiveArtifact: refused((s) => ({ artifactId: s.artifactId })),
  UnarchiveArtifact: refused((s) => ({ artifactId: s.artifactId })),

  GetExternalSync: noRecord('the organization’s external sync settings: no record'),
  GenerateToken: noRecord('a new token: no record'),
  ListExternalSyncTokens: noRecord('tokens are not records a policy decides'),

  GetSyncStatus: owner,
  ListSyncConflicts: owner,
  UndoSyncConflict: owner,
  DismissSyncConflict: owner,
  ListSyncOutbox: owner,
  RetrySyncEntry: owner,
  DismissSyncEntry: owner,
  GetSyncRemote: owner,
  TestSyncRemote: owner,
  ConfigureSyncRemote: owner,
  DeleteSyncRemote: owner,
  SyncNow: owner,
  GetPreLinkRecords: owner,
  AdoptPreLinkRecords: owner,
};

interface Answer {
  status: number;
  text: string;
}

async function call(name: OperationName, request: Request, token: string): Promise<Answer> {
  const op = operations[name];
  const http = httpRequestOf(server.url, op, request, token);
  const body = http.form ? formDataOf(name, http.form) : http.json;
  const res = await fetch(http.url, { method: http.method, headers: http.headers, body });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, text: new TextDecoder().decode(bytes) };
}

const ok = async (name: OperationName, request: Request, token = bob) => {
  const a = await call(name, request, token);
  expect(a.status, `${name}: ${a.text}`).toBe(200);
  return JSON.parse(a.text) as any;
};

async function createSecrets(): Promise<Secrets> {
  const secretAttribute = (type: string, id: string) => setResourceAttribute(server.engine.db, type, id, 'secret', 'yes');
  const { annotation } = await ok('CreateAnnotation', {
    name: `${MARK} annotation`,
    description: `${MARK} description`,
    startTime: T0,
    endTime: T1,
    assets: ['bench-1'],
    tags: ['secret'],
  });
  const { annotationLog } = await ok('CreateAnnotationLog', {
    annotationId: annotation.annotationId,
    kind: 'ANNOTATION_LOG_KIND_COMMENT',
    comment: { body: [{ type: 'ANNOTATION_COMMENT_BODY_ELEMENT_TYPE_TEXT', text: `${MARK} comment` }] },
  });
  const { asset } = await ok('CreateAsset', { name: `${MARK}-rig` });
  secretAttribute('Asset', asset.assetId);
  const { run } = await ok('CreateRun', { name: `${MARK} run` });
  secretAttribute('Run', run.runId);
  const { channel } = await ok('CreateChannel', { assetId: benchId(), name: `${MARK}.channel` });
  secretAttribute('Channel', channel.channelId);
  const { savedSearch } = await ok('CreateSavedSearch', {
    name: `${MARK} search`,
    properties: { overviewMode: 'OVERVIEW_MODE_ANNOTATIONS' },
  });
  secretAttribute('SavedSearch', savedSearch.savedSearchId);
  const ruleClientKey = `${MARK}-key`;
  const { ruleId } = await ok('CreateRule', { update: { name: `${MARK} rule`, assetId: benchId(), clientKey: ruleClientKey } });
  secretAttribute('Rule', ruleId);
  const { ruleVersions } = await ok('ListRuleVersions', { ruleId });
  const { policy } = await ok(
    'CreatePolicy',
    { name: `${MARK} policy`, configuration: { cedarPolicy: 'forbid(principal, action, resource) when { false };' } },
    server.token,
  );
  // (Policies are the owner's to make here; Bob is their creator for this probe.)
  server.engine.db.run('UPDATE policies SET created_by_user_id = (SELECT created_by_user_id FROM annotations WHERE id = ?) WHERE id = ?', [
    annotation.annotationId,
    policy.policyId,
  ]);
  secretAttribute('Policy', policy.policyId);
  const { testReport } = await ok('CreateTestReport', {
    status: 'TEST_STATUS_PASSED',
    name: `${MARK} report`,
    testSystemName: 'rig',
    testCase: 'case',
    startTime: T0,
    endTime: T1,
  });
  secretAttribute('TestReport', testReport.testReportId);
  const { testStep } = await ok('CreateTestStep', {
    testStep: {
      testReportId: testReport.testReportId,
      name: `${MARK} step`,
      stepType: 'TEST_STEP_TYPE_ACTION',
      stepPath: '1',
      status: 'TEST_STATUS_PASSED',
      startTime: T0,
      endTime: T1,
    },
  });
  const { testMeasurement } = await ok('CreateTestMeasurement', {
    testMeasurement: {
      testStepId: testStep.testStepId,
      testReportId: testReport.testReportId,
      name: `${MARK} measurement`,
      measurementType: 'TEST_MEASUREMENT_TYPE_STRING',
      stringValue: MARK,
      passed: true,
      timestamp: T0,
    },
  });
  const { remoteFile } = await ok('UploadRemoteFile', {
    entityId: benchId(),
    entityType: 'ENTITY_TYPE_ASSET',
    description: `${MARK} file`,
    file: new File([new TextEncoder().encode(`${MARK} bytes`)], `${MARK}.txt`, { type: 'text/plain' }),
  });
  secretAttribute('RemoteFile', remoteFile.remoteFileId);
  const { artifact } = await ok('UploadArtifact', {
    title: `${MARK} artifact`,
    file: new File([new TextEncoder().encode(`${MARK} artifact bytes`)], `${MARK}.txt`, { type: 'text/plain' }),
  });
  secretAttribute('Artifact', artifact.artifactId);
  return {
    annotationId: annotation.annotationId,
    annotationLogId: annotationLog.annotationLogId,
    assetId: asset.assetId,
    runId: run.runId,
    channelId: channel.channelId,
    savedSearchId: savedSearch.savedSearchId,
    ruleId,
    ruleClientKey,
    ruleVersionId: ruleVersions[0].ruleVersionId,
    policyId: policy.policyId,
    testReportId: testReport.testReportId,
    testStepId: testStep.testStepId,
    measurementId: testMeasurement.measurementId,
    remoteFileId: remoteFile.remoteFileId,
    artifactId: artifact.artifactId,
  };
}

/** Everything Bob reads of his hidden records: unchanged after all of Alice's calls. */
async function snapshot(): Promise<string[]> {
  return Promise.all([
    call('GetAnnotation', { annotationId: s.annotationId }, bob),
    call('ListAnnotationLogs', { annotationId: s.annotationId }, bob),
    call('GetAsset', { assetId: s.assetId }, bob),
    call('GetRun', { runId: s.runId }, bob),
    call('GetChannel', { channelId: s.channelId }, bob),
    call('GetSavedSearch', { savedSearchId: s.savedSearchId }, bob),
    call('ListRuleVersions', { ruleId: s.ruleId }, bob),
    call('GetPolicy', { policyId: s.policyId }, bob),
    call('GetTestReport', { testReportId: s.testReportId }, bob),
    call('ListTestSteps', { filter: `test_report_id == "${s.testReportId}"` }, bob),
    call('ListTestMeasurements', { filter: `test_report_id == "${s.testReportId}"` }, bob),
    call('GetRemoteFile', { remoteFileId: s.remoteFileId }, bob),
    call('ListArtifactVersions', { artifactId: s.artifactId }, bob),
  ]).then((all) => all.map((a) => `${a.status} ${a.text}`));
}

const secretIds = () => Object.values(s);
let before: string[];

beforeAll(async () => {
  server = await startTestServer();
  bob = server.newToken('bob@outpost.local');
  alice = server.newToken('alice@outpost.local');
  bench = (await ok('CreateAsset', { name: 'bench-1' })).asset.assetId;
  s = await createSecrets();
  for (const text of READ_FORBIDS)
    await ok('CreatePolicy', { name: `read-forbid ${READ_FORBIDS.indexOf(text)}`, configuration: { cedarPolicy: text } }, server.token);
  before = await snapshot();
});
afterAll(async () => server?.close());

describe('every operation decides reads through the policies', () => {
  test('every operation of the contract is classified here (a new one must join)', () => {
    const unclassified = Object.keys(operations).filter((n) => !(n in PROBES));
    expect(unclassified).toEqual([]);
  });

  test.each(Object.keys(PROBES) as OperationName[])('%s', async (name) => {
    const probe = PROBES[name];
    expect(operations[name], `${name} is not an operation any more`).toBeDefined();
    switch (probe.kind) {
      case 'public':
        expect('public' in operations[name] && operations[name].public, `${name} is not public`).toBe(true);
        return;
      case 'owner': {
        expect(operations[name].path.startsWith('/api/v1/outpost/sync')).toBe(true);
        const ids = Object.fromEntries(
          [...operations[name].path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1].replace(/_(\w)/g, (_x, c: string) => c.toUpperCase()), '1']),
        );
        const a = await call(name, ids, alice);
        expect(a.status, `${name}: ${a.text}`).toBe(403);
        expect(JSON.parse(a.text)).toMatchObject({ code: 7 });
        expect(a.text).toContain('owner');
        return;
      }
      case 'noRecord': {
        const a = await call(name, probe.request(s), alice);
        expect(a.status, `${name}: ${a.text}`).toBeLessThan(500);
        expect(a.text).not.toContain(MARK);
        return;
      }
      case 'refused': {
        const a = await call(name, probe.request(s), alice);
        expect(a.status, `${name}: ${a.text}`).toBe(403);
        expect(a.text).not.toContain(MARK);
        return;
      }
      case 'shows': {
        const request = probe.request(s);
        const a = await call(name, request, alice);
        expect([200, 403, 404], `${name}: ${a.status} ${a.text}`).toContain(a.status);
        expect(a.text, name).not.toContain(MARK);
        if (a.status === 200) for (const id of secretIds()) expect(a.text, `${name} shows ${id}`).not.toContain(id);
        // Bob (the creator) reads the same: the probe reaches the hidden record.
        const b = await call(name, request, bob);
        expect(b.status, `${name} as Bob: ${b.text}`).toBe(200);
        if (name.startsWith('Count')) expect(JSON.parse(b.text).count).not.toBe(JSON.parse(a.text).count);
        else expect(b.text, `${name} as Bob`).toMatch(new RegExp(`${MARK}|${secretIds().join('|')}`));
        return;
      }
    }
  });

  test('the issue’s side door: GET /annotation-logs, filtered to the hidden annotation or paged one log at a time, shows none of its logs', async () => {
    const filtered = await call('ListAllAnnotationLogs', { filter: `annotation_id == "${s.annotationId}"` }, alice);
    expect(filtered.status, filtered.text).toBe(200);
    expect(JSON.parse(filtered.text).annotationLogs).toEqual([]);
    expect(
      JSON.parse((await call('ListAllAnnotationLogs', { filter: `annotation_id == "${s.annotationId}"` }, bob)).text).annotationLogs,
    ).not.toEqual([]);
    const seen: string[] = [];
    let pageToken = '';
    do {
      const page = await call('ListAllAnnotationLogs', { pageSize: 1, pageToken }, alice);
      expect(page.status, page.text).toBe(200);
      expect(page.text).not.toContain(MARK);
      const body = JSON.parse(page.text);
      seen.push(...body.annotationLogs.map((l: { annotationId: string }) => l.annotationId));
      pageToken = body.nextPageToken;
    } while (pageToken);
    expect(seen.length).toBeGreaterThan(0); // Alice's own logs (her annotations' creation) are there
    expect(seen).not.toContain(s.annotationId);
  });

  test('Alice’s calls changed nothing of the hidden records', async () => {
    expect(await snapshot()).toEqual(before);
  });
});
