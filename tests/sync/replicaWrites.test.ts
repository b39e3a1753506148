// On a replica, a platform write the outbox cannot replicate would change only
// the local copy (never pushed; a later pull may overwrite it), so it is
// refused before it runs. Over the local HTTP API of a real `outpost serve`
// engine linked to a real remote, as a user of the served replica sees it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, httpStatusFromCode } from '../../src-shared/errors';
import type { Db } from '../../src-main/db/database';
import { runSync } from '../../src-main/sync/runSync';
import { expectViolation } from '../support/assertions';
import { startTestServer, type TestServer } from '../support/testServer';
import { annotationRequest, startRemote, type RemoteServer } from './helpers';

let remote: RemoteServer;
let local: TestServer;
let ruleId: string;
let remoteFileId: string;

const sync = () =>
  runSync({
    db: local.engine.db,
    catalog: local.engine.replica.catalog,
    remote: { baseUrl: remote.url, apiKey: remote.token, timeoutMs: 5_000 },
  });

/** Every row of every table: "nothing changed" means this is equal before and after. */
function dump(db: Db): Record<string, unknown[]> {
  const tables = db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name");
  return Object.fromEntries(tables.map(({ name }) => [name, db.all(`SELECT * FROM "${name}"`)]));
}

async function uploadFile(server: TestServer): Promise<string> {
  const form = new FormData();
  form.append('entityId', 'replica-writes-run');
  form.append('entityType', 'runs');
  form.append('file', new Blob(['hello outpost'], { type: 'text/plain' }), 'hello.txt');
  const res = await fetch(`${server.url}/api/v0/remote-files/upload`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${server.token}` },
    body: form,
  });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.remoteFile.remoteFileId;
}

const outboxOperations = () =>
  local.engine.db.all<{ operation: string }>('SELECT operation FROM sync_outbox ORDER BY seq').map((r) => r.operation);

beforeAll(async () => {
  remote = await startRemote();
  ({ ruleId } = await remote.client.CreateRule({ update: { name: 'Overpressure', description: '', conditions: [] } }));
  // What a user of `outpost serve` does: link the remote through the API, then sync.
  local = await startTestServer();
  const linked = await local.api('PUT', '/api/v1/outpost/sync/remote', { base_url: remote.url, api_key: remote.token });
  expect(linked.status, JSON.stringify(linked.body)).toBe(200);
  expect((await sync()).ok).toBe(true);
  expect(local.engine.replica?.writeRecorder()).toBeDefined();
  expect(local.engine.db.get('SELECT 1 FROM rules WHERE id = ?', [ruleId])).toBeDefined();
  remoteFileId = await uploadFile(local); // replicated: UploadRemoteFile has a push spec
});
afterAll(async () => {
  await local?.close();
  await remote?.close();
});

type Request = readonly [method: string, path: string, body?: unknown];
const refused: [operation: string, request: () => Request][] = [
  ['CreateAsset', () => ['POST', '/api/v1/assets', { name: 'Rig-2' }]],
  ['CreateRule', () => ['POST', '/api/v1/rules', { update: { name: 'Offline rule', description: '', conditions: [] } }]],
  ['ArchiveRule', () => ['POST', '/api/v1/rules/archive', { rule_id: ruleId }]],
  ['CreateTag', () => ['POST', '/api/v2/tags', { name: 'offline-tag' }]],
  ['CreateRun', () => ['POST', '/api/v2/runs', { name: 'offline run' }]],
  ['DeleteRemoteFile', () => ['DELETE', `/api/v1/remote-files/${remoteFileId}`]],
  ['GenerateToken', () => ['POST', '/api/v1/external-sync:generate-token', {}]],
];

describe('a replica refuses platform writes it cannot replicate', () => {
  it.each(refused)('%s: FAILED_PRECONDITION naming the operation, nothing changed', async (operation, request) => {
    const before = dump(local.engine.db);
    const res = await local.api(...request());
    expect(res.status, JSON.stringify(res.body)).toBe(httpStatusFromCode(Code.FAILED_PRECONDITION));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(9);
    expect(res.body.message).toBe(
      `${operation} is not replicated: this Outpost is a replica of its remote, so the change would never reach it; make it on the remote`,
    );
    expect(dump(local.engine.db)).toEqual(before);
  });

  it('validates the request first: bad input is INVALID_ARGUMENT naming the field', async () => {
    const before = dump(local.engine.db);
    expectViolation(await local.api('POST', '/api/v1/assets', {}), 'name');
    expect(dump(local.engine.db)).toEqual(before);
  });

  it('still answers POST operations that only read', async () => {
    const batch = await local.api('POST', '/api/v1/rules:batchGet', { rule_ids: [ruleId] });
    expect(batch.status, JSON.stringify(batch.body)).toBe(200);
    expect(batch.body.rules.map((r: { ruleId: string }) => r.ruleId)).toEqual([ruleId]);
    const validated = await local.api('POST', '/api/v1/policies:validate', { cedar_policy: 'permit(principal, action, resource);' });
    expect(validated).toMatchObject({ status: 200, body: { valid: true } });
  });

  it('still runs replicated writes, each recorded in the outbox and pushed', async () => {
    expect(outboxOperations()).toEqual(['UploadRemoteFile']);
    const created = await local.api('POST', '/api/v1/annotations', annotationRequest('made on the replica'));
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(outboxOperations()).toEqual(['UploadRemoteFile', 'CreateAnnotation']);
    const summary = await sync();
    expect(summary.error).toBeUndefined();
    expect(summary.pending).toBe(0);
    expect((await remote.client.ListAnnotations({ filter: 'name == "made on the replica"' })).annotations).toHaveLength(1);
    expect(remote.engine.db.get<{ n: number }>('SELECT count(*) AS n FROM remote_files')!.n).toBe(1);
  });

  it('still runs the local sync operations', async () => {
    const relinked = await local.api('PUT', '/api/v1/outpost/sync/remote', { base_url: remote.url });
    expect(relinked.status, JSON.stringify(relinked.body)).toBe(200);
    expect(relinked.body.remote).toMatchObject({ baseUrl: remote.url, hasApiKey: true });
  });
});

describe('a server that is not a replica', () => {
  it.each(refused.filter(([operation]) => operation !== 'DeleteRemoteFile'))('accepts %s', async (_operation, request) => {
    expect(remote.engine.replica?.writeRecorder()).toBeUndefined();
    const res = await remote.api(...request());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('accepts DeleteRemoteFile', async () => {
    const res = await remote.api('DELETE', `/api/v1/remote-files/${await uploadFile(remote)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});
