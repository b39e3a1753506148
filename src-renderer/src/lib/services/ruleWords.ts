// A rule in words for the rules view: when each condition holds, what its
// actions then do, and which assets it watches, with names in place of the
// ids the wire carries (people, tags, assets). Expressions and channel names
// stay code; the rest reads as a sentence.
import type { Rule, RuleAction, RuleCondition } from '../../../../src-shared/api/rules';
import { enumLabel } from '../format';
import { metadataText } from './annotationEdit';

/** Text, with the parts that are code (channel names, expressions, values) marked. */
export type Words = readonly (string | { readonly code: string })[];

/** Names for the ids a rule holds; each falls back to the id it is given. */
export interface RuleNames {
  user(id: string): string;
  tag(id: string): string;
  asset(id: string): string;
}

const COMPARISONS: Record<string, string> = {
  LESS_THAN: 'is less than',
  LESS_THAN_OR_EQUAL: 'is at most',
  GREATER_THAN: 'is greater than',
  GREATER_THAN_OR_EQUAL: 'is at least',
  EQUAL: 'is',
  NOT_EQUAL: 'is not',
};

/** `a`, `a and b`, `a, b and c`. */
export function listed(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** Words joined with `and` between items (each item being words). */
function listedWords(items: readonly Words[]): Words {
  return items.flatMap((w, i) => (i === 0 ? w : [i === items.length - 1 ? ' and ' : ', ', ...w]));
}

const channelName = (component: string, name: string) => (component ? `${component}.${name}` : name);

/** When a condition holds: `When channel `chamber.pressure` is greater than `10``, or the calculated expression and its channels. */
export function conditionWords(c: RuleCondition): Words {
  const single = c.expression.singleChannelComparison;
  if (single) {
    const compared = COMPARISONS[single.comparator] ?? single.comparator;
    const threshold: Words =
      single.double !== undefined
        ? [{ code: String(single.double) }]
        : single.string !== undefined
          ? [{ code: JSON.stringify(single.string) }]
          : ['its last value'];
    return ['When channel ', { code: channelName(single.channelComponent, single.channelName) }, ` ${compared} `, ...threshold];
  }
  const calculated = c.expression.calculatedChannel;
  if (calculated) {
    const references = Object.entries(calculated.channelReferences).map(([symbol, r]): Words =>
      r.calculatedChannelVersionId
        ? [{ code: symbol }, ' is calculated channel version ', { code: r.calculatedChannelVersionId }]
        : [{ code: symbol }, ' is channel ', { code: channelName(r.component, r.name) }],
    );
    return ['When ', { code: calculated.expression }, ' holds', ...(references.length ? [', where ', ...listedWords(references)] : [])];
  }
  return ['When (no expression)'];
}

/** What an action does then, with names: `create an annotation of type Data review, assigned to Ana, tagged leak`. */
export function actionWords(a: RuleAction, names: RuleNames): string {
  const c = a.configuration;
  if (c.annotation) {
    const parts = [`create an annotation of type ${enumLabel(c.annotation.annotationType, 'ANNOTATION_TYPE_')}`];
    if (c.annotation.assignedToUserId) parts.push(`assigned to ${names.user(c.annotation.assignedToUserId)}`);
    if (c.annotation.tagIds.length) parts.push(`tagged ${listed(c.annotation.tagIds.map((t) => names.tag(t)))}`);
    if (c.annotation.metadata.length)
      parts.push(`with metadata ${listed(c.annotation.metadata.map((m) => `${m.key.name} = ${metadataText(m)}`))}`);
    return parts.join(', ');
  }
  if (c.notification) {
    const people = c.notification.recipientUserIds.map((id) => names.user(id));
    return people.length ? `notify ${listed(people)}` : 'notify no one';
  }
  if (c.webhook) return `call webhook ${c.webhook.webhookId}`;
  return `${enumLabel(a.actionType, '').toLowerCase()} (not configured)`;
}

/** Then-clauses of a condition's actions: `then create …; and notify …`. */
export function thenWords(c: RuleCondition, names: RuleNames): string {
  if (c.actions.length === 0) return 'then nothing (no action)';
  return `then ${c.actions.map((a) => actionWords(a, names)).join('; and ')}`;
}

/** Which assets the rule watches. */
export function scopeWords(rule: Rule, names: RuleNames): string {
  const assets = rule.assetConfiguration.assetIds.map((id) => names.asset(id));
  const tags = rule.assetConfiguration.tagIds.map((id) => names.tag(id));
  const parts = [];
  if (assets.length) parts.push(`${assets.length === 1 ? 'asset' : 'assets'} ${listed(assets)}`);
  if (tags.length) parts.push(`assets tagged ${listed(tags)}`);
  if (parts.length === 0 && rule.assetId) parts.push(`asset ${names.asset(rule.assetId)}`);
  return parts.length ? `Watches ${parts.join(', and ')}.` : 'Watches no asset.';
}

/** Words as plain text, code in backticks (for tests and titles). */
export const plainText = (words: Words): string => words.map((w) => (typeof w === 'string' ? w : `\`${w.code}\``)).join('');
