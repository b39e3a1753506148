// The shape of one entry of the operation table (see ../operations.ts).
import { z as zod, type z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface OperationDef<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  /** RPC name as in the platform's protos (e.g. `ListAnnotations`), or an Outpost extension name. */
  readonly name: string;
  readonly method: HttpMethod;
  /** Path template; `{field_name}` segments bind to the request's lowerCamelCase field. */
  readonly path: string;
  readonly request: Req;
  readonly response: Res;
  /**
   * How the request is read: `body` = the whole JSON body (`body: "*"`), path
   * variables written over it; `query` = path + query string; `multipart` =
   * multipart/form-data (file upload); `path` = path only.
   */
  readonly input: 'body' | 'query' | 'path' | 'multipart';
  /** `binary`: the handler returns bytes (downloads), not JSON. */
  readonly output?: 'json' | 'binary';
  readonly tag: string;
  readonly summary: string;
  /**
   * The OpenAPI operationId when it is not the name: an additional HTTP binding of an RPC is that RPC's name and the
   * binding's number, as grpc-gateway names it (`ListAnnotationLogs2`); the name stays the table's (typed client, IPC).
   */
  readonly operationId?: string;
  /** Not part of the platform API (documented as an Outpost extension). */
  readonly extension?: boolean;
  /** Reachable without an API key (health check, OpenAPI document). */
  readonly public?: boolean;
  /**
   * What a non-GET operation does when it changes no platform data: `read` = it only
   * reads (batch gets, validation); `local` = it changes only this Outpost's own state
   * (the sync extension operations; an undo's platform edit runs as its own operation).
   * Unset: GET reads, any other method writes platform data, which a sync replica
   * refuses unless the operation is replicated.
   */
  readonly effect?: 'read' | 'local';
  /**
   * An Outpost batch of platform operations: each of its items runs as one of these operations (validated,
   * authorized and, on a replica, recorded for sync as it, as if sent one by one), all in one transaction: one
   * refused item refuses the batch and changes nothing. invoke() serves it; it has no handler of its own (its items
   * are the request's `requests`, or what the service's batch plan makes of the request: services/batchPlans.ts).
   */
  readonly eachAs?: readonly string[];
}

/** Whether the operation changes platform data (records the remote also holds). */
export const writesPlatformData = (op: Pick<OperationDef, 'method' | 'effect'>): boolean => op.method !== 'GET' && op.effect === undefined;

/** Keeps `output` literal so a binary operation's handler is typed to return bytes. */
export const defineOperation = <Req extends z.ZodType, Res extends z.ZodType, const Out extends 'json' | 'binary' = 'json'>(
  def: OperationDef<Req, Res> & { readonly output?: Out },
) => def;

/** The response of a binary operation as the client receives it (the HTTP body's bytes). */
export const binaryContent = zod
  .custom<Uint8Array>((v) => v instanceof Uint8Array)
  .meta({ type: 'string', contentMediaType: 'application/octet-stream' } as never);

export type RequestOf<O extends OperationDef> = z.output<O['request']>;
export type RequestInputOf<O extends OperationDef> = z.input<O['request']>;
export type ResponseOf<O extends OperationDef> = z.output<O['response']>;
