import { describe, expect, test } from 'vitest';
import { createClient, httpTransport } from '../../../../src-shared/client';
import { ApiError, Code } from '../../../../src-shared/errors';
import { withMultipart } from './multipart';

function recordingFetch(respond: () => Response) {
  const requests: { url: string; method: string; auth: string | null; body: unknown }[] = [];
  const fetchFn = (async (url: URL | string, init?: RequestInit) => {
    requests.push({ url: String(url), method: init?.method ?? 'GET', auth: new Headers(init?.headers).get('Authorization'), body: init?.body });
    return respond();
  }) as typeof fetch;
  return { fetchFn, requests };
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('withMultipart', () => {
  test('uploads send the File as the `file` part and other fields as text', async () => {
    const { fetchFn, requests } = recordingFetch(() => json({ artifact: { artifactId: 'a1' } }));
    const options = { baseUrl: 'http://127.0.0.1:4280', apiKey: () => 'op_k', fetch: fetchFn };
    const client = createClient(withMultipart(httpTransport(options), options));
    const file = new File(['t,p\n'], 'trace.csv', { type: 'text/csv' });
    await client.UploadArtifact({ file: file as never, title: 'Trace', links: [{ relation: 'ATTACHED_TO', entityType: 'ANNOTATION', entityId: 'x' }] as never });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ url: 'http://127.0.0.1:4280/api/v1/artifacts:upload', method: 'POST', auth: 'Bearer op_k' });
    const form = requests[0].body as FormData;
    expect(form.get('title')).toBe('Trace');
    expect(JSON.parse(String(form.get('links')))).toEqual([{ relation: 'ATTACHED_TO', entityType: 'ANNOTATION', entityId: 'x' }]);
    const part = form.get('file') as File;
    expect(part.name).toBe('trace.csv');
    expect(await part.text()).toBe('t,p\n');
  });

  test('error bodies become ApiErrors; other operations go through the base transport', async () => {
    const { fetchFn, requests } = recordingFetch(() => json({ code: Code.INVALID_ARGUMENT, message: 'file: too large', details: [] }, 400));
    const options = { baseUrl: 'http://h', apiKey: () => undefined, fetch: fetchFn };
    const client = createClient(withMultipart(httpTransport(options), options));
    const error = await client.UploadArtifact({ file: new File(['x'], 'x.bin') as never }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: Code.INVALID_ARGUMENT, message: 'file: too large' });
    await client.Ping().catch(() => undefined);
    expect(requests.map((r) => r.url)).toEqual(['http://h/api/v1/artifacts:upload', 'http://h/api/v1/ping']);
  });
});
