// What a sync reports as pulled (the Sync view's "received …", the CLI's
// "pulled: …") counts records that arrived or changed here: a run that finds
// nothing new on the remote reports nothing, although full lists are read
// again and incremental lists re-read their overlap window.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { onRemote } from './artifactKit';
import { isWrite, type FaultProxy } from './faultProxy';
import { annotationRequest, closeProxiedPair, comment, openProxiedPair, type RemoteServer, type Replica } from './helpers';

let remote: RemoteServer;
let proxy: FaultProxy;
let a: Replica;

beforeEach(async () => ({ remote, proxy, a } = await openProxiedPair({ colleagues: ['colleague@outpost.local'], synced: false })));
afterEach(() => closeProxiedPair({ remote, proxy, a }));

const RIG = '5a5a5a5a-0000-4000-a000-000000000001';
const team = (value: string) => [{ key: { name: 'team', type: 'METADATA_KEY_TYPE_STRING' }, stringValue: value }];

/** One record (at least) of every pulled resource on the remote, children included. */
async function seedRemote(): Promise<{ renamed: string; commented: string }> {
  const c = remote.client;
  await c.CreateTag({ name: 'hot-fire' });
  await c.CreateAsset({ name: 'Sync-Rig-2', tags: ['hot-fire'], metadata: team('propulsion') });
  await c.CreateRun({ name: 'run 1', description: 'first', tags: ['hot-fire'], metadata: team('propulsion') });
  await c.CreateChannel({ assetId: RIG, name: 'chamber.pressure', description: 'psi' });
  const { annotation: x } = await c.CreateAnnotation(annotationRequest('x', { tags: ['hot-fire'], metadata: team('propulsion') }));
  const { annotation: y } = await c.CreateAnnotation(annotationRequest('y'));
  await c.CreateAnnotationLog(comment(x.annotationId, 'first look'));
  await c.CreateSavedSearch({
    name: 'mine',
    properties: { overviewMode: 'OVERVIEW_MODE_ANNOTATIONS', assetItems: [{ id: RIG, name: 'Sync-Rig-1' }] },
  });
  await c.CreatePolicy({ name: 'open', configuration: { cedarPolicy: 'permit(principal, action, resource);' } });
  await c.CreateRule({
    update: {
      name: 'Overpressure',
      description: 'too high',
      assetConfiguration: { assetIds: [RIG], tagIds: ['tag-a'] },
      metadata: team('propulsion'),
      contextualChannels: { channels: [{ name: 'chamber.temp' }] },
      conditions: [
        {
          expression: { singleChannelComparison: { channelName: 'chamber.pressure', comparator: 'GREATER_THAN', double: 10 } },
          actions: [
            {
              actionType: 'ANNOTATION',
              configuration: { annotation: { tagIds: ['overpressure'], annotationType: 'ANNOTATION_TYPE_DATA_REVIEW' } },
            },
          ],
        },
      ],
    },
  });
  const report = await remote.api('POST', '/api/v1/test-reports', {
    status: 'TEST_STATUS_PASSED',
    name: 'remote report',
    testSystemName: 'rig',
    testCase: 'case',
    startTime: '2026-09-01T00:00:00Z',
    endTime: '2026-09-01T00:01:00Z',
    metadata: team('propulsion'),
  });
  expect(report.status).toBe(200);
  const testReportId = report.body.testReport.testReportId as string;
  const { testStep } = await c.CreateTestStep({
    testStep: {
      testReportId,
      name: 'step',
      stepType: 'TEST_STEP_TYPE_ACTION',
      stepPath: '1',
      status: 'TEST_STATUS_PASSED',
      startTime: '2026-09-01T00:00:00Z',
      endTime: '2026-09-01T00:00:01Z',
    },
  });
  await c.CreateTestMeasurement({
    testMeasurement: {
      testStepId: testStep.testStepId,
      testReportId,
      name: 'voltage',
      measurementType: 'TEST_MEASUREMENT_TYPE_DOUBLE',
      numericValue: 4.5,
      passed: true,
      timestamp: '2026-09-01T00:00:00.5Z',
      channelNames: ['bus.voltage'],
    },
  });
  const { artifact } = await onRemote(remote.engine, 'CreateStructuredArtifact', {
    title: 'limits',
    content: { max: 9 },
    metadata: team('propulsion'),
  });
  await onRemote(remote.engine, 'LinkArtifact', {
    artifactId: artifact.artifactId,
    relation: 'ARTIFACT_LINK_RELATION_ATTACHED_TO',
    entityType: 'ARTIFACT_ENTITY_TYPE_ANNOTATION',
    entityId: x.annotationId,
  });
  return { renamed: x.annotationId, commented: y.annotationId };
}

const EVERY_RESOURCE = [
  'users',
  'tags',
  'assets',
  'runs',
  'channels',
  'annotations',
  'annotation_logs',
  'saved_searches',
  'policies',
  'rules',
  'test_reports',
  'test_steps',
  'test_measurements',
  'artifacts',
];

describe('sync: pulled counts', () => {
  test('count what arrived or changed: nothing on a run with nothing new, exactly the changes after remote edits', async () => {
    const { renamed, commented } = await seedRemote();

    const first = await a.sync();
    expect(first.error).toBeUndefined();
    // The seed reached every puller (so the next run re-reads something of each).
    for (const resource of EVERY_RESOURCE) expect(first.progress.pulled[resource] ?? 0, resource).toBeGreaterThan(0);

    // Nothing changed remotely: users and saved searches and test reports are read in full again, the
    // incremental lists re-read their 30 s overlap window (everything here), and none of it counts.
    const second = await a.sync();
    expect(second.error).toBeUndefined();
    expect(second.progress.pulled).toEqual({});

    // One annotation renamed, one comment (on another annotation), one tag.
    await remote.client.UpdateAnnotation({ annotation: { annotationId: renamed, name: 'x, renamed' }, updateMask: 'name' });
    await remote.client.CreateAnnotationLog(comment(commented, 'second look'));
    await remote.client.CreateTag({ name: 'cold-flow' });
    const third = await a.sync();
    expect(third.error).toBeUndefined();
    expect(third.progress.pulled).toEqual({ annotations: 1, annotation_logs: 1, tags: 1 });
    expect(a.engine.db.get<{ name: string }>('SELECT name FROM annotations WHERE id = ?', [renamed])?.name).toBe('x, renamed');

    // And the run after that finds nothing new again.
    expect((await a.sync()).progress.pulled).toEqual({});
  });

  test('a record with pending local edits, re-read while the remote is unchanged, counts nothing (the merge writes nothing)', async () => {
    const { annotation } = await remote.client.CreateAnnotation(annotationRequest('shared'));
    const { policy } = await remote.client.CreatePolicy({
      name: 'open',
      configuration: { cedarPolicy: 'permit(principal, action, resource);' },
    });
    const { savedSearch } = await remote.client.CreateSavedSearch({
      name: 'mine',
      properties: { overviewMode: 'OVERVIEW_MODE_ANNOTATIONS' },
    });
    expect((await a.sync()).error).toBeUndefined();

    await a.call('UpdateAnnotation', {
      annotation: { annotationId: annotation.annotationId, description: 'local' },
      updateMask: 'description',
    });
    await a.call('UpdatePolicy', { policy: { policyId: policy.policyId, description: 'local' }, updateMask: 'description' });
    await a.call('UpdateSavedSearch', {
      savedSearch: { savedSearchId: savedSearch.savedSearchId, name: 'mine, renamed' },
      updateMask: 'name',
    });
    // Every write fails (500): the edits stay pending through the run's pulls, which merge each re-read record.
    proxy.random({ rate: 1, kinds: ['status'], when: isWrite, random: () => 0 });
    const held = await a.sync();
    expect(held.ok).toBe(false);
    expect(held.pending).toBe(3);
    expect(held.progress.pulled).toEqual({});

    // A remote change to such a record is merged and counts once.
    await remote.client.UpdateAnnotation({
      annotation: { annotationId: annotation.annotationId, name: 'shared, renamed' },
      updateMask: 'name',
    });
    const merged = await a.sync();
    expect(merged.pending).toBe(3);
    expect(merged.progress.pulled).toEqual({ annotations: 1 });
    expect(a.engine.db.get('SELECT name, description FROM annotations WHERE id = ?', [annotation.annotationId])).toEqual({
      name: 'shared, renamed',
      description: 'local',
    });
    expect((await a.sync()).progress.pulled).toEqual({});

    proxy.random(undefined);
    const sent = await a.sync();
    expect(sent.ok).toBe(true);
    expect(sent.pending).toBe(0);
  });

  test("our own pushed edits, coming back with the server's dates, are sent but not received", async () => {
    const { annotation } = await remote.client.CreateAnnotation(annotationRequest('reviewed offline'));
    const { policy } = await remote.client.CreatePolicy({
      name: 'open',
      configuration: { cedarPolicy: 'permit(principal, action, resource);' },
    });
    const { savedSearch } = await remote.client.CreateSavedSearch({
      name: 'mine',
      properties: { overviewMode: 'OVERVIEW_MODE_ANNOTATIONS' },
    });
    expect((await a.sync()).error).toBeUndefined();
    await a.call('UpdateAnnotation', {
      annotation: { annotationId: annotation.annotationId, description: 'checked in the field' },
      updateMask: 'description',
    });
    await a.call('ArchiveAnnotation', { annotationId: annotation.annotationId });
    await a.call('UpdatePolicy', { policy: { policyId: policy.policyId, description: 'reviewed' }, updateMask: 'description' });
    await a.call('UpdateSavedSearch', {
      savedSearch: { savedSearchId: savedSearch.savedSearchId, name: 'mine, renamed' },
      updateMask: 'name',
    });
    const s = await a.sync();
    expect(s.ok).toBe(true);
    expect(s.progress.pushed).toBe(4);
    // The pull after the push took the remote's versions (their dates) without counting them as news.
    const dates = (db: typeof a.engine.db) => [
      db.get('SELECT modified_date, archived_date FROM annotations WHERE id = ?', [annotation.annotationId]),
      db.get('SELECT modified_date FROM policies WHERE id = ?', [policy.policyId]),
      db.get('SELECT modified_date FROM saved_searches WHERE id = ?', [savedSearch.savedSearchId]),
    ];
    expect(dates(a.engine.db)).toEqual(dates(remote.engine.db));
    expect(s.progress.pulled).toEqual({});

    // A remote save that changed no synced field (only its dates) is taken, and is no news either.
    const later = Date.now() * 1000;
    for (const [table, id] of [
      ['annotations', annotation.annotationId],
      ['policies', policy.policyId],
      ['saved_searches', savedSearch.savedSearchId],
    ]) {
      remote.engine.db.run(`UPDATE ${table} SET modified_date = ? WHERE id = ?`, [later, id]);
    }
    const resaved = await a.sync();
    expect(dates(a.engine.db)).toEqual(dates(remote.engine.db));
    expect(resaved.progress.pulled).toEqual({});
  });
});
