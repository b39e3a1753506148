// How manual test-measurement writes are recorded and replayed. A create
// names its step (possibly made offline: the entry then waits for it). An
// unknown outcome is resolved by finding, among the step's measurements
// created at or after the first send, one with the same name and timestamp
// that no local record stands for; a batch (CreateTestMeasurements, atomic
// remotely) counts as found only when every one of its measurements is.
// Synced fields are the update_mask paths, except that the members of a oneof
// are one field (`value`: numeric/string/boolean_value; `bounds`:
// numeric/string_bounds). Updates are idempotent and resent; a delete that
// finds nothing is done.
import type { TestMeasurement } from '../../../../src-shared/api/testReports';
import { mapLocalId, translateIds, unclaimed } from '../../idMap';
import { upsertMeasurements } from './children';
import { fieldOfPath } from '../../recordShape';
import { TEST_MEASUREMENT, TEST_MEASUREMENT_SHAPE, TEST_STEP } from './shapes';
import { pushedContext } from './apply';
import { wireMicros } from '../../time';
import type { OutboxEntry } from '../../types';
import { defineSpec, onlyNewRecords, retryAsAsked, type OpSpec, type PushContext, type StoredRequest, type WireResponse } from '../../spec';
import { deleteById, updateByMask, wireMembers, type WireMembers } from '../../specForms';
import { compact, metadataOut, ts } from '../../wireEncode';
import { createdSince } from './specs';
import { listAll, quote } from '../../remoteQuery';
import { TEST_MEASUREMENT_UPDATABLE_PATHS } from '../../../services/testReports/testMeasurementsService';

/** Non-finite doubles travel as text on the wire. */
function dbl(n: number | undefined): number | string | undefined {
  if (n === undefined) return undefined;
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return 'Infinity';
  if (n === -Infinity) return '-Infinity';
  return n;
}

/** A measurement's fields as a create or an update carries them. */
type MeasurementFields = StoredRequest<'CreateTestMeasurement'>['testMeasurement'];

/** A measurement's mask paths whose wire value is not its member as it is (an unset oneof member named in a mask clears it remotely too). */
const MEASUREMENT_WIRE: WireMembers<MeasurementFields> = {
  numericValue: (m) => dbl(m.numericValue),
  unit: (m) => (m.unit ? compact({ unitId: m.unit.unitId, abbreviatedName: m.unit.abbreviatedName }) : undefined),
  numericBounds: (m) => (m.numericBounds ? compact({ min: dbl(m.numericBounds.min), max: dbl(m.numericBounds.max) }) : undefined),
  stringBounds: (m) => (m.stringBounds ? compact({ expectedValue: m.stringBounds.expectedValue }) : undefined),
  passed: (m) => m.passed ?? false,
  timestamp: (m) => ts(m.timestamp),
  description: (m) => m.description ?? '',
  channelNames: (m) => m.channelNames ?? [],
  metadata: (m) => metadataOut(m.metadata) ?? [],
};

/** A new measurement as sent: its parents, then every field that is set. */
const encodeNew = (m: MeasurementFields) => ({
  testStepId: m.testStepId,
  testReportId: m.testReportId || undefined,
  ...wireMembers(m, TEST_MEASUREMENT_UPDATABLE_PATHS, MEASUREMENT_WIRE),
});

/** Whether remote measurement `m` is one the create of `want` (as requested, ids translated) may have made: step, name and timestamp. */
export const sameMeasurement = (want: { testStepId?: string; name?: string; timestamp?: number }, m: TestMeasurement) =>
  m.testStepId === want.testStepId && m.name === want.name && wireMicros(m.timestamp) === want.timestamp;

/** For each wanted measurement, an unclaimed one of its step created since the first send with its name and timestamp (all or nothing). */
async function findMeasurements(
  p: PushContext,
  entry: Pick<OutboxEntry, 'firstSentServerTime'>,
  wanted: readonly MeasurementFields[],
): Promise<TestMeasurement[] | undefined> {
  const byStep = new Map<string, TestMeasurement[]>();
  // (A create's measurement names its step: the service refuses it otherwise, before anything is sent.)
  for (const stepId of new Set(wanted.map((m) => m.testStepId as string))) {
    const filter = `test_step_id == ${quote(stepId)}${createdSince(entry)}`;
    byStep.set(
      stepId,
      await listAll<TestMeasurement>(
        p,
        'ListTestMeasurements',
        'testMeasurements',
        filter,
        (m) => m.testStepId === stepId && unclaimed(p.db, 'test_measurements', m.measurementId),
      ),
    );
  }
  const used = new Set<string>();
  const out: TestMeasurement[] = [];
  for (const w of wanted) {
    const found = byStep.get(w.testStepId as string)!.find((m) => !used.has(m.measurementId) && sameMeasurement(w, m));
    if (!found) return undefined;
    used.add(found.measurementId);
    out.push(found);
  }
  return out;
}

export const createTestMeasurementSpec = defineSpec<'CreateTestMeasurement'>({
  operation: 'CreateTestMeasurement',
  ...onlyNewRecords,
  // (Validated by the service after the targets are read: a missing step is refused there.)
  targets: (req) => [{ resource: TEST_STEP, recordId: req.testMeasurement.testStepId as string, fields: [] }],
  create: {
    created: (_req, res) => [{ resource: TEST_MEASUREMENT, id: res.testMeasurement.measurementId }],
    async find(p, entry) {
      const found = await findMeasurements(p, entry, [translateIds(p.db, entry.request).testMeasurement]);
      return found && { testMeasurement: found[0] };
    },
    refused: retryAsAsked,
  },
  encode: (req) => ({ testMeasurement: encodeNew(req.testMeasurement) }),
  applyResult(p, entry, res) {
    mapLocalId(p, TEST_MEASUREMENT, entry.createdIds[0].id, res.testMeasurement.measurementId);
    upsertMeasurements(pushedContext(p, entry), [res.testMeasurement]);
  },
});

export const createTestMeasurementsSpec = defineSpec<
  'CreateTestMeasurements',
  Pick<WireResponse<'CreateTestMeasurements'>, 'measurementIds'> & { testMeasurements?: TestMeasurement[] }
>({
  operation: 'CreateTestMeasurements',
  ...onlyNewRecords,
  targets: (req) =>
    [...new Set(req.testMeasurements.map((m) => m.testStepId as string))].map((id) => ({ resource: TEST_STEP, recordId: id, fields: [] })),
  create: {
    // The response lists the new ids in request order.
    created: (_req, res) => res.measurementIds.map((id) => ({ resource: TEST_MEASUREMENT, id })),
    async find(p, entry) {
      const found = await findMeasurements(p, entry, translateIds(p.db, entry.request).testMeasurements);
      return found && { measurementIds: found.map((m) => m.measurementId), testMeasurements: found };
    },
    refused: retryAsAsked,
  },
  encode: (req) => ({ testMeasurements: req.testMeasurements.map(encodeNew) }),
  applyResult(p, entry, res) {
    const ids = res.measurementIds;
    entry.createdIds.forEach((c, i) => {
      if (ids[i]) mapLocalId(p, TEST_MEASUREMENT, c.id, ids[i]);
    });
    // (the response has ids only: the remote versions come with the next pull)
    if (res.testMeasurements) upsertMeasurements(pushedContext(p, entry), res.testMeasurements);
  },
});

export const updateTestMeasurementSpec = updateByMask({
  operation: 'UpdateTestMeasurement',
  resource: TEST_MEASUREMENT,
  values: 'testMeasurement',
  id: 'measurementId',
  wire: MEASUREMENT_WIRE,
  fieldOf: fieldOfPath(TEST_MEASUREMENT_SHAPE),
  applyResult: (p, entry, res) => void upsertMeasurements(pushedContext(p, entry), [res.testMeasurement]),
});

export const deleteTestMeasurementSpec = deleteById('DeleteTestMeasurement', TEST_MEASUREMENT, 'measurementId');

export const testMeasurementSpecs: readonly OpSpec[] = [
  createTestMeasurementSpec,
  createTestMeasurementsSpec,
  updateTestMeasurementSpec,
  deleteTestMeasurementSpec,
];
