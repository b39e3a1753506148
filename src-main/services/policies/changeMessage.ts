// The generatedChangeMessage of a policy version: which fields changed, how the
// number of policies moved, which statements were added / removed / changed
// (compared by Cedar's canonical JSON, so reformatting is recognised), and a
// line diff summary.
import { summarizePolicy } from './cedarText';

const MAX_LISTED = 5;
/** Above this many cells the line diff falls back to a cheaper estimate. */
const MAX_LCS_CELLS = 4_000_000;

const splitLines = (text: string) => (text === '' ? [] : text.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n'));

/** Lines added and removed between two texts (LCS after trimming the common head and tail). */
export function lineDiff(before: string, after: string): { added: number; removed: number } {
  const a = splitLines(before);
  const b = splitLines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const x = a.slice(start, endA);
  const y = b.slice(start, endB);
  if (x.length === 0 || y.length === 0) return { added: y.length, removed: x.length };
  if (x.length * y.length > MAX_LCS_CELLS) return { added: y.length, removed: x.length };
  let prev = new Uint32Array(y.length + 1);
  let cur = new Uint32Array(y.length + 1);
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) cur[j] = x[i - 1] === y[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
    [prev, cur] = [cur, prev];
  }
  const common = prev[y.length];
  return { added: y.length - common, removed: x.length - common };
}

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
  const diff = lineDiff(config.beforeText, config.afterText);
  parts.push(`+${diff.added} −${diff.removed} lines`);
  return parts.join('; ');
}

/** The message of version 1. */
export function creationMessage(text: string, policies: readonly string[]): string {
  return `Created with ${plural(policies.length)} (+${splitLines(text).length} lines)`;
}
