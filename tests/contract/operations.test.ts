// The operation table is the one contract: every operation has a handler and
// a route, routes are unique, and the derived OpenAPI document is valid.
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANGE_FEED_OPERATION_ID } from '../../src-shared/openapi';
import { operations } from '../../src-shared/operations';
import { handlers } from '../../src-main/services/registry';
import { matchRoute } from '../../src-main/http/routes';
import { startTestServer, type TestServer } from '../support/testServer';

let s: TestServer;
beforeAll(async () => (s = await startTestServer()));
afterAll(async () => s.close());

const samplePath = (path: string) => path.replace(/\{[a-z_]+\}/g, 'sample-id');

describe('the operation table', () => {
  it('has a handler for every operation and no handler without an operation', () => {
    const ops = Object.keys(operations).sort();
    // The services' handlers, and the sync operations' (the engine's replica carries them): each operation in exactly one.
    const syncHandlers = s.engine.replica.operationHandlers;
    expect(Object.keys(handlers).filter((name) => Object.hasOwn(syncHandlers, name))).toEqual([]);
    // A batch of another operation (`eachAs`) has none of its own: invoke runs each item as that operation.
    const batches = Object.values(operations)
      .filter((op) => 'eachAs' in op && op.eachAs)
      .map((op) => op.name);
    expect(batches.filter((name) => Object.hasOwn(handlers, name) || Object.hasOwn(syncHandlers, name))).toEqual([]);
    expect([...Object.keys(handlers), ...Object.keys(syncHandlers), ...batches].sort()).toEqual(ops);
  });

  it('routes every method+path to exactly its own operation', () => {
    const seen = new Set<string>();
    for (const [name, op] of Object.entries(operations)) {
      const key = `${op.method} ${op.path}`;
      expect(seen.has(key), `duplicate route ${key}`).toBe(false);
      seen.add(key);
      const match = matchRoute(op.method, samplePath(op.path));
      expect(match.kind === 'found' && match.route.name, key).toBe(name);
    }
  });

  it('serves an OpenAPI 3.1 document listing every operation, valid for a real validator', async () => {
    const res = await s.api('GET', '/api/v1/openapi.json', undefined, null);
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    const ids: string[] = [];
    for (const methods of Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>)) {
      for (const o of Object.values(methods)) ids.push(o.operationId);
    }
    // The operations, and the change feed documented beside them (a stream the server serves itself).
    expect(ids.sort()).toEqual(
      [...Object.entries(operations).map(([name, op]) => ('operationId' in op && op.operationId) || name), CHANGE_FEED_OPERATION_ID].sort(),
    );
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
    // request bodies are documented with their real fields, not as opaque objects
    const create = doc.paths['/api/v1/annotations'].post;
    expect(Object.keys(create.requestBody.content['application/json'].schema.properties)).toContain('startTime');
  });
});
