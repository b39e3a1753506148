import { describe, expect, test } from 'vitest';
import type { RuleCondition } from './ruleService';
import { annotationsOfRule, conditionText } from './ruleService';

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

  test('the annotations a rule made: the rule_id filter, newest first', () => {
    expect(annotationsOfRule('r-1"x')).toEqual({ filter: 'rule_id == "r-1\\"x"', sort: { field: 'created_date', desc: true } });
  });
});
