// A client generated at runtime from `GET /api/v1/openapi.json` by a real
// generator (openapi-client-axios: one method per operationId, parameters by
// the document's names) calls list, create, patch and batch operations of a
// live server (issue #15 item 10): parameters in lowerCamelCase, request
// bodies required where the request has required fields.
import OpenAPIClientAxios from 'openapi-client-axios';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startRemote, annotationRequest, type RemoteServer } from '../sync/helpers';

let s: RemoteServer;
// Generated at runtime from the document: its methods have no static types.
let client: any;
let doc: any;
beforeAll(async () => {
  s = await startRemote();
  doc = await (await fetch(`${s.url}/api/v1/openapi.json`)).json();
  const api = new OpenAPIClientAxios({
    definition: doc,
    axiosConfigDefaults: { baseURL: s.url, headers: { Authorization: `Bearer ${s.token}` } },
  });
  client = await api.init();
});
afterAll(() => s.close());

describe('the OpenAPI document', () => {
  test('names path and query parameters in lowerCamelCase and requires bodies that have required fields', () => {
    expect(doc.paths['/api/v1/annotations/{annotationId}'].get.parameters).toEqual([
      { name: 'annotationId', in: 'path', required: true, schema: { type: 'string' } },
    ]);
    const listParams = doc.paths['/api/v1/annotations'].get.parameters.map((p: { name: string }) => p.name);
    expect(listParams).toEqual(expect.arrayContaining(['pageSize', 'pageToken', 'filter', 'orderBy']));
    expect(listParams.some((n: string) => n.includes('_'))).toBe(false);
    expect(doc.paths['/api/v1/annotations'].post.requestBody.required).toBe(true);
    expect(doc.paths['/api/v1/annotations'].patch.requestBody.required).toBe(true);
  });

  test('a generated client lists, creates, patches and archives in a batch against a live server', async () => {
    const created = await client.CreateAnnotation(null, annotationRequest('from a generated client'));
    expect(created.status).toBe(200);
    const id = created.data.annotation.annotationId;
    const patched = await client.UpdateAnnotation(null, {
      annotation: { annotationId: id, name: 'renamed by a generated client' },
      updateMask: 'name',
    });
    expect(patched.data.annotation.name).toBe('renamed by a generated client');
    const one = await client.GetAnnotation({ annotationId: id });
    expect(one.data.annotation.name).toBe('renamed by a generated client');
    const listed = await client.ListAnnotations({ pageSize: 1, filter: 'name == "renamed by a generated client"' });
    expect(listed.data.annotations.map((a: { annotationId: string }) => a.annotationId)).toEqual([id]);
    const archived = await client.BatchArchiveAnnotations(null, { annotationIds: [id] });
    expect(archived.status).toBe(200);
    expect((await client.GetAnnotation({ annotationId: id })).data.annotation.isArchived).toBe(true);
  });
});
