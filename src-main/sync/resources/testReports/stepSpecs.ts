// How manual test-step writes are recorded and replayed. A create names its
// report (client-chosen parent, possibly a report made offline: the entry then
// waits for it). An unknown outcome is resolved by finding a step of that
// report with the same step_path and name, created at or after the first send,
// that no local record stands for. Updates are idempotent and resent; a delete
// that finds nothing is done (the remote deletes the subtree, as here).
import type { TestStep } from '../../../../src-shared/api/testReports';
import { deleteTestStep, TEST_STEP_UPDATABLE_PATHS } from '../../../services/testReports/testStepsService';
import { mapLocalId, translateIds, unclaimed } from '../../idMap';
import { upsertSteps } from './children';
import { pushedContext } from './apply';
import { TEST_REPORT, TEST_STEP } from './shapes';
import {
  defineSpec,
  onlyNewRecords,
  retryAsAsked,
  type EntryOf,
  type OpSpec,
  type PushContext,
  type StoredRequest,
  type WireResponse,
} from '../../spec';
import { deleteById, updateByMask, wireMembers, type WireMembers } from '../../specForms';
import { compact, metadataOut, ts } from '../../wireEncode';
import { createdSince } from './specs';
import { listAll, quote } from '../../remoteQuery';

/** A step's fields as a create or an update carries them. */
type StepFields = Partial<StoredRequest<'CreateTestStep'>['testStep']>;

/** A step's mask paths whose wire value is not its member as it is. */
const STEP_WIRE: WireMembers<StepFields> = {
  description: (step) => step.description ?? '',
  stepType: (step) => step.stepType ?? 'TEST_STEP_TYPE_UNSPECIFIED',
  status: (step) => step.status ?? 'TEST_STATUS_UNSPECIFIED',
  startTime: (step) => ts(step.startTime),
  endTime: (step) => ts(step.endTime),
  errorInfo: (step) =>
    step.errorInfo ? compact({ errorCode: step.errorInfo.errorCode, errorMessage: step.errorInfo.errorMessage }) : undefined,
  metadata: (step) => metadataOut(step.metadata) ?? [],
};

/** The paths a step update pushes (`test_case`, which the platform lists but TestStep lacks, has no effect). */
const STEP_PATHS: readonly string[] = TEST_STEP_UPDATABLE_PATHS.filter((p) => p !== 'test_case');

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
  ...onlyNewRecords,
  // (Validated by the service after the targets are read: a missing report is refused there.)
  targets: (req) => [{ resource: TEST_REPORT, recordId: req.testStep.testReportId as string, fields: [] }],
  create: {
    created: (_req, res) => [{ resource: TEST_STEP, id: res.testStep.testStepId }],
    find: findStep,
    // The step's descendants too (they name it as their parent), and the measurements of all of them.
    refused: {
      ...retryAsAsked,
      discard(ctx, [step], held) {
        if (held.heldHere(step.resource, step.id)) deleteTestStep(ctx, step.id);
      },
    },
  },
  encode: (req) =>
    compact({
      testStep: {
        testReportId: req.testStep.testReportId,
        parentStepId: req.testStep.parentStepId || undefined,
        ...wireMembers(req.testStep, STEP_PATHS, STEP_WIRE),
      },
    }),
  applyResult(p, entry, res) {
    const step = 'testStep' in res ? res.testStep : res;
    mapLocalId(p, TEST_STEP, entry.createdIds[0].id, step.testStepId);
    upsertSteps(pushedContext(p, entry), [step]);
  },
});

export const updateTestStepSpec = updateByMask({
  operation: 'UpdateTestStep',
  resource: TEST_STEP,
  values: 'testStep',
  id: 'testStepId',
  wire: STEP_WIRE,
  sends: (path) => STEP_PATHS.includes(path),
  applyResult: (p, entry, res) => void upsertSteps(pushedContext(p, entry), [res.testStep]),
});

export const deleteTestStepSpec = deleteById('DeleteTestStep', TEST_STEP, 'testStepId');

export const testStepSpecs: readonly OpSpec[] = [createTestStepSpec, updateTestStepSpec, deleteTestStepSpec];
