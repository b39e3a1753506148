import { describe, expect, test } from 'vitest';
import type { Rule, RuleAction, RuleCondition } from '../../../../src-shared/api/rules';
import { actionWords, conditionWords, plainText, scopeWords, thenWords, type RuleNames } from './ruleWords';

const NAMES: Record<string, string> = {
  'u-ana': 'ana.ruiz@outpost.local',
  'u-bo': 'bo.li@outpost.local',
  't-1': 'overpressure',
  't-2': 'leak',
  'a-1': 'Rig 1',
  'a-2': 'Rig 2',
};
const names: RuleNames = { user: (id) => NAMES[id] ?? id, tag: (id) => NAMES[id] ?? id, asset: (id) => NAMES[id] ?? id };

const condition = (expression: object, actions: object[] = []) => ({ expression, actions }) as unknown as RuleCondition;
const action = (configuration: object, actionType = 'ANNOTATION') => ({ actionType, configuration }) as unknown as RuleAction;

describe('a rule in words', () => {
  test('a single-channel comparison: the channel and threshold as code, the comparison in words', () => {
    const c = condition({
      singleChannelComparison: { channelComponent: 'bus', channelName: 'voltage', comparator: 'GREATER_THAN', double: 30 },
    });
    expect(plainText(conditionWords(c))).toBe('When channel `bus.voltage` is greater than `30`');
    const text = condition({
      singleChannelComparison: { channelComponent: '', channelName: 'mode', comparator: 'NOT_EQUAL', string: 'idle' },
    });
    expect(plainText(conditionWords(text))).toBe('When channel `mode` is not `"idle"`');
    const last = condition({ singleChannelComparison: { channelComponent: '', channelName: 'mode', comparator: 'EQUAL', lastValue: {} } });
    expect(plainText(conditionWords(last))).toBe('When channel `mode` is its last value');
  });

  test('a calculated channel: the expression, and what each symbol is', () => {
    const c = condition({
      calculatedChannel: {
        expression: '$1 > 30 && $2 < 1',
        channelReferences: { $1: { name: 'voltage', component: '' }, $2: { name: '', component: '', calculatedChannelVersionId: 'cv-9' } },
        functionDependencies: [],
        calculatedChannelDependencies: [],
      },
    });
    expect(plainText(conditionWords(c))).toBe(
      'When `$1 > 30 && $2 < 1` holds, where `$1` is channel `voltage` and `$2` is calculated channel version `cv-9`',
    );
  });

  test('actions with names, not ids or field names', () => {
    const annotate = action({
      annotation: {
        tagIds: ['t-1', 't-2'],
        annotationType: 'ANNOTATION_TYPE_DATA_REVIEW',
        assignedToUserId: 'u-ana',
        metadata: [
          { key: { name: 'severity', type: 'METADATA_KEY_TYPE_STRING' }, stringValue: 'high', archivedDate: null, isArchived: false },
        ],
      },
    });
    expect(actionWords(annotate, names)).toBe(
      'create an annotation of type Data review, assigned to ana.ruiz@outpost.local, tagged overpressure and leak, with metadata severity = high',
    );
    expect(actionWords(action({ notification: { recipientUserIds: ['u-ana', 'u-bo', 'u-cy'] } }, 'NOTIFICATION'), names)).toBe(
      'notify ana.ruiz@outpost.local, bo.li@outpost.local and u-cy',
    );
    expect(actionWords(action({ webhook: { webhookId: 'wh-1' } }, 'WEBHOOK'), names)).toBe('call webhook wh-1');
    expect(thenWords(condition({}, [annotate, action({ webhook: { webhookId: 'wh-1' } }, 'WEBHOOK')]), names)).toMatch(
      /^then create an annotation .*; and call webhook wh-1$/,
    );
    expect(thenWords(condition({}), names)).toBe('then nothing (no action)');
  });

  test('the assets watched, by name', () => {
    const rule = (assetIds: string[], tagIds: string[], assetId = '') =>
      ({ assetId, assetConfiguration: { assetIds, tagIds } }) as unknown as Rule;
    expect(scopeWords(rule(['a-1', 'a-2'], ['t-1']), names)).toBe('Watches assets Rig 1 and Rig 2, and assets tagged overpressure.');
    expect(scopeWords(rule([], [], 'a-1'), names)).toBe('Watches asset Rig 1.');
    expect(scopeWords(rule([], []), names)).toBe('Watches no asset.');
  });
});
