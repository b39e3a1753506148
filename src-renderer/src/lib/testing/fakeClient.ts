// A real typed client over an in-memory transport: tests register a handler
// per operation and inspect the requests that were sent. Unregistered
// operations fail with UNIMPLEMENTED, like an engine that lacks them.
import { createClient, type Client, type Transport } from '../../../../src-shared/client';
import { ApiError, Code } from '../../../../src-shared/errors';
import type { OperationName } from '../../../../src-shared/operations';

export interface Call {
  readonly name: OperationName;
  readonly request: Record<string, unknown>;
}

type Handler = (request: Record<string, unknown>) => unknown;

export interface FakeClient {
  readonly client: Client;
  readonly calls: Call[];
  on(name: OperationName, handler: Handler): FakeClient;
  callsTo(name: OperationName): Record<string, unknown>[];
}

export function fakeClient(): FakeClient {
  const handlers = new Map<string, Handler>();
  const calls: Call[] = [];
  const transport: Transport = {
    async call(name, _op, request) {
      // JSON round trip, as the IPC transport does: what is recorded is exactly what would be sent.
      calls.push({ name, request: JSON.parse(JSON.stringify(request)) as Record<string, unknown> });
      const handler = handlers.get(name);
      if (!handler) throw new ApiError(Code.UNIMPLEMENTED, `${name} is not implemented`);
      return await handler(request);
    },
  };
  const fake: FakeClient = {
    client: createClient(transport),
    calls,
    on(name, handler) {
      handlers.set(name, handler);
      return fake;
    },
    callsTo: (name) => calls.filter((c) => c.name === name).map((c) => c.request),
  };
  return fake;
}

/** A promise plus its resolve/reject, to control when a fake response arrives. */
export function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
