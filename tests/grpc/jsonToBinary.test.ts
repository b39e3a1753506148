// The binary answers are written from the operation's JSON directly (src-main/grpc/jsonToBinary.ts): they must
// decode to the message protobuf-es's own fromJson builds from the same JSON, for every list and get the seeded
// demo data answers, and for the well-known types' edge cases.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { equals, fromBinary, fromJson, toBinary, toJson, type DescMessage, type JsonObject } from '@bufbuild/protobuf';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { operations } from '../../src-shared/operations';
import { DEFAULT_USER_NAME, loadCaller } from '../../src-main/auth/identity';
import { openEngine, type Engine } from '../../src-main/engine';
import { registry, siftServices } from '../../src-main/grpc/descriptors';
import { binaryAnswer, jsonToBinary } from '../../src-main/grpc/jsonToBinary';
import { operationMap } from '../../src-main/grpc/operationMap';
import { seedDemoData } from '../../src-main/seed/seedDemoData';
import { invoke } from '../../src-main/services/invoke';

let dir: string;
let engine: Engine;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'outpost-json-binary-'));
  engine = openEngine(dir);
  seedDemoData(engine.db, { annotations: 60 });
});
afterAll(() => {
  engine.close();
  rmSync(dir, { recursive: true, force: true });
});

function expectSameMessage(desc: DescMessage, json: JsonObject): void {
  const expected = fromJson(desc, json, { registry, ignoreUnknownFields: true });
  const bytes = jsonToBinary(desc, json, registry);
  // What the handler answers: a message whose toBinary is exactly these bytes.
  expect(Buffer.from(toBinary(desc, binaryAnswer(desc, json, registry))).equals(Buffer.from(bytes)), desc.typeName).toBe(true);
  const actual = fromBinary(desc, bytes);
  if (!equals(desc, actual, expected)) expect(toJson(desc, actual, { registry })).toEqual(toJson(desc, expected, { registry }));
  expect(equals(desc, actual, expected), desc.typeName).toBe(true);
}

it('encodes every read the demo data answers as protobuf-es would', async () => {
  const userId = engine.db.get<{ id: string }>('SELECT id FROM users WHERE user_name = ?', [DEFAULT_USER_NAME])!.id;
  const ctx = { engine, db: engine.db, caller: { ...loadCaller(engine.db, userId)!, owner: true } };
  let compared = 0;
  for (const [method, bindings] of operationMap(siftServices)) {
    for (const { operation } of bindings) {
      if (operations[operation].method !== 'GET') continue;
      const json = await invoke(ctx, operation, { pageSize: 1000 }).catch(() => undefined); // reads that need an id: skipped
      if (json === undefined) continue;
      expectSameMessage(method.output, json as JsonObject);
      compared++;
    }
  }
  expect(compared).toBeGreaterThan(15);
});

it('writes Timestamp, Duration, FieldMask, 64-bit integers, enums and maps as fromJson reads them', () => {
  const run = registry.getMessage('sift.runs.v2.Run')!;
  for (const duration of ['0s', '3.5s', '-1.000000001s', '86400s'])
    expectSameMessage(run, {
      runId: 'r',
      name: 'n',
      duration,
      startTime: '2026-01-02T03:04:05.123456789Z',
      stopTime: '1969-12-31T23:59:59Z',
    });
  expectSameMessage(run, { runId: 'r', createdDate: '2026-01-02T05:04:05+02:00', unknownKey: 1, tags: ['a', 'b'], isPinned: true });
  const update = registry.getMessage('sift.annotations.v1.UpdateAnnotationRequest')!;
  expectSameMessage(update, {
    annotation: { annotationId: 'a', state: 'ANNOTATION_STATE_FLAGGED' },
    updateMask: 'name,startTime,assignedToUserId',
  });
  const count = registry.getMessage('sift.test_reports.v1.CountTestStepsResponse')!;
  for (const n of ['0', '42', '9007199254740993']) expectSameMessage(count, { count: n });
  const remoteFile = registry.getMessage('sift.remote_files.v1.RemoteFile')!;
  expectSameMessage(remoteFile, { remoteFileId: 'f', fileSize: '18446744073709551615', entityType: 'ENTITY_TYPE_RUN' });
});
