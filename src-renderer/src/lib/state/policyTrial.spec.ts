import { describe, expect, test } from 'vitest';
import type { PolicyDecisionExplanation } from '../../../../src-shared/api/policies';
import { ApiError } from '../../../../src-shared/errors';
import { operations } from '../../../../src-shared/operations';
import { nameHolds, TRIAL_KINDS, verdictOf } from '../services/policyTrial';
import { annotationFactory } from '../testing/factories';
import { deferred, fakeClient } from '../testing/fakeClient';
import { PolicyTrial } from './policyTrial.svelte';

const statement = (policyName: string, n = 1) => ({ policyId: `id-${policyName}`, policyName, statement: n, text: 'permit(...);' });

function answer(overrides: Partial<PolicyDecisionExplanation> = {}): PolicyDecisionExplanation {
  return {
    allowed: true,
    userId: 'u-ana',
    action: 'ArchiveAnnotation',
    actionGroup: 'archive',
    resourceType: 'Annotation',
    resourceId: 'a1',
    organizationId: 'org',
    checks: [
      { action: 'ArchiveAnnotation', allowed: true, decidedBy: [statement('Members may do everything')], errors: [] },
      { action: 'GetAnnotation', allowed: true, decidedBy: [statement('Members may do everything')], errors: [] },
    ],
    leftToRemote: false,
    ...overrides,
  };
}

const annotationKind = TRIAL_KINDS[0];
const archive = annotationKind.actions.find((a) => a.action === 'ArchiveAnnotation')!;
const names = { user: 'Ana', record: 'Chamber pressure dip', action: archive, kind: annotationKind };

describe('the try-it actions', () => {
  test('each is an operation of its record kind, so the panel never offers an action the engine does not know', () => {
    const tags = { annotation: ['Annotations', 'Annotation logs'], rule: ['Rules'], 'test-report': ['Test reports'] };
    for (const kind of TRIAL_KINDS) for (const a of kind.actions) expect(tags[kind.id], `${a.action}`).toContain(operations[a.action].tag);
  });

  test('a name search matches any case and takes the text literally', () => {
    expect(nameHolds(' Pump (A).1 ')).toBe('name.matches("(?i)Pump \\\\(A\\\\)\\\\.1")');
  });
});

describe('verdictOf', () => {
  test('allowed: names the permit that allowed it', () => {
    expect(verdictOf(answer(), names)).toMatchObject({
      allowed: true,
      sentence: "Ana may archive the annotation 'Chamber pressure dip': permitted by “Members may do everything” (statement 1).",
    });
  });

  test('denied by a forbid: names the forbids', () => {
    const denied = answer({
      allowed: false,
      checks: [
        { action: 'ArchiveAnnotation', allowed: false, decidedBy: [statement('No archiving', 2), statement('Freeze')], errors: [] },
        { action: 'GetAnnotation', allowed: true, decidedBy: [], errors: [] },
      ],
    });
    const verdict = verdictOf(denied, names);
    expect(verdict.sentence).toBe(
      "Ana may not archive the annotation 'Chamber pressure dip': forbidden by “No archiving” (statement 2) and “Freeze” (statement 1).",
    );
    expect(verdict.deciding?.action).toBe('ArchiveAnnotation');
  });

  test('denied by default: says no policy permitted it', () => {
    const denied = answer({ allowed: false, checks: [{ action: 'ArchiveAnnotation', allowed: false, decidedBy: [], errors: [] }] });
    expect(verdictOf(denied, names).sentence).toBe(
      "Ana may not archive the annotation 'Chamber pressure dip': no policy permits it (denied by default).",
    );
  });

  test('denied by the read a change needs', () => {
    const denied = answer({
      allowed: false,
      checks: [
        { action: 'ArchiveAnnotation', allowed: true, decidedBy: [statement('Members may do everything')], errors: [] },
        { action: 'GetAnnotation', allowed: false, decidedBy: [statement('Secrets')], errors: [] },
      ],
    });
    const verdict = verdictOf(denied, names);
    expect(verdict.deciding?.action).toBe('GetAnnotation');
    expect(verdict.sentence).toBe(
      "Ana may not archive the annotation 'Chamber pressure dip': reading it is not allowed (forbidden by “Secrets” (statement 1)), and every change to a record needs its read.",
    );
  });

  test('left to the remote on a replica with no policy pulled', () => {
    expect(verdictOf(answer({ leftToRemote: true, checks: [] }), names).sentence).toMatch(/the remote decides\.$/);
  });
});

describe('PolicyTrial', () => {
  function engine() {
    const annotations = [annotationFactory.build({ name: 'Chamber pressure dip' }), annotationFactory.build({ name: 'Pump stall' })];
    const fake = fakeClient()
      .on('ListAnnotations', () => ({ annotations, nextPageToken: '' }))
      .on('ExplainPolicyDecision', (req) => answer({ userId: String(req.userId), resourceId: String(req.resourceId) }));
    return { fake, annotations };
  }

  test('searches by name, picks a record, and asks the engine with the chosen user, action and record', async () => {
    const { fake, annotations } = engine();
    const trial = new PolicyTrial(fake.client);
    await trial.search('chamber');
    expect(fake.callsTo('ListAnnotations')[0]).toMatchObject({ filter: 'name.matches("(?i)chamber")', orderBy: 'name' });
    expect(trial.results.map((r) => r.name)).toEqual(['Chamber pressure dip', 'Pump stall']);
    expect(trial.ready).toBe(false);
    trial.setUser('u-ana');
    trial.pick(trial.results[0]);
    trial.setAction('ArchiveAnnotation');
    expect(trial.ready).toBe(true);
    await trial.check();
    expect(fake.callsTo('ExplainPolicyDecision')).toEqual([
      { userId: 'u-ana', action: 'ArchiveAnnotation', resourceId: annotations[0].annotationId },
    ]);
    expect(trial.verdict('Ana')?.allowed).toBe(true);
  });

  test('changing a choice clears the answer, and a late answer to older choices is dropped', async () => {
    const late = deferred<PolicyDecisionExplanation>();
    const fake = fakeClient().on('ExplainPolicyDecision', () => late.promise);
    const trial = new PolicyTrial(fake.client);
    trial.setUser('u-ana');
    trial.pick({ id: 'a1', name: 'Chamber pressure dip' });
    const asked = trial.check();
    expect(trial.pending).toBe(true);
    trial.setAction('GetAnnotation');
    expect(trial.pending).toBe(false);
    late.resolve(answer());
    await asked;
    expect(trial.answer).toBeUndefined();
  });

  test('another kind of record searches its own list and offers its own actions', async () => {
    const fake = fakeClient().on('ListRules', () => ({ rules: [], nextPageToken: '' }));
    const trial = new PolicyTrial(fake.client);
    await trial.setKind('rule');
    expect(fake.callsTo('ListRules')).toHaveLength(1);
    expect(trial.action.action).toBe('GetRule');
    expect(trial.record).toBeUndefined();
  });

  test('a refusal keeps its error for the panel to show', async () => {
    const fake = fakeClient().on('ExplainPolicyDecision', () => {
      throw ApiError.permissionDenied('Asking what another user may do is for those who may change the policies.');
    });
    const trial = new PolicyTrial(fake.client);
    trial.setUser('u-bo');
    trial.pick({ id: 'a1', name: 'x' });
    await trial.check();
    expect(trial.error?.code).toBe('PERMISSION_DENIED');
    expect(trial.answer).toBeUndefined();
  });
});
