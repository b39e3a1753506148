// The gRPC, gRPC-Web and Connect front door: every RPC of the vendored services, each running the operation its
// HTTP rule maps to (operationMap.ts) through invoke(), as HTTP and IPC do: same validation, authorization,
// outbox and errors. JSON <-> protobuf by protobuf-es's own toJson/fromJson.
import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import { fromJson, toJson, type DescMessage, type DescMethod, type JsonObject, type JsonValue, type Message } from '@bufbuild/protobuf';
import { Code, ConnectError, createContextKey, createContextValues, type ConnectRouter, type HandlerContext } from '@connectrpc/connect';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import { operations } from '../../src-shared/operations';
import { authenticate } from '../auth/apiKeys';
import type { Caller } from '../auth/caller';
import { groupCommitFor } from '../db/groupCommit';
import type { Engine } from '../engine';
import { invoke } from '../services/invoke';
import { JsonText } from '../services/common/jsonText';
import { registry, siftServices } from './descriptors';
import { binaryAnswer } from './jsonToBinary';
import { bindingFor, operationMap, type OperationBinding } from './operationMap';
import { toConnectError } from './status';

export type RpcRequest = IncomingMessage | Http2ServerRequest;

export interface GrpcFrontDoor {
  /** Whether the request's path names an RPC of the served services (`/sift.ping.v1.PingService/Ping`). */
  serves(pathname: string): boolean;
  /** Answers an RPC over HTTP/1.1 (gRPC-Web, Connect) or HTTP/2 (all three). */
  handle(req: RpcRequest, res: Parameters<ReturnType<typeof connectNodeAdapter>>[1]): void;
}

const ANONYMOUS: Caller = { userId: '', userName: '', organizations: [] };
const originKey = createContextKey<string | undefined>(undefined);

export interface GrpcOptions {
  /** `http://host:port` a request arrived at, for absolute URLs in answers (download URLs). */
  readonly originOf: (req: RpcRequest) => string;
  /** The largest request message accepted (RESOURCE_EXHAUSTED past it): the REST JSON body's limit. */
  readonly readMaxBytes: number;
}

export function createGrpcFrontDoor(engine: Engine, { originOf, readMaxBytes }: GrpcOptions): GrpcFrontDoor {
  const map = operationMap(siftServices);
  const routes = (router: ConnectRouter) => {
    for (const [method, bindings] of map) router.rpc(method, rpcImpl(engine, method, bindings) as never);
  };
  const adapter = connectNodeAdapter({
    routes,
    jsonOptions: { registry, ignoreUnknownFields: true },
    readMaxBytes,
    // Requests may come compressed; answers go uncompressed: on a laptop's loopback, CPU matters more than bytes.
    compressMinBytes: Number.MAX_SAFE_INTEGER,
    contextValues: (req) => createContextValues().set(originKey, originOf(req)),
  });
  const prefixes = siftServices.map((s) => `/${s.typeName}/`);
  return {
    serves: (pathname) => prefixes.some((p) => pathname.startsWith(p)),
    handle: (req, res) => void adapter(req, res),
  };
}

function rpcImpl(engine: Engine, method: DescMethod, bindings: readonly OperationBinding[]) {
  const name = `${method.parent.typeName}/${method.name}`;
  if (method.methodKind !== 'unary' || bindings.length === 0) {
    return () => {
      throw new ConnectError(`${name} is not implemented by Outpost`, Code.Unimplemented);
    };
  }
  return async (request: Message, context: HandlerContext): Promise<Message> => {
    try {
      const raw = toJson(method.input as DescMessage, request, { registry }) as Record<string, unknown>;
      const binding = bindingFor(bindings, raw)!;
      const op = operations[binding.operation];
      const caller = op.public ? ANONYMOUS : authenticate(engine.db, context.requestHeader.get('authorization') ?? undefined);
      const run = async () => {
        // Checked at the last moment before the operation runs (a write: inside its group's transaction): a call
        // past its deadline, or given up by its client, runs nothing and so writes nothing.
        if (context.signal.aborted) throw context.signal.reason ?? new ConnectError('the call was cancelled', Code.Canceled);
        return invoke(
          { engine, db: engine.db, caller, origin: context.values.get(originKey), acceptsJsonText: true },
          binding.operation,
          raw,
        );
      };
      const answer = op.method === 'GET' ? await run() : await groupCommitFor(engine.db).submit(run);
      // A list's text (the services' hot path) parses faster than the service builds the same objects.
      const result = answer instanceof JsonText ? (JSON.parse(answer.text) as JsonObject) : answer;
      // A binary answer is written from the JSON directly (a 1000-row list's fromJson cost more than its query);
      // Connect and gRPC in JSON take the message protobuf-es builds.
      if (!/json/i.test(context.requestHeader.get('content-type') ?? ''))
        return binaryAnswer(method.output, result as JsonObject, registry);
      return fromJson(method.output as DescMessage, result as JsonValue, { registry, ignoreUnknownFields: true });
    } catch (e) {
      throw toConnectError(e);
    }
  };
}
