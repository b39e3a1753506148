import { describe, expect, test } from 'vitest';
import { fakeClient } from '../testing/fakeClient';
import { measurement, testStep } from '../testing/moreFactories';
import {
  buildStepTree,
  celString,
  innermostFailingSteps,
  listAllSteps,
  listStepMeasurements,
  measurementBounds,
  measurementValue,
  visibleNodes,
} from './testReportService';

describe('testReportService', () => {
  test('celString quotes and escapes', () => {
    expect(celString('abc')).toBe('"abc"');
    expect(celString('a"b\\c')).toBe('"a\\"b\\\\c"');
  });

  test('steps and measurements are listed with a quoted id filter and their natural order', async () => {
    const fake = fakeClient()
      .on('ListTestSteps', () => ({ testSteps: [testStep()], nextPageToken: '' }))
      .on('ListTestMeasurements', () => ({ testMeasurements: [measurement()], nextPageToken: '' }));
    await listAllSteps(fake.client, 'r-1');
    await listStepMeasurements(fake.client, 's-1');
    expect(fake.callsTo('ListTestSteps')).toEqual([{ filter: 'test_report_id == "r-1"', orderBy: 'step_path', pageSize: 1000 }]);
    expect(fake.callsTo('ListTestMeasurements')).toEqual([{ filter: 'test_step_id == "s-1"', orderBy: 'timestamp', pageSize: 1000 }]);
  });

  test('the steps where a report failed: failing ones with no failing step inside, in order', () => {
    const root = testStep({ testStepId: 'a', stepPath: '1', status: 'TEST_STATUS_FAILED' });
    const group = testStep({ testStepId: 'b', parentStepId: 'a', stepPath: '1.1', status: 'TEST_STATUS_FAILED' });
    const leaf = testStep({ testStepId: 'c', parentStepId: 'b', stepPath: '1.1.1', status: 'TEST_STATUS_ERROR' });
    const passed = testStep({ testStepId: 'd', parentStepId: 'a', stepPath: '1.2' });
    const aborted = testStep({ testStepId: 'e', parentStepId: 'a', stepPath: '1.3', status: 'TEST_STATUS_ABORTED' });
    const skipped = testStep({ testStepId: 'f', parentStepId: 'a', stepPath: '1.4', status: 'TEST_STATUS_SKIPPED' });
    expect(innermostFailingSteps([root, group, leaf, passed, aborted, skipped]).map((s) => s.testStepId)).toEqual(['c', 'e']);
    expect(innermostFailingSteps([passed, skipped])).toEqual([]);
  });

  test('buildStepTree nests by parent, keeps order, and treats orphans as roots', () => {
    const seq = testStep({ testStepId: 'a', stepPath: '1' });
    const g = testStep({ testStepId: 'b', parentStepId: 'a', stepPath: '1.1' });
    const leaf = testStep({ testStepId: 'c', parentStepId: 'b', stepPath: '1.1.1' });
    const leaf2 = testStep({ testStepId: 'd', parentStepId: 'a', stepPath: '1.2' });
    const orphan = testStep({ testStepId: 'e', parentStepId: 'missing', stepPath: '9' });
    const tree = buildStepTree([seq, g, leaf, leaf2, orphan]);
    expect(tree.map((n) => n.step.testStepId)).toEqual(['a', 'e']);
    expect(tree[0].children.map((n) => [n.step.testStepId, n.depth])).toEqual([
      ['b', 1],
      ['d', 1],
    ]);
    expect(tree[0].children[0].children[0]).toMatchObject({ depth: 2, step: { testStepId: 'c' } });
    expect(visibleNodes(tree, new Set()).map((n) => n.step.testStepId)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(visibleNodes(tree, new Set(['b'])).map((n) => n.step.testStepId)).toEqual(['a', 'b', 'd', 'e']);
    expect(visibleNodes(tree, new Set(['a'])).map((n) => n.step.testStepId)).toEqual(['a', 'e']);
  });

  test('a step that names itself as parent does not loop', () => {
    const self = testStep({ testStepId: 'x', parentStepId: 'x' });
    expect(buildStepTree([self]).map((n) => n.step.testStepId)).toEqual(['x']);
  });

  test('measurement values and limits', () => {
    expect(measurementValue(measurement({ numericValue: 101.30000001, unit: { unitId: 'kpa', abbreviatedName: 'kPa' } }))).toBe(
      '101.3 kPa',
    );
    expect(measurementValue(measurement({ numericValue: 'NaN' }))).toBe('NaN');
    expect(measurementValue(measurement({ stringValue: 'PASS' }))).toBe('"PASS"');
    expect(measurementValue(measurement({ booleanValue: false }))).toBe('false');
    expect(measurementValue(measurement())).toBe('—');
    expect(measurementBounds(measurement({ numericBounds: { min: 95, max: 105 } }))).toBe('95 ≤ x ≤ 105');
    expect(measurementBounds(measurement({ numericBounds: { min: 3 } }))).toBe('≥ 3');
    expect(measurementBounds(measurement({ numericBounds: { max: '-Infinity' } }))).toBe('≤ -Infinity');
    expect(measurementBounds(measurement({ stringBounds: { expectedValue: 'OK' } }))).toBe('= "OK"');
    expect(measurementBounds(measurement())).toBe('');
  });
});
