import { describe, expect, test } from 'vitest';
import { createClient } from '../../../../src-shared/client';
import { ApiError, Code } from '../../../../src-shared/errors';
import type { BridgeReply, OutpostBridge } from './bridge';
import { electronTransport } from './index.electron';

function fakeBridge(respond: (operation: string, request: Record<string, unknown>) => BridgeReply) {
  const calls: { operation: string; request: Record<string, unknown> }[] = [];
  const bridge: OutpostBridge = {
    async invoke(operation, request = {}) {
      // IPC uses the structured clone algorithm: anything it cannot clone would throw here too.
      calls.push({ operation, request: structuredClone(request) });
      return respond(operation, request);
    },
    onEvent: () => () => {},
  };
  return { bridge, calls };
}

describe('electronTransport', () => {
  test('sends the operation name and the request; returns the data', async () => {
    const { bridge, calls } = fakeBridge(() => ({ ok: true, data: { annotations: [], nextPageToken: '' } }));
    const client = createClient(electronTransport(bridge));
    await expect(client.ListAnnotations({ pageSize: 10, filter: 'x' })).resolves.toEqual({ annotations: [], nextPageToken: '' });
    expect(calls).toEqual([{ operation: 'ListAnnotations', request: { pageSize: 10, filter: 'x' } }]);
  });

  test('an error body becomes an ApiError with its code, message and details', async () => {
    const details = [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'filter', description: 'bad' }] }];
    const { bridge } = fakeBridge(() => ({ ok: false, error: { code: Code.INVALID_ARGUMENT, message: 'filter: bad', details } }));
    const error = await createClient(electronTransport(bridge))
      .ListAnnotations({ filter: '(' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: Code.INVALID_ARGUMENT, message: 'filter: bad', details });
  });

  test('a reply sent as JSON text (how the engine host answers) is parsed into the data, an error text into an ApiError', async () => {
    const page = { annotations: [{ annotationId: 'a-1', name: 'Spike', tags: ['x'] }], nextPageToken: 'n' };
    const { bridge } = fakeBridge((operation) =>
      operation === 'ListAnnotations'
        ? JSON.stringify({ ok: true, data: page })
        : JSON.stringify({ ok: false, error: { code: Code.NOT_FOUND, message: 'annotation not found', details: [] } }),
    );
    const client = createClient(electronTransport(bridge));
    await expect(client.ListAnnotations({})).resolves.toEqual(page);
    const error = await client.GetAnnotation({ annotationId: 'a-2' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: Code.NOT_FOUND, message: 'annotation not found' });
  });

  test('requests are sent as plain data (proxies and getters are flattened)', async () => {
    const { bridge, calls } = fakeBridge(() => ({ ok: true, data: {} }));
    const tags = new Proxy(['a', 'b'], {});
    const annotation = {
      annotationId: 'id',
      get tags() {
        return tags;
      },
    };
    await createClient(electronTransport(bridge)).UpdateAnnotation({ annotation, updateMask: 'tags' });
    expect(calls[0].request).toEqual({ annotation: { annotationId: 'id', tags: ['a', 'b'] }, updateMask: 'tags' });
  });

  test('uploads send the File as bytes, never a path', async () => {
    const { bridge, calls } = fakeBridge(() => ({ ok: true, data: { artifact: {} } }));
    const file = new File(['t,p\n'], 'trace.csv', { type: 'text/csv' });
    await createClient(electronTransport(bridge)).UploadArtifact({ file: file as never, title: 'Trace' });
    expect(calls[0].operation).toBe('UploadArtifact');
    expect(calls[0].request).toEqual({
      title: 'Trace',
      file: { fileName: 'trace.csv', mimeType: 'text/csv', bytes: new TextEncoder().encode('t,p\n') },
    });
  });
});
