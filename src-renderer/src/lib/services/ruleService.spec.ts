import { describe, expect, test } from 'vitest';
import type { RuleCondition } from './ruleService';
import { actionText, conditionText } from './ruleService';

const condition = (expression: object, actions: object[] = []) => ({ expression, actions }) as unknown as RuleCondition;

describe('rule texts', () => {
  test('a single-channel comparison reads as an expression', () => {
    expect(
      conditionText(
        condition({
          singleChannelComparison: { channelComponent: '', channelName: 'chamber.pressure', comparator: 'GREATER_THAN', double: 10 },
        }),
      ),
    ).toBe('chamber.pressure > 10');
    expect(
      conditionText(
        condition({ singleChannelComparison: { channelComponent: '', channelName: 'mode', comparator: 'EQUAL', string: 'abort' } }),
      ),
    ).toBe('mode == "abort"');
  });

  test('a calculated channel shows its expression and references', () => {
    expect(
      conditionText(
        condition({
          calculatedChannel: { expression: '$1 > 3', channelReferences: { $1: { name: 'wheel.speed' } }, functionDependencies: [] },
        }),
      ),
    ).toBe('$1 > 3  ($1 = wheel.speed)');
  });

  test('actions in words', () => {
    const annotate = {
      actionType: 'ANNOTATION',
      configuration: { annotation: { tagIds: ['overpressure'], annotationType: 'ANNOTATION_TYPE_DATA_REVIEW', metadata: [] } },
    };
    expect(actionText(annotate as never)).toBe('Annotate (data review), tags overpressure');
    expect(actionText({ actionType: 'NOTIFICATION', configuration: { notification: { recipientUserIds: ['a', 'b'] } } } as never)).toBe(
      'Notify 2 users',
    );
  });
});
