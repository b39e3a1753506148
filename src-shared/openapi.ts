// The OpenAPI 3.1 document, derived from the operation table.
import { z } from 'zod';
import { CHANGES_PATH, changesEvent } from './api/changes';
import type { OperationDef } from './api/operation';
import { documentedObject, OUTPOST_EXTENSION, snakeToCamel } from './api/wire';
import { httpStatusFromCode } from './errors';
import { operations } from './operations';

type Json = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const override = (ctx: { zodSchema: unknown; jsonSchema: Json }) => {
    const inner = documentedObject.get(ctx.zodSchema as z.ZodType);
    if (!inner) return;
    const js = jsonSchema(inner, io);
    for (const k of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[k];
    Object.assign(ctx.jsonSchema, js);
  };
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12', override: override as never }) as Json;
  delete out.$schema;
  return out;
}

const StatusSchema: Json = {
  type: 'object',
  properties: {
    code: { type: 'integer', description: 'gRPC status code' },
    message: { type: 'string' },
    details: { type: 'array', items: { type: 'object', properties: { '@type': { type: 'string' } }, additionalProperties: true } },
  },
  required: ['code', 'message', 'details'],
};

/** The path template with lowerCamelCase variables (`/annotations/{annotationId}`), as the document names them. */
export const openApiPath = (path: string) => path.replace(/\{([a-z_]+)\}/g, (_, snake: string) => `{${snakeToCamel(snake)}}`);

function operationObject(name: string, op: OperationDef): Json {
  // Parameters are named in lowerCamelCase, as the API's JSON fields are (the server accepts snake_case too).
  const params = [...op.path.matchAll(/\{([a-z_]+)\}/g)].map((m) => snakeToCamel(m[1]));
  const request = jsonSchema(op.request, 'input');
  const parameters: Json[] = params.map((p) => ({ name: p, in: 'path', required: true, schema: { type: 'string' } }));
  if (op.input === 'query') {
    const props = (request.properties ?? {}) as Record<string, Json>;
    const required = new Set((request.required ?? []) as string[]);
    for (const [field, { [OUTPOST_EXTENSION]: extension, ...schema }] of Object.entries(props)) {
      if (params.includes(field)) continue;
      // A parameter the platform lacks is marked on the parameter itself.
      parameters.push({
        name: field,
        in: 'query',
        required: required.has(field),
        schema,
        ...(extension ? { [OUTPOST_EXTENSION]: extension } : {}),
      });
    }
  }
  const result: Json = {
    operationId: op.operationId ?? name,
    summary: op.summary,
    tags: [op.tag],
    parameters,
    responses: {
      '200':
        op.output === 'binary'
          ? {
              description: 'The file content',
              content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
            }
          : { description: 'OK', content: { 'application/json': { schema: jsonSchema(op.response, 'output') } } },
      default: {
        description: `Error (google.rpc.Status; e.g. INVALID_ARGUMENT → ${httpStatusFromCode(3)})`,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Status' } } },
      },
    },
  };
  if (op.extension) result[OUTPOST_EXTENSION] = true;
  if (op.operationId) result['x-outpost-operation'] = name;
  if (op.effect) result['x-outpost-effect'] = op.effect;
  if (op.public) result.security = [];
  if (op.input === 'body') {
    // The path carries its fields (a body's copy would be overwritten): the body documents the others.
    const required = ((request.required ?? []) as string[]).filter((f) => !params.includes(f));
    const properties = Object.fromEntries(Object.entries((request.properties ?? {}) as Json).filter(([f]) => !params.includes(f)));
    const schema: Json = { ...request, properties, required };
    if (required.length === 0) delete schema.required;
    result.requestBody = { required: required.length > 0, content: { 'application/json': { schema } } };
  } else if (op.input === 'multipart') {
    result.requestBody = { required: true, content: { 'multipart/form-data': { schema: request } } };
  }
  return result;
}

/** The change feed's operationId in the document (a stream beside the operation table, not one of its operations). */
export const CHANGE_FEED_OPERATION_ID = 'StreamChanges';

/** `GET /api/v1/outpost/changes`, served by the HTTP server itself (src-main/http/changeStream.ts). */
function changeFeedOperation(): Json {
  return {
    operationId: CHANGE_FEED_OPERATION_ID,
    summary:
      'Server-Sent Events telling which records changed (event `changes`; `ready` on connect), only those the caller may read, coalesced (at most 4 events a second) with a heartbeat comment every 15 s. Resume with Last-Event-ID; a position no longer held gets one change `{resource: "*", ids: "many", reason: "gap"}`: reload everything.',
    tags: ['Sync'],
    parameters: [{ name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } }],
    responses: {
      '200': {
        description: 'An event stream; each `changes` event carries this JSON as its data',
        content: { 'text/event-stream': { schema: jsonSchema(changesEvent, 'output') } },
      },
      default: {
        description: 'Error (google.rpc.Status; UNAUTHENTICATED → 401 without a valid key)',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Status' } } },
      },
    },
    [OUTPOST_EXTENSION]: true,
  };
}

export function buildOpenApiDocument(): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const [name, op] of Object.entries(operations) as [string, OperationDef][]) {
    (paths[openApiPath(op.path)] ??= {})[op.method.toLowerCase()] = operationObject(name, op);
  }
  paths[CHANGES_PATH] = { get: changeFeedOperation() };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Outpost local API',
      version: '1',
      description:
        'A local implementation of the platform HTTP/JSON API (protobuf JSON mapping). Operations marked x-outpost-extension are Outpost additions; x-outpost-effect (read | local) marks a non-GET operation that changes no platform data.',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      schemas: { Status: StatusSchema },
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'API key' } },
    },
  };
}
