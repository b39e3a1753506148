// The generatedChangeMessage of a policy version: which fields changed, how the
// number of policies moved, which statements were added / removed / changed
// (compared by Cedar's canonical JSON, so reformatting is recognised), and a
// line diff summary.
import { lineDiffCounts, splitLines } from '../../../src-shared/lineDiff';
import { summarizePolicy } from './cedarText';

const MAX_LISTED = 5;

const plural = (n: number) => `${n} ${n === 1 ? 'policy' : 'policies'}`;

function listed(verb: string, labels: string[]): string {
  const shown = labels.slice(0, MAX_LISTED).join(', ');
  return labels.length > MAX_LISTED ? `${verb} ${shown} and ${labels.length - MAX_LISTED} more` : `${verb} ${shown}`;
}

/** Statements added / removed / changed between two parsed policy sets (multisets of statements). */
function statementChanges(before: readonly string[], after: readonly string[]): string[] {
  const remaining = new Map<string, number>();
  const oldSummaries = before.map(summarizePolicy);
  const newSummaries = after.map(summarizePolicy);
  for (const s of oldSummaries) remaining.set(s.key, (remaining.get(s.key) ?? 0) + 1);
  const added: string[] = [];
  for (const s of newSummaries) {
    const n = remaining.get(s.key) ?? 0;
    if (n > 0) remaining.set(s.key, n - 1);
    else added.push(s.label);
  }
  const removed: string[] = [];
  for (const s of oldSummaries) {
    const n = remaining.get(s.key) ?? 0;
    if (n > 0) {
      remaining.set(s.key, n - 1);
      removed.push(s.label);
    }
  }
  // A statement removed and one added with the same effect and action read as one changed statement.
  const changed: string[] = [];
  for (let i = added.length - 1; i >= 0; i--) {
    const j = removed.indexOf(added[i]);
    if (j >= 0) {
      changed.unshift(added[i]);
      added.splice(i, 1);
      removed.splice(j, 1);
    }
  }
  const out: string[] = [];
  if (added.length) out.push(listed('added', added));
  if (removed.length) out.push(listed('removed', removed));
  if (changed.length) out.push(listed('changed', changed));
  return out;
}

export type PolicyField = 'name' | 'description' | 'configuration';

export interface ConfigurationChange {
  readonly beforeText: string;
  readonly afterText: string;
  readonly beforePolicies: readonly string[];
  readonly afterPolicies: readonly string[];
}

/**
 * e.g. `Changed name, configuration: 2 policies → 3 policies; added permit on Action::"view"; +3 −1 lines`.
 * `fields` lists what the update changed (configuration always among them: only it makes a version).
 */
export function changeMessage(fields: readonly PolicyField[], config: ConfigurationChange): string {
  const parts = [`Changed ${fields.join(', ')}: ${plural(config.beforePolicies.length)} → ${plural(config.afterPolicies.length)}`];
  const statements = statementChanges(config.beforePolicies, config.afterPolicies);
  parts.push(...(statements.length ? statements : ['formatting only (no policy changed)']));
  const diff = lineDiffCounts(config.beforeText, config.afterText);
  parts.push(`+${diff.added} −${diff.removed} lines`);
  return parts.join('; ');
}

/** The message of version 1. */
export function creationMessage(text: string, policies: readonly string[]): string {
  return `Created with ${plural(policies.length)} (+${splitLines(text).length} lines)`;
}
