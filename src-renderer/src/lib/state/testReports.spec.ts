import { describe, expect, test } from 'vitest';
import { ApiError } from '../../../../src-shared/errors';
import { deferred, fakeClient } from '../testing/fakeClient';
import { measurement, testReport, testStep } from '../testing/moreFactories';
import { TestReportWorkspace } from './testReports.svelte';

describe('TestReportWorkspace', () => {
  test('select builds the step tree; selectStep lists its measurements; toggle collapses', async () => {
    const report = testReport();
    const root = testStep({ testStepId: 'root', stepPath: '1' });
    const child = testStep({ testStepId: 'child', parentStepId: 'root', stepPath: '1.1' });
    const m = measurement({ testStepId: 'child', numericValue: 3 });
    const fake = fakeClient()
      .on('ListTestReports', () => ({ testReports: [report], nextPageToken: '' }))
      .on('ListTestSteps', () => ({ testSteps: [root, child], nextPageToken: '' }))
      .on('ListTestMeasurements', () => ({ testMeasurements: [m], nextPageToken: '' }));
    const ws = new TestReportWorkspace(fake.client);
    await ws.load();
    await ws.select(ws.list.items[0]);
    expect(ws.stepCount).toBe(2);
    expect(ws.rows.map((n) => n.step.testStepId)).toEqual(['root', 'child']);
    ws.toggle('root');
    expect(ws.rows.map((n) => n.step.testStepId)).toEqual(['root']);
    ws.toggle('root');
    await ws.selectStep('child');
    expect(ws.measurements).toEqual([m]);
  });

  test('a slow earlier load never overwrites a later one', async () => {
    const slow = deferred<{ testReports: ReturnType<typeof testReport>[]; nextPageToken: string }>();
    const fresh = testReport({ name: 'fresh' });
    let calls = 0;
    const fake = fakeClient().on('ListTestReports', () => (++calls === 1 ? slow.promise : { testReports: [fresh], nextPageToken: '' }));
    const ws = new TestReportWorkspace(fake.client);
    const first = ws.load();
    await ws.load();
    slow.resolve({ testReports: [testReport({ name: 'stale' })], nextPageToken: 'more' });
    await first;
    expect(ws.list.items.map((r) => r.name)).toEqual(['fresh']);
    expect(ws.list.hasMore).toBe(false);
    expect(ws.list.loading).toBe(false);
  });

  test('errors are kept per part', async () => {
    const fake = fakeClient()
      .on('ListTestReports', () => ({ testReports: [testReport()], nextPageToken: '' }))
      .on('ListTestSteps', () => {
        throw ApiError.invalid('filter', "undeclared reference to 'test_report_id'");
      });
    const ws = new TestReportWorkspace(fake.client);
    await ws.load();
    await ws.select(ws.list.items[0]);
    expect(ws.stepsError).toMatchObject({ code: 'INVALID_ARGUMENT', message: "filter: undeclared reference to 'test_report_id'" });
    expect(ws.list.error).toBeUndefined();
    await ws.selectStep('s');
    expect(ws.measurementsError?.code).toBe('UNIMPLEMENTED'); // the fake has no ListTestMeasurements
  });

  test('steps of a previously selected report are dropped', async () => {
    const [a, b] = [testReport(), testReport()];
    const slow = deferred<unknown>();
    const fake = fakeClient().on('ListTestSteps', (req) =>
      String(req.filter).includes(a.testReportId) ? slow.promise : { testSteps: [testStep({ testStepId: 'b1' })], nextPageToken: '' },
    );
    const ws = new TestReportWorkspace(fake.client);
    const first = ws.select(a);
    await ws.select(b);
    slow.resolve({ testSteps: [testStep({ testStepId: 'a1' })], nextPageToken: '' });
    await first;
    expect(ws.selected).toEqual(b);
    expect(ws.rows.map((n) => n.step.testStepId)).toEqual(['b1']);
  });
});
