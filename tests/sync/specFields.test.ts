// Spec fields returned, and kept when a remote sends them (#15 item 3):
// TestReport.overallModifiedDate, ExternalSync.realm/client, and on every
// metadata entry MetadataValue.archivedDate/isArchived and
// MetadataKey.archivedDate/isArchived/filterFieldType, emitted as the gateway
// emits unset values (reference §1.4: a plain Timestamp is null, a bool false,
// an enum its zero name; strings "").
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { annotationRequest, closeProxiedPair, openProxiedPair, type ProxiedPair } from './helpers';

let pair: ProxiedPair;
beforeEach(async () => (pair = await openProxiedPair()));
afterEach(() => closeProxiedPair(pair));

const T0 = '2026-09-01T00:00:00Z';
const T1 = '2026-09-01T00:01:00Z';
const ARCHIVED = '2026-10-01T08:00:00.250Z';

describe('spec fields', () => {
  test('unset: metadata archive fields, the derived filter field type, realm and client come as the gateway emits them', async () => {
    const { remote } = pair;
    const { annotation } = await remote.client.CreateAnnotation(
      annotationRequest('m', {
        metadata: [
          { key: { name: 'rig', type: 'METADATA_KEY_TYPE_STRING' }, stringValue: 'R1' },
          { key: { name: 'gain' }, numberValue: 2 },
          { key: { name: 'ok' }, booleanValue: true },
        ],
      }),
    );
    expect(annotation.metadata).toEqual([
      {
        key: {
          name: 'rig',
          type: 'METADATA_KEY_TYPE_STRING',
          archivedDate: null,
          isArchived: false,
          filterFieldType: 'FILTER_FIELD_TYPE_STRING',
        },
        stringValue: 'R1',
        archivedDate: null,
        isArchived: false,
      },
      {
        key: {
          name: 'gain',
          type: 'METADATA_KEY_TYPE_NUMBER',
          archivedDate: null,
          isArchived: false,
          filterFieldType: 'FILTER_FIELD_TYPE_DOUBLE',
        },
        numberValue: 2,
        archivedDate: null,
        isArchived: false,
      },
      {
        key: {
          name: 'ok',
          type: 'METADATA_KEY_TYPE_BOOLEAN',
          archivedDate: null,
          isArchived: false,
          filterFieldType: 'FILTER_FIELD_TYPE_BOOL',
        },
        booleanValue: true,
        archivedDate: null,
        isArchived: false,
      },
    ]);
    const { status, body } = await remote.api('GET', '/api/v1/external-sync');
    expect(status).toBe(200);
    expect(body.externalSync).toMatchObject({ realm: '', client: '' });
  });

  test("a test report's overall modified date follows its steps and measurements, and a remote's is kept through sync", async () => {
    const { remote, a } = pair;
    const { testReport } = await remote.client.CreateTestReport({
      status: 'TEST_STATUS_PASSED',
      name: 'r',
      testSystemName: 's',
      testCase: 'c',
      startTime: T0,
      endTime: T1,
    } as never);
    const created = Date.parse(testReport.overallModifiedDate);
    await new Promise((r) => setTimeout(r, 5));
    const { testStep } = await remote.client.CreateTestStep({
      testStep: {
        testReportId: testReport.testReportId,
        name: 'p',
        stepType: 'TEST_STEP_TYPE_ACTION',
        stepPath: '1',
        status: 'TEST_STATUS_PASSED',
        startTime: T0,
        endTime: T1,
      },
    } as never);
    await new Promise((r) => setTimeout(r, 5));
    await remote.client.CreateTestMeasurement({
      testMeasurement: {
        testStepId: testStep.testStepId,
        name: 'v',
        measurementType: 'TEST_MEASUREMENT_TYPE_DOUBLE',
        numericValue: 1,
        passed: true,
        timestamp: T0,
      },
    } as never);
    const there = (await remote.client.GetTestReport({ testReportId: testReport.testReportId })).testReport;
    expect(Date.parse(there.overallModifiedDate)).toBeGreaterThan(created);

    // Pulled with its step and measurement: the replica returns the remote's value, not when it arrived here.
    await a.sync();
    const here = (await a.call('GetTestReport', { testReportId: testReport.testReportId })).testReport;
    expect(here.overallModifiedDate).toBe(there.overallModifiedDate);

    // An edit here is the latest modification until the remote's value comes back with it.
    await new Promise((r) => setTimeout(r, 5));
    await a.call('DeleteTestStep', { testStepId: testStep.testStepId });
    const edited = (await a.call('GetTestReport', { testReportId: testReport.testReportId })).testReport.overallModifiedDate;
    expect(Date.parse(edited)).toBeGreaterThan(Date.parse(there.overallModifiedDate));
    await a.sync();
    const after = (await remote.client.GetTestReport({ testReportId: testReport.testReportId })).testReport;
    expect(Date.parse(after.overallModifiedDate)).toBeGreaterThan(Date.parse(there.overallModifiedDate));
    await a.sync();
    expect((await a.call('GetTestReport', { testReportId: testReport.testReportId })).testReport.overallModifiedDate).toBe(
      after.overallModifiedDate,
    );
  });

  test('archived metadata values and keys a remote sends are stored and returned, through the pull of every resource kind that carries them', async () => {
    const { remote, a } = pair;
    const archivedEntry = {
      key: {
        name: 'legacy',
        type: 'METADATA_KEY_TYPE_STRING',
        archivedDate: ARCHIVED,
        isArchived: true,
        filterFieldType: 'FILTER_FIELD_TYPE_STRING',
      },
      stringValue: 'old rig',
      archivedDate: ARCHIVED,
      isArchived: true,
    };
    const { annotation } = await remote.client.CreateAnnotation(annotationRequest('with archived metadata', { metadata: [archivedEntry] }));
    expect(annotation.metadata).toEqual([archivedEntry]);
    const { testReport } = await remote.client.CreateTestReport({
      status: 'TEST_STATUS_PASSED',
      name: 'r',
      testSystemName: 's',
      testCase: 'c',
      startTime: T0,
      endTime: T1,
      metadata: [archivedEntry],
    } as never);
    expect(testReport.metadata).toEqual([archivedEntry]);

    const s = await a.sync();
    expect(s.ok).toBe(true);
    expect((await a.call('GetAnnotation', { annotationId: annotation.annotationId })).annotation.metadata).toEqual([archivedEntry]);
    expect((await a.call('GetTestReport', { testReportId: testReport.testReportId })).testReport.metadata).toEqual([archivedEntry]);

    // Unarchived there: the change arrives (the entry is not dropped or frozen).
    const live = { ...archivedEntry, archivedDate: null, isArchived: false };
    await remote.client.UpdateAnnotation({
      annotation: { annotationId: annotation.annotationId, metadata: [{ ...live, archivedDate: undefined }] },
      updateMask: 'metadata',
    } as never);
    await a.sync();
    expect((await a.call('GetAnnotation', { annotationId: annotation.annotationId })).annotation.metadata).toEqual([
      { ...live, key: archivedEntry.key },
    ]);
  });
});
