// How manual test-step writes are recorded and replayed. A create names its
// report (client-chosen parent, possibly a report made offline: the entry then
// waits for it). An unknown outcome is resolved by finding a step of that
// report with the same step_path and name, created at or after the first send,
// that no local record stands for. Updates are idempotent and resent; a delete
// that finds nothing is done (the remote deletes the subtree, as here).
import type { TestStep } from '../../../../src-shared/api/testReports';
import { TEST_STEP_UPDATABLE_PATHS } from '../../../services/testReports/testStepsService';
import { mapLocalId, translateIds, unclaimed } from '../../idMap';
import { TEST_STEP, upsertSteps } from './children';
import { observedNow, TEST_REPORT, testReportContext } from './apply';
import type { OutboxEntry } from '../../types';
import {
  defineSpec,
  type EntryOf,
  type OpSpec,
  type PushContext,
  type StoredRequest,
  type WireRequest,
  type WireResponse,
} from '../../spec';
import { compact, mask, metadataOut, ts } from '../../wireEncode';
import { createdSince } from './specs';
import { listAll, quote } from '../../remoteQuery';

/** A step's fields as a create or an update carries them. */
type StepFields = Partial<StoredRequest<'CreateTestStep'>['testStep']>;

/** update_mask path -> [wire member, value]; `test_case` (listed by the platform, no such field) is not sent. */
function stepMember(step: StepFields, path: string): [string, unknown] | undefined {
  switch (path) {
    case 'name':
      return ['name', step.name];
    case 'description':
      return ['description', step.description ?? ''];
    case 'step_type':
      return ['stepType', step.stepType ?? 'TEST_STEP_TYPE_UNSPECIFIED'];
    case 'step_path':
      return ['stepPath', step.stepPath];
    case 'status':
      return ['status', step.status ?? 'TEST_STATUS_UNSPECIFIED'];
    case 'start_time':
      return ['startTime', ts(step.startTime)];
    case 'end_time':
      return ['endTime', ts(step.endTime)];
    case 'error_info':
      return [
        'errorInfo',
        step.errorInfo ? compact({ errorCode: step.errorInfo.errorCode, errorMessage: step.errorInfo.errorMessage }) : undefined,
      ];
    case 'metadata':
      return ['metadata', metadataOut(step.metadata) ?? []];
    default:
      return undefined;
  }
}

/** The paths a step update pushes (`test_case`, which the platform lists but TestStep lacks, has no effect). */
const STEP_PATHS: readonly string[] = TEST_STEP_UPDATABLE_PATHS.filter((p) => p !== 'test_case');
const pathsOf = (req: StoredRequest<'UpdateTestStep'>): string[] =>
  [...new Set(req.updateMask ?? [])].filter((p) => STEP_PATHS.includes(p));

/** The wire members of the step's fields named by `paths` (stepMember gives each member's name and value). */
function encodeStep(step: StepFields, paths: readonly string[]): Partial<WireRequest<'CreateTestStep'>['testStep']> {
  const out: Record<string, unknown> = {};
  for (const path of paths) {
    const member = stepMember(step, path);
    if (member) out[member[0]] = member[1];
  }
  return compact(out);
}

const contextOf = (p: PushContext, entry: Pick<OutboxEntry, 'seq'>) => testReportContext(p.apply, p.clockOffset, entry.seq);

/** Whether remote step `s` is one the create of `want` (its request's step, ids translated) may have made: report, path and name. */
export const sameStep = (want: { testReportId?: string; stepPath?: string; name?: string }, s: TestStep) =>
  s.testReportId === want.testReportId && s.stepPath === want.stepPath && s.name === want.name;

async function findStep(p: PushContext, entry: EntryOf<StoredRequest<'CreateTestStep'>>): Promise<TestStep | undefined> {
  const step = translateIds(p.db, entry.request).testStep;
  // (A create's step names its report and path: the service refuses it otherwise, before anything is sent.)
  const filter = `test_report_id == ${quote(step.testReportId as string)} && step_path == ${quote(step.stepPath as string)}${createdSince(entry)}`;
  const candidates = await listAll<TestStep>(p, 'ListTestSteps', 'testSteps', filter, (s) => sameStep(step, s));
  return candidates.find((s) => unclaimed(p.db, 'test_steps', s.testStepId));
}

export const createTestStepSpec = defineSpec<'CreateTestStep', WireResponse<'CreateTestStep'> | TestStep>({
  operation: 'CreateTestStep',
  kind: 'create',
  // (Validated by the service after the targets are read: a missing report is refused there.)
  targets: (req) => [{ resource: TEST_REPORT, recordId: req.testStep.testReportId as string, fields: [] }],
  created: (_req, res) => [{ resource: TEST_STEP, id: res.testStep.testStepId }],
  targetsAfter: (_req, res) => [{ resource: TEST_STEP, recordId: res.testStep.testStepId, fields: ['*create'] }],
  encode: (req) =>
    compact({
      testStep: {
        testReportId: req.testStep.testReportId,
        parentStepId: req.testStep.parentStepId || undefined,
        ...encodeStep(req.testStep, STEP_PATHS),
      },
    }),
  findExisting: findStep,
  applyResult(p, entry, res) {
    const step = 'testStep' in res ? res.testStep : res;
    mapLocalId(p, TEST_STEP, entry.createdIds[0].id, step.testStepId);
    upsertSteps(contextOf(p, entry), [step], observedNow(p.clockOffset));
  },
});

export const updateTestStepSpec = defineSpec({
  operation: 'UpdateTestStep',
  kind: 'write',
  targets: (req) => [{ resource: TEST_STEP, recordId: req.testStep.testStepId as string, fields: pathsOf(req) }],
  encode(req) {
    const paths = pathsOf(req);
    return { testStep: { testStepId: req.testStep.testStepId, ...encodeStep(req.testStep, paths) }, updateMask: mask(paths) };
  },
  applyResult: (p, entry, res) => void upsertSteps(contextOf(p, entry), [res.testStep], observedNow(p.clockOffset)),
  dropField(req, _id, field) {
    const left = pathsOf(req).filter((f) => f !== field);
    return left.length ? { ...req, updateMask: left } : null;
  },
});

export const deleteTestStepSpec = defineSpec({
  operation: 'DeleteTestStep',
  kind: 'write',
  targets: (req) => [{ resource: TEST_STEP, recordId: req.testStepId, fields: ['*delete'] }],
  encode: (req) => ({ testStepId: req.testStepId }),
  notFoundIsDone: true,
  applyResult: () => {},
});

export const testStepSpecs: readonly OpSpec[] = [createTestStepSpec, updateTestStepSpec, deleteTestStepSpec];
