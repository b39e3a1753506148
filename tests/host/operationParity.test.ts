// Every operation of the table through the engine host's port answers as it
// does over HTTP: the same request (an empty one, and one with a field of the
// wrong type; every path variable an id nothing has) to a fresh profile behind the host (a forked process) and to a
// fresh `outpost serve`-style server (typed client over loopback). Errors must
// be the same body (code, message, field violations); successes the same
// response shape (ids and times differ between two profiles).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createClient, httpTransport } from '../../src-shared/client';
import { ApiError } from '../../src-shared/errors';
import { operations, type OperationName } from '../../src-shared/operations';
import type { CallResult } from '../../src-main/host/protocol';
import { startTestHost, type TestHost } from '../support/engineHost';
import { startTestServer, type TestServer } from '../support/testServer';

let host: TestHost;
let http: TestServer;

beforeAll(async () => {
  [host, http] = await Promise.all([startTestHost({ runner: 'fork' }), startTestServer()]);
});
afterAll(async () => {
  await host?.close();
  await http?.close();
});

async function overHttp(name: OperationName, request: Record<string, unknown>): Promise<CallResult> {
  const client = createClient(httpTransport({ baseUrl: http.url, apiKey: http.token })) as unknown as Record<
    string,
    (r: unknown) => Promise<unknown>
  >;
  try {
    return { ok: true, data: await client[name](request) };
  } catch (e) {
    if (e instanceof ApiError) return { ok: false, error: e.toBody() };
    throw e;
  }
}

/** The shape of a response: keys and value types, not values. */
function shape(x: unknown): unknown {
  if (Array.isArray(x)) return x.length ? [shape(x[0])] : [];
  if (x instanceof Uint8Array) return 'bytes';
  if (x && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, shape(v)]));
  return typeof x;
}

const NO_SUCH_ID = '00000000-0000-4000-a000-000000000000';
const camel = (snake: string) => snake.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
/** Every path variable set (to an id nothing has): an HTTP URL cannot be built without them. */
const withPathIds = (name: OperationName, request: Record<string, unknown>) => {
  const ids = [...operations[name].path.matchAll(/\{(\w+)\}/g)].map((m) => [camel(m[1]), NO_SUCH_ID]);
  return { ...Object.fromEntries(ids), ...request };
};

const comparable = (r: CallResult) => (r.ok ? { ok: true, shape: shape(r.data) } : r);

// Uploads go as bytes over the port and as multipart over HTTP (their port side is in tests/desktop/ipcBridge.test.ts);
// a public operation (a signed download URL's target) is authorized by its signature over HTTP and by the caller over the port.
const NAMES = (Object.keys(operations) as OperationName[]).filter(
  (n) => operations[n].input !== 'multipart' && !('public' in operations[n] && operations[n].public),
);

describe('every operation: the host answers as HTTP does', () => {
  test.each(NAMES)('%s with an empty request', async (name) => {
    const request = withPathIds(name, {});
    const [viaHost, viaHttp] = await Promise.all([host.supervisor.call(name, request), overHttp(name, request)]);
    expect(comparable(viaHost)).toEqual(comparable(viaHttp));
  });

  test.each(NAMES)('%s with a page size that is not a number', async (name) => {
    const request = withPathIds(name, { pageSize: 'lots' });
    const [viaHost, viaHttp] = await Promise.all([host.supervisor.call(name, request), overHttp(name, request)]);
    expect(comparable(viaHost)).toEqual(comparable(viaHttp));
  });
});
