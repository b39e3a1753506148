// Every extension of the public API is marked `x-outpost-extension` in the OpenAPI document, and nothing else is:
// derived, not listed. For each operation the gRPC front door serves, its RPC's request and response messages in
// the vendored protos are walked beside the document's parameters and schemas: a field the message lacks must be
// marked, a field it has must not be. Operations no proto declares are marked whole (or are the platform's REST-only
// routes, checked by hand below).
import type { DescField, DescMessage } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { snakeToCamel } from '../../src-shared/api/wire';
import { buildOpenApiDocument, openApiPath } from '../../src-shared/openapi';
import { operations, type OperationName } from '../../src-shared/operations';
import { siftServices } from '../../src-main/grpc/descriptors';
import { operationMap } from '../../src-main/grpc/operationMap';

type Json = Record<string, any>;
const EXTENSION = 'x-outpost-extension';

const doc = buildOpenApiDocument() as Json;
const operationObject = (name: OperationName): Json => doc.paths[openApiPath(operations[name].path)][operations[name].method.toLowerCase()];

/** The RPC each operation runs as over gRPC. */
const rpcOf = new Map<OperationName, { input: DescMessage; output: DescMessage }>();
for (const [method, bindings] of operationMap(siftServices)) for (const b of bindings) rpcOf.set(b.operation, method);

const fieldsOf = (message: DescMessage) => new Map<string, DescField>(message.fields.map((f) => [f.jsonName, f]));
/** The message a field holds (itself, or its list's or map's values), unless it is a well-known type written as a JSON scalar. */
function messageOf(field: DescField): DescMessage | undefined {
  const m =
    field.fieldKind === 'message'
      ? field.message
      : field.fieldKind === 'list' && field.listKind === 'message'
        ? field.message
        : field.fieldKind === 'map' && field.mapKind === 'message'
          ? field.message
          : undefined;
  return m && !m.typeName.startsWith('google.protobuf.') ? m : undefined;
}
/** The object schema inside a property (through arrays, maps, nullable unions). */
function objectSchema(schema: Json | undefined): Json | undefined {
  if (!schema) return undefined;
  if (schema.properties) return schema;
  if (schema.items) return objectSchema(schema.items);
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') return objectSchema(schema.additionalProperties);
  for (const alt of schema.anyOf ?? schema.oneOf ?? []) {
    const found = objectSchema(alt);
    if (found) return found;
  }
  return undefined;
}

/** `where: field` for each property of `schema` whose marking disagrees with `message` having it (recursing into messages). */
function mismatches(schema: Json | undefined, message: DescMessage, where: string): string[] {
  const object = objectSchema(schema);
  if (!object) return [];
  const fields = fieldsOf(message);
  const out: string[] = [];
  for (const [name, property] of Object.entries(object.properties as Record<string, Json>)) {
    const field = fields.get(name);
    const marked = property[EXTENSION] !== undefined;
    if (!field && !marked) out.push(`${where}.${name}: not in ${message.typeName}, not marked`);
    if (field && marked) out.push(`${where}.${name}: in ${message.typeName}, marked`);
    const inner = field && messageOf(field);
    if (inner) out.push(...mismatches(property, inner, `${where}.${name}`));
  }
  return out;
}

describe('x-outpost-extension in the OpenAPI document', () => {
  const served = (Object.keys(operations) as OperationName[]).filter((n) => rpcOf.has(n));

  it('is on every request field, parameter and response field the RPC’s messages lack, and on no other', () => {
    const problems: string[] = [];
    for (const name of served) {
      const { input, output } = rpcOf.get(name)!;
      const op = operationObject(name);
      const fields = fieldsOf(input);
      for (const p of op.parameters as Json[]) {
        const marked = p[EXTENSION] !== undefined;
        const field = fields.get(p.name);
        if (!field && !marked) problems.push(`${name} ${p.in} ${p.name}: not in ${input.typeName}, not marked`);
        if (field && marked) problems.push(`${name} ${p.in} ${p.name}: in ${input.typeName}, marked`);
      }
      problems.push(...mismatches(op.requestBody?.content['application/json']?.schema, input, `${name} body`));
      problems.push(...mismatches(op.responses['200'].content?.['application/json']?.schema, output, `${name} response`));
    }
    expect(problems).toEqual([]);
  });

  it('is on every operation no proto declares, except the platform’s REST-only routes', () => {
    const unmarked = (Object.keys(operations) as OperationName[]).filter((n) => !rpcOf.has(n) && !operationObject(n)[EXTENSION]);
    expect(unmarked.sort()).toEqual(['ListArtifacts', 'UploadRemoteFile']);
    expect(served.filter((n) => operationObject(n)[EXTENSION])).toEqual([]);
  });

  it('marks what ListArtifacts (no proto; the seed spec) adds: order_by modified_date and include_archived', () => {
    const parameters = Object.fromEntries((operationObject('ListArtifacts').parameters as Json[]).map((p) => [p.name, p]));
    expect(parameters.includeArchived[EXTENSION]).toBeDefined();
    expect(parameters.orderBy[EXTENSION]).toMatch(/modified_date/);
    expect(parameters.filter[EXTENSION]).toBeUndefined();
  });

  it('keeps a path-bound field out of the body it would repeat', () => {
    for (const name of Object.keys(operations) as OperationName[]) {
      const body = operationObject(name).requestBody?.content['application/json']?.schema as Json | undefined;
      if (!body) continue;
      const pathFields = [...operations[name].path.matchAll(/\{([a-z_]+)\}/g)].map((m) => snakeToCamel(m[1]));
      for (const field of pathFields) {
        expect(Object.keys(body.properties ?? {}), `${name} body repeats ${field}`).not.toContain(field);
        expect(body.required ?? [], `${name} body requires ${field}`).not.toContain(field);
      }
    }
    expect(Object.keys(operationObject('CreateAnnotationLog').requestBody.content['application/json'].schema.properties)).toContain('kind');
  });
});
