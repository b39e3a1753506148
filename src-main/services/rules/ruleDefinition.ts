// Request pieces of a rule -> their stored (wire JSON) form, a canonical
// text for change detection, and the generated change message of a version.
import { metadataInputToRow, metadataRowToWire } from '../../../src-shared/api/metadata';
import type {
  ChannelReference,
  ChannelReferenceInput,
  RuleActionConfiguration,
  RuleActionConfigurationInput,
  RuleConditionExpression,
  RuleConditionExpressionInput,
} from '../../../src-shared/api/rules';

/** protobuf JSON writes non-finite doubles as strings. */
const wireDouble = (d: number): number | 'NaN' | 'Infinity' | '-Infinity' =>
  Number.isNaN(d) ? 'NaN' : d === Infinity ? 'Infinity' : d === -Infinity ? '-Infinity' : d;

export function channelReferenceToWire(r: ChannelReferenceInput): ChannelReference {
  const out: ChannelReference = { name: r.name ?? '', component: r.component ?? '' };
  if (r.calculatedChannelVersionId) out.calculatedChannelVersionId = r.calculatedChannelVersionId;
  return out;
}

export function expressionToWire(e: RuleConditionExpressionInput): RuleConditionExpression {
  const s = e.singleChannelComparison;
  if (s) {
    const out: NonNullable<RuleConditionExpression['singleChannelComparison']> = {
      channelComponent: s.channelComponent ?? '',
      channelName: s.channelName,
      comparator: s.comparator,
    };
    if (s.double !== undefined) out.double = wireDouble(s.double);
    else if (s.string !== undefined) out.string = s.string;
    else out.lastValue = {};
    return { singleChannelComparison: out };
  }
  const c = e.calculatedChannel!;
  // Keys are reference symbols ($1, $speed_kph): copied verbatim, never case-converted.
  const refs: Record<string, ChannelReference> = {};
  for (const [symbol, ref] of Object.entries(c.channelReferences)) refs[symbol] = channelReferenceToWire(ref);
  const dependencies = [
    ...new Set(
      Object.values(refs)
        .map((r) => r.calculatedChannelVersionId)
        .filter((x): x is string => !!x),
    ),
  ];
  return {
    calculatedChannel: {
      channelReferences: refs,
      expression: c.expression,
      functionDependencies: [],
      calculatedChannelDependencies: dependencies.map((calculatedChannelVersionId) => ({ calculatedChannelVersionId })),
    },
  };
}

export function configurationToWire(c: RuleActionConfigurationInput): RuleActionConfiguration {
  if (c.notification) return { notification: { recipientUserIds: c.notification.recipientUserIds ?? [] } };
  if (c.webhook) return { webhook: { webhookId: c.webhook.webhookId } };
  const a = c.annotation!;
  const out: NonNullable<RuleActionConfiguration['annotation']> = {
    tagIds: a.tagIds ?? [],
    annotationType: a.annotationType ?? 'ANNOTATION_TYPE_UNSPECIFIED',
    metadata: (a.metadata ?? []).map((m) => metadataRowToWire(metadataInputToRow(m))),
  };
  if (a.assignedToUserId) out.assignedToUserId = a.assignedToUserId;
  return { annotation: out };
}

/** JSON with object keys sorted: equal values give equal text (map order does not matter). */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

export interface ChangeSummary {
  /** snake_case names of the rule's own fields that changed. */
  fields: string[];
  conditionsAdded: number;
  conditionsChanged: number;
  conditionsRemoved: number;
  conditionsReordered: boolean;
  actionsAdded: number;
  actionsChanged: number;
  actionsRemoved: number;
}

export const emptySummary = (): ChangeSummary => ({
  fields: [],
  conditionsAdded: 0,
  conditionsChanged: 0,
  conditionsRemoved: 0,
  conditionsReordered: false,
  actionsAdded: 0,
  actionsChanged: 0,
  actionsRemoved: 0,
});

export const hasChanges = (s: ChangeSummary) =>
  s.fields.length > 0 ||
  s.conditionsAdded + s.conditionsChanged + s.conditionsRemoved + s.actionsAdded + s.actionsChanged + s.actionsRemoved > 0 ||
  s.conditionsReordered;

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** e.g. "Updated name, description; changed 1 condition; added 1 action". */
export function changeMessage(s: ChangeSummary): string {
  const parts: string[] = [];
  if (s.fields.length) parts.push(`Updated ${s.fields.join(', ')}`);
  if (s.conditionsAdded) parts.push(`added ${count(s.conditionsAdded, 'condition')}`);
  if (s.conditionsChanged) parts.push(`changed ${count(s.conditionsChanged, 'condition')}`);
  if (s.conditionsRemoved) parts.push(`removed ${count(s.conditionsRemoved, 'condition')}`);
  if (s.conditionsReordered) parts.push('reordered conditions');
  if (s.actionsAdded) parts.push(`added ${count(s.actionsAdded, 'action')}`);
  if (s.actionsChanged) parts.push(`changed ${count(s.actionsChanged, 'action')}`);
  if (s.actionsRemoved) parts.push(`removed ${count(s.actionsRemoved, 'action')}`);
  const text = parts.join('; ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function creationMessage(conditions: number, actions: number): string {
  return `Created rule with ${count(conditions, 'condition')} and ${count(actions, 'action')}`;
}
