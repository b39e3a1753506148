// The two HTTP clients (the typed client's fetch transport and sync's keep-alive
// node transport) share one binding (src-shared/httpRequest.ts): the same
// request reaches a real server the same way, and its errors come back alike.
import { mkdtempSync, openAsBlob, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createClient, httpTransport } from '../../src-shared/client';
import { ApiError, Code } from '../../src-shared/errors';
import { operations } from '../../src-shared/operations';
import { nodeHttpTransport } from '../../src-main/sync/nodeTransport';
import { startTestServer, type TestServer } from '../support/testServer';

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'outpost-transport-'));
});
afterAll(() => server.close());

describe('one HTTP binding for every client', () => {
  test('the fetch transport uploads a File as multipart/form-data with its text fields', async () => {
    const bytes = Buffer.from('t,p\n0,1\n');
    const client = createClient(httpTransport({ baseUrl: server.url, apiKey: server.token }));
    const file = new File([bytes], 'trace.csv', { type: 'text/csv' });
    const { artifact } = await client.UploadArtifact({ file: file as never, title: 'Trace' } as never);
    expect(artifact).toMatchObject({ title: 'Trace', fileName: 'trace.csv' });
    const content = await client.DownloadArtifactContent({ artifactId: artifact.artifactId } as never);
    expect(Buffer.from(content as Uint8Array)).toEqual(bytes);
  });

  test('a file read from disk as a Blob (fs.openAsBlob) uploads the same way', async () => {
    const path = join(dir, 'disk.bin');
    writeFileSync(path, Buffer.alloc(300_000, 7));
    const client = createClient(httpTransport({ baseUrl: server.url, apiKey: server.token }));
    const blob = await openAsBlob(path, { type: 'application/octet-stream' });
    const { artifact } = await client.UploadArtifact({ file: new File([blob], 'disk.bin') as never, title: 'Disk' } as never);
    const content = await client.DownloadArtifactContent({ artifactId: artifact.artifactId } as never);
    expect(Buffer.from(content as Uint8Array).equals(readFileSync(path))).toBe(true);
  });

  test('an upload without its file content is refused before it is sent, naming the field', async () => {
    const client = createClient(httpTransport({ baseUrl: server.url, apiKey: server.token }));
    const error = await client.UploadArtifact({ file: 'not a file' as never, title: 'x' } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: Code.INVALID_ARGUMENT, message: expect.stringMatching(/^file: /) });
  });

  test('both transports send a query the same way and decode the same error body', async () => {
    const fetchClient = createClient(httpTransport({ baseUrl: server.url, apiKey: server.token }));
    const node = nodeHttpTransport({ baseUrl: server.url, apiKey: server.token });
    try {
      const nodeClient = createClient(node);
      const request = { pageSize: 2, filter: 'name.contains("a")', orderBy: 'created_date desc' };
      expect(await nodeClient.ListAnnotations(request)).toEqual(await fetchClient.ListAnnotations(request));
      const bad = { filter: 'nmae == "x"' };
      const [viaFetch, viaNode] = await Promise.all([
        fetchClient.ListAnnotations(bad).catch((e: unknown) => e),
        nodeClient.ListAnnotations(bad).catch((e: unknown) => e),
      ]);
      expect(viaFetch).toBeInstanceOf(ApiError);
      expect(viaNode).toBeInstanceOf(ApiError);
      expect((viaNode as ApiError).toBody()).toEqual((viaFetch as ApiError).toBody());
      expect((viaNode as ApiError).code).toBe(Code.INVALID_ARGUMENT);
      // The raw text of a call is the server's own response.
      const raw = await node.callRaw(operations.GetAnnotation, { annotationId: 'missing' }).catch((e: unknown) => e);
      expect(raw).toMatchObject({ code: Code.NOT_FOUND });
    } finally {
      node.close();
    }
  });
});
