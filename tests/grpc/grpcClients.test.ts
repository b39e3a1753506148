// `outpost serve` answers the platform's gRPC services on its HTTP port, to clients built from the vendored protos
// alone (their own registry, connect's generic client; nothing of the server's mapping): gRPC over HTTP/2 in the
// clear, Connect JSON and gRPC-Web over HTTP/1.1. Each call runs the engine's operation, so REST sees its writes.
import { createFileRegistry, fromBinary, toJson, type DescService, type JsonObject } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema, timestampFromMs } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError, createClient, type Transport } from '@connectrpc/connect';
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from '@connectrpc/connect-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESCRIPTOR_SET_BASE64 } from '../../src-main/grpc/descriptorSet.generated';
import { startTestServer, type TestServer } from '../support/testServer';

const protos = createFileRegistry(fromBinary(FileDescriptorSetSchema, Buffer.from(DESCRIPTOR_SET_BASE64, 'base64')));
const service = (name: string) => protos.getService(name)!;
const BadRequest = protos.getMessage('google.rpc.BadRequest')!;

let s: TestServer;
const asset = 'grpc-test-asset'; // CreateAnnotationRequest.assets names assets
beforeAll(async () => {
  s = await startTestServer();
  expect((await s.api('POST', '/api/v1/assets', { name: asset })).status).toBe(200);
});
afterAll(async () => s.close());

const protocols: [string, () => Transport][] = [
  ['gRPC (HTTP/2 cleartext)', () => createGrpcTransport({ baseUrl: s.url })],
  ['Connect JSON (HTTP/1.1)', () => createConnectTransport({ baseUrl: s.url, httpVersion: '1.1' })],
  ['gRPC-Web (HTTP/1.1)', () => createGrpcWebTransport({ baseUrl: s.url, httpVersion: '1.1' })],
];

/** A generic client of one service; every call with the test server's key unless `headers` says otherwise. */
function clientOf(transport: Transport, name: string, headers: Record<string, string> = { authorization: `Bearer ${s.token}` }) {
  const client = createClient(service(name) as DescService, transport) as unknown as Record<
    string,
    (req: unknown, opt?: object) => Promise<any>
  >;
  return (method: string, request: unknown, extraHeaders: Record<string, string> = {}) =>
    client[method](request, { headers: { ...headers, ...extraHeaders } });
}

async function failure(call: Promise<unknown>): Promise<ConnectError> {
  const outcome = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(outcome).toBeInstanceOf(ConnectError);
  return outcome as ConnectError;
}

describe.each(protocols)('%s', (label, transportOf) => {
  const prefix = `${label.split(' ')[0]}-${Math.random().toString(36).slice(2, 8)}`;
  let annotations: ReturnType<typeof clientOf>;
  beforeAll(() => {
    annotations = clientOf(transportOf(), 'sift.annotations.v1.AnnotationService');
  });

  const create = (name: string) =>
    annotations('createAnnotation', {
      name,
      assets: [asset],
      startTime: timestampFromMs(Date.UTC(2026, 0, 1)),
      endTime: timestampFromMs(Date.UTC(2026, 0, 2)),
      annotationType: 1, // ANNOTATION_TYPE_DATA_REVIEW
      description: 'kept',
    });

  it('creates, lists with a filter page by page, updates by a FieldMask and archives; REST sees each write', async () => {
    const made = await Promise.all(['c', 'a', 'b'].map((n) => create(`${prefix}-${n}`)));
    expect(made.map((r) => r.annotation.name).sort()).toEqual([`${prefix}-a`, `${prefix}-b`, `${prefix}-c`]);

    const list = { filter: `name.startsWith('${prefix}')`, orderBy: 'name', pageSize: 2 };
    const first = await annotations('listAnnotations', list);
    expect(first.annotations.map((a: any) => a.name)).toEqual([`${prefix}-a`, `${prefix}-b`]);
    expect(first.nextPageToken).not.toBe('');
    const second = await annotations('listAnnotations', { ...list, pageToken: first.nextPageToken });
    expect(second.annotations.map((a: any) => a.name)).toEqual([`${prefix}-c`]);
    expect(second.nextPageToken).toBe('');

    // Only the masked field changes: the description sent along is not in the mask.
    const target = first.annotations[0];
    const updated = await annotations('updateAnnotation', {
      annotation: { annotationId: target.annotationId, name: `${prefix}-renamed`, description: 'ignored' },
      updateMask: { paths: ['name'] },
    });
    expect(updated.annotation.name).toBe(`${prefix}-renamed`);
    const rest = (await s.api('GET', `/api/v1/annotations/${target.annotationId}`)).body.annotation;
    expect([rest.name, rest.description]).toEqual([`${prefix}-renamed`, 'kept']);

    // The gRPC message and the REST JSON are the same record: every field the proto has, equal.
    const viaGrpc = await annotations('getAnnotation', { annotationId: target.annotationId });
    const grpcJson = toJson(protos.getMessage('sift.annotations.v1.Annotation')!, viaGrpc.annotation, {
      alwaysEmitImplicit: true,
    }) as JsonObject;
    for (const [field, value] of Object.entries(grpcJson)) expect(rest[field], field).toEqual(value);
    expect(Object.keys(grpcJson).length).toBeGreaterThan(15);

    const archived = await annotations('archiveAnnotation', { annotationId: target.annotationId });
    expect(archived.annotation.isArchived).toBe(true);
    expect((await s.api('GET', `/api/v1/annotations/${target.annotationId}`)).body.annotation.archivedDate).not.toBeNull();
  });

  it('ListAnnotationLogs takes its additional binding (every annotation) when annotation_id is empty', async () => {
    const logs = clientOf(transportOf(), 'sift.annotation_logs.v1.AnnotationLogService');
    const { annotation } = await create(`${prefix}-logged`);
    const made = await logs('createAnnotationLog', {
      annotationId: annotation.annotationId,
      kind: 1, // ANNOTATION_LOG_KIND_COMMENT
      properties: { case: 'comment', value: { body: [{ type: 1, text: 'hi' }] } },
    });
    const own = await logs('listAnnotationLogs', { annotationId: annotation.annotationId, pageSize: 1000 });
    expect(own.annotationLogs.map((l: any) => l.annotationId)).toEqual(own.annotationLogs.map(() => annotation.annotationId));
    expect(own.annotationLogs.map((l: any) => l.annotationLogId)).toContain(made.annotationLog.annotationLogId);
    const all = await logs('listAnnotationLogs', { pageSize: 1000 });
    const others = all.annotationLogs.filter((l: any) => l.annotationId !== annotation.annotationId);
    expect(others.length).toBeGreaterThan(0);
    expect(all.annotationLogs.length).toBe(others.length + own.annotationLogs.length);
  });

  it("answers a bad request with the contract's code and a google.rpc.BadRequest naming the field", async () => {
    const e = await failure(annotations('listAnnotations', { filter: 'name ==' }));
    expect(e.code).toBe(Code.InvalidArgument);
    expect(e.rawMessage).toMatch(/^filter: /);
    expect(e.findDetails(BadRequest).map((d: any) => d.fieldViolations[0].field)).toEqual(['filter']);
    expect((await failure(annotations('getAnnotation', { annotationId: 'no-such-annotation' }))).code).toBe(Code.NotFound);
  });

  it('refuses a call without a key, or with a wrong one, as UNAUTHENTICATED; Ping needs none', async () => {
    const anonymous = clientOf(transportOf(), 'sift.annotations.v1.AnnotationService', {});
    const e = await failure(anonymous('listAnnotations', {}));
    expect([e.code, e.rawMessage]).toEqual([Code.Unauthenticated, 'missing Authorization header (expected "Bearer <api key>")']);
    expect((await failure(anonymous('listAnnotations', {}, { authorization: 'Bearer nope' }))).code).toBe(Code.Unauthenticated);
    expect((await clientOf(transportOf(), 'sift.ping.v1.PingService', {})('ping', {})).response).toBe('pong');
  });

  it('stops a call whose deadline has passed before it runs: DEADLINE_EXCEEDED, and nothing written', async () => {
    // The deadline header as each protocol spells it, already spent when the server reads it.
    const spent: Record<string, string> = label.startsWith('Connect') ? { 'connect-timeout-ms': '0' } : { 'grpc-timeout': '0m' };
    const name = `${prefix}-late`;
    const e = await failure(
      annotations('createAnnotation', { name, assets: [asset], startTime: timestampFromMs(0), endTime: timestampFromMs(1) }, spent),
    );
    expect(e.code).toBe(Code.DeadlineExceeded);
    const after = await s.api('GET', `/api/v1/annotations?filter=${encodeURIComponent(`name == '${name}'`)}`);
    expect(after.body.annotations).toEqual([]);
  });

  it('answers an RPC that has no operation UNIMPLEMENTED, naming it', async () => {
    const e = await failure(clientOf(transportOf(), 'sift.roles.v2.RoleService')('listRoles', {}));
    expect([e.code, e.rawMessage]).toEqual([Code.Unimplemented, 'sift.roles.v2.RoleService/ListRoles is not implemented by Outpost']);
  });

  it('serves what sift_client calls at start or commonly: units, all users, a channel update and archive, a run association', async () => {
    const units = clientOf(transportOf(), 'sift.unit.v2.UnitService');
    const { unit } = await units('createUnit', { name: `${prefix}-V` });
    expect((await units('listUnits', { filter: `name == '${prefix}-V'` })).units).toEqual([unit]);
    const bad = await failure(units('createUnit', { name: '' }));
    expect([bad.code, bad.findDetails(BadRequest).map((d: any) => d.fieldViolations[0].field)]).toEqual([Code.InvalidArgument, ['name']]);

    const me = (await s.api('GET', '/api/v2/me')).body;
    const users = await clientOf(transportOf(), 'sift.users.v2.UserService')('listUsers', {});
    expect(users.users.map((u: any) => u.userId)).toContain(me.userId);

    const assetId = (await s.api('GET', `/api/v1/assets?filter=${encodeURIComponent(`name == '${asset}'`)}`)).body.assets[0].assetId;
    const made = (await s.api('POST', '/api/v3/channels', { assetId, name: `${prefix}.temp`, description: 'kept' })).body.channel;
    const channels = clientOf(transportOf(), 'sift.channels.v3.ChannelService');
    const updated = await channels('updateChannel', {
      channel: { channelId: made.channelId, displayUnitId: unit.unitId, displayDescription: 'not in the mask' },
      updateMask: { paths: ['display_unit_id'] },
    });
    expect([updated.channel.displayUnitId, updated.channel.displayDescription, updated.channel.description]).toEqual([
      unit.unitId,
      '',
      'kept',
    ]);
    await channels('batchArchiveChannels', { channelIds: [made.channelId] });
    expect((await s.api('GET', `/api/v3/channels/${made.channelId}`)).body.channel.active).toBe(false);
    await channels('batchUnarchiveChannels', { channelIds: [made.channelId] });
    expect((await s.api('GET', `/api/v3/channels/${made.channelId}`)).body.channel.active).toBe(true);

    const run = (await s.api('POST', '/api/v2/runs', { name: `${prefix} run` })).body.run;
    await clientOf(transportOf(), 'sift.runs.v2.RunService')('createAutomaticRunAssociationForAssets', {
      runId: run.runId,
      assetNames: [asset],
    });
    expect((await s.api('GET', `/api/v2/runs/${run.runId}`)).body.run.assetIds).toEqual([assetId]);
  });
});

it('refuses a request message larger than a REST body may be: RESOURCE_EXHAUSTED (Connect over HTTP/1.1)', async () => {
  const annotations = clientOf(createConnectTransport({ baseUrl: s.url, httpVersion: '1.1' }), 'sift.annotations.v1.AnnotationService');
  const e = await failure(annotations('listAnnotations', { filter: 'x'.repeat(16 * 1024 * 1024 + 1) }));
  expect([e.code, e.rawMessage]).toEqual([
    Code.ResourceExhausted,
    `message size is larger than configured readMaxBytes ${16 * 1024 * 1024}`,
  ]);
});

it('serves the REST API on the same port, HTTP/1.1 as before', async () => {
  const res = await fetch(`${s.url}/api/v1/ping`);
  expect([res.status, await res.json()]).toEqual([200, { response: 'pong' }]);
});
