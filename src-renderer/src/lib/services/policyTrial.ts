// The policies view's "try it": who may do what to which record, as the engine's
// own Cedar evaluation answers it (ExplainPolicyDecision), put in words.
import type { AuthorizationCheck, DecidingStatement, PolicyDecisionExplanation } from '../../../../src-shared/api/policies';
import type { Client } from '../../../../src-shared/client';
import type { OperationName } from '../../../../src-shared/operations';
import { celString } from '../filter/quickFilters';

export type { DecidingStatement, PolicyDecisionExplanation };

/** A record the user can pick: its id and its name. */
export interface TrialRecord {
  readonly id: string;
  readonly name: string;
}

export interface TrialAction {
  /** The Cedar action: the operation's name. */
  readonly action: OperationName;
  /** What it does, as a verb phrase ("archive", "comment on"). */
  readonly words: string;
}

export interface TrialKind {
  readonly id: 'annotation' | 'rule' | 'test-report';
  /** The record kind in words ("annotation"). */
  readonly noun: string;
  readonly actions: readonly TrialAction[];
  /** Records of this kind whose name holds `text` (any case), by name. */
  search(client: Client, text: string): Promise<TrialRecord[]>;
}

const SEARCH_LIMIT = 20;

/** The names holding `text` in any case, as a CEL condition (RE2 `(?i)` and the text taken literally). */
export function nameHolds(text: string): string {
  const literal = text.trim().replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
  return `name.matches(${celString(`(?i)${literal}`)})`;
}

const filterFor = (text: string) => (text.trim() ? { filter: nameHolds(text) } : {});

export const TRIAL_KINDS: readonly TrialKind[] = [
  {
    id: 'annotation',
    noun: 'annotation',
    actions: [
      { action: 'GetAnnotation', words: 'read' },
      { action: 'UpdateAnnotation', words: 'edit, assign, tag or change the state of' },
      { action: 'CreateAnnotationLog', words: 'comment on' },
      { action: 'ArchiveAnnotation', words: 'archive' },
      { action: 'UnarchiveAnnotation', words: 'restore' },
    ],
    async search(client, text) {
      const res = await client.ListAnnotations({ pageSize: SEARCH_LIMIT, orderBy: 'name', ...filterFor(text) });
      return res.annotations.map((a) => ({ id: a.annotationId, name: a.name }));
    },
  },
  {
    id: 'rule',
    noun: 'rule',
    actions: [
      { action: 'GetRule', words: 'read' },
      { action: 'UpdateRule', words: 'edit' },
      { action: 'ArchiveRule', words: 'archive' },
    ],
    async search(client, text) {
      const res = await client.ListRules({ pageSize: SEARCH_LIMIT, ...filterFor(text) });
      return res.rules.map((r) => ({ id: r.ruleId, name: r.name }));
    },
  },
  {
    id: 'test-report',
    noun: 'test report',
    actions: [
      { action: 'GetTestReport', words: 'read' },
      { action: 'UpdateTestReport', words: 'edit' },
      { action: 'DeleteTestReport', words: 'delete' },
    ],
    async search(client, text) {
      const res = await client.ListTestReports({ pageSize: SEARCH_LIMIT, orderBy: 'name', ...filterFor(text) });
      return res.testReports.map((r) => ({ id: r.testReportId, name: r.name }));
    },
  },
];

export async function explainDecision(
  client: Client,
  request: { userId: string; action: OperationName; resourceId: string },
): Promise<PolicyDecisionExplanation> {
  return client.ExplainPolicyDecision(request);
}

/** `“Field team” (statement 2)`: a statement as the user sees it. */
export const statementName = (s: DecidingStatement): string => `“${s.policyName}” (statement ${s.statement})`;

function joined(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** Why one check came out as it did, in words. */
export function checkReason(check: AuthorizationCheck): string {
  const names = joined(check.decidedBy.map(statementName));
  if (check.allowed) return names ? `permitted by ${names}` : 'allowed';
  return names ? `forbidden by ${names}` : 'no policy permits it (denied by default)';
}

export interface TrialVerdict {
  readonly allowed: boolean;
  /** One sentence: who may or may not do what to which record, and why. */
  readonly sentence: string;
  /** The check that decided: the first refused one, else the action's own. */
  readonly deciding: AuthorizationCheck | undefined;
}

/** The answer in words: `userName` may (not) `action.words` the `kind.noun` 'recordName', and why. */
export function verdictOf(
  answer: PolicyDecisionExplanation,
  names: { readonly user: string; readonly record: string; readonly action: TrialAction; readonly kind: TrialKind },
): TrialVerdict {
  const what = `${names.action.words} the ${names.kind.noun} '${names.record}'`;
  if (answer.leftToRemote)
    return {
      allowed: true,
      deciding: undefined,
      sentence: `${names.user} may ${what} here: no policy of this organization has been pulled yet, so the remote decides.`,
    };
  const deciding = answer.checks.find((c) => !c.allowed) ?? answer.checks[0];
  if (answer.allowed) return { allowed: true, deciding, sentence: `${names.user} may ${what}: ${checkReason(deciding)}.` };
  // The record's read, refused while the action itself is allowed: every change on a record needs its read.
  const becauseRead = deciding !== answer.checks[0];
  const reason = becauseRead
    ? `reading it is not allowed (${checkReason(deciding)}), and every change to a record needs its read`
    : checkReason(deciding);
  return { allowed: false, deciding, sentence: `${names.user} may not ${what}: ${reason}.` };
}
