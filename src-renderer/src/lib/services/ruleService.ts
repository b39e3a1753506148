// Rules, read-only: list (CEL filter), one rule with its conditions and
// actions, its versions with change messages, the rule a condition belongs to
// (an annotation made by a rule names only the condition), and the query of
// the annotations a rule made.
import type { Rule, RuleCondition, RuleVersion } from '../../../../src-shared/api/rules';
import type { Client } from '../../../../src-shared/client';
import { celString } from '../filter/quickFilters';
import { DEFAULT_SORT, type AnnotationQuery } from './annotationService';

export type { Rule, RuleCondition, RuleVersion };

export async function listRules(client: Client, filter: string, pageToken?: string): Promise<{ rules: Rule[]; nextPageToken: string }> {
  const f = filter.trim();
  const res = await client.ListRules({ pageSize: 50, ...(f ? { filter: f } : {}), ...(pageToken ? { pageToken } : {}) });
  return { rules: res.rules, nextPageToken: res.nextPageToken };
}

/** One rule by id (the palette and the address open one that is not listed yet). */
export async function getRule(client: Client, ruleId: string): Promise<Rule> {
  return (await client.GetRule({ ruleId })).rule;
}

export async function listRuleVersions(client: Client, ruleId: string): Promise<RuleVersion[]> {
  return (await client.ListRuleVersions({ ruleId, pageSize: 100 })).ruleVersions;
}

/** The rule holding condition `conditionId` (searched through every rule, up to `limit`). */
export async function ruleOfCondition(client: Client, conditionId: string, limit = 5000): Promise<Rule | undefined> {
  let pageToken: string | undefined;
  let seen = 0;
  do {
    const res = await client.ListRules({ pageSize: 1000, ...(pageToken ? { pageToken } : {}) });
    const hit = res.rules.find((r) =>
      r.conditions.some((c) => c.ruleConditionId === conditionId || c.ruleConditionVersionId === conditionId),
    );
    if (hit) return hit;
    seen += res.rules.length;
    pageToken = res.nextPageToken || undefined;
  } while (pageToken && seen < limit);
  return undefined;
}

const COMPARATORS: Record<string, string> = {
  LESS_THAN: '<',
  LESS_THAN_OR_EQUAL: '<=',
  GREATER_THAN: '>',
  GREATER_THAN_OR_EQUAL: '>=',
  EQUAL: '==',
  NOT_EQUAL: '!=',
};

/** A condition's expression as one line (`chamber.pressure > 10`, or the calculated channel's expression). */
export function conditionText(c: RuleCondition): string {
  const s = c.expression.singleChannelComparison;
  if (s) {
    const value = s.double !== undefined ? String(s.double) : s.string !== undefined ? JSON.stringify(s.string) : 'last value';
    return `${s.channelName} ${COMPARATORS[s.comparator] ?? s.comparator} ${value}`;
  }
  const calc = c.expression.calculatedChannel;
  if (calc) {
    const refs = Object.entries(calc.channelReferences).map(
      ([k, r]) =>
        `${k} = ${(r as { name?: string; calculatedChannelVersionId?: string }).name ?? (r as { calculatedChannelVersionId?: string }).calculatedChannelVersionId ?? '?'}`,
    );
    return `${calc.expression}${refs.length ? `  (${refs.join(', ')})` : ''}`;
  }
  return '(no expression)';
}

/** The annotations list of what a rule's conditions made (the engine's `rule_id` filter field). */
export const annotationsOfRule = (ruleId: string): AnnotationQuery => ({ filter: `rule_id == ${celString(ruleId)}`, sort: DEFAULT_SORT });
