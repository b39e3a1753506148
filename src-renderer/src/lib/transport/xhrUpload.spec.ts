import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createClient } from '../../../../src-shared/client';
import { ApiError, Code } from '../../../../src-shared/errors';
import { TransportError } from '../../../../src-shared/httpRequest';
import type { OutpostBridge } from './bridge';
import { electronTransport, readWithProgress } from './index.electron';
import { webTransport } from './index.web';

beforeEach(() => (ScriptedXhr.last = undefined));
afterEach(() => vi.useRealTimers());

/** An XMLHttpRequest the spec drives: it records what was sent, then plays the upload and the answer it is told to. */
class ScriptedXhr {
  static last: ScriptedXhr | undefined;
  opened?: [string, string];
  headers: Record<string, string> = {};
  body?: FormData;
  status = 0;
  response: string | ArrayBuffer = '';
  responseType: XMLHttpRequestResponseType = '';
  responseHeaders: Record<string, string> = {};
  upload = { onprogress: null as ((e: ProgressEvent) => void) | null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  onprogress: (() => void) | null = null;
  aborted = false;
  constructor() {
    ScriptedXhr.last = this;
  }
  open(method: string, url: string) {
    this.opened = [method, url];
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  getResponseHeader(name: string) {
    return this.responseHeaders[name] ?? null;
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent);
  }
  answer(status: number, body: unknown, headers: Record<string, string> = {}) {
    this.status = status;
    this.response = JSON.stringify(body);
    this.responseHeaders = headers;
    this.onload?.();
  }
}

function browser(fetchCalls: string[] = []) {
  const storage = new Map<string, string>();
  const win = {
    location: { hash: '#key=op_up', pathname: '/', search: '', origin: 'http://127.0.0.1:4280' },
    history: { state: null, replaceState: () => {} },
    sessionStorage: {
      getItem: (k: string) => storage.get(k) ?? null,
      setItem: (k: string, v: string) => void storage.set(k, v),
      removeItem: (k: string) => void storage.delete(k),
    },
    fetch: async (url: URL | string) => (fetchCalls.push(String(url)), new Response('{"response":"pong"}', { status: 200 })),
    XMLHttpRequest: ScriptedXhr as unknown as typeof XMLHttpRequest,
  };
  return createClient(webTransport(win as unknown as Window).transport);
}

const file = () => new File(['<?xml version="1.0"?><TestResults/>'], 'run.xml', { type: 'application/xml' });

describe('browser uploads (XMLHttpRequest)', () => {
  test('the shared binding: URL, key, form fields and file; progress reported as the bytes go; the answer decoded', async () => {
    const seen: [number, number][] = [];
    const done = browser().UploadRemoteFile(
      { entityId: 'e1', entityType: 'test_reports', file: file() as never },
      { onUploadProgress: (s, t) => seen.push([s, t]) },
    );
    await vi.waitFor(() => expect(ScriptedXhr.last?.body).toBeDefined());
    const xhr = ScriptedXhr.last!;
    expect(xhr.opened).toEqual(['POST', 'http://127.0.0.1:4280/api/v0/remote-files/upload']);
    expect(xhr.headers).toEqual({ Accept: 'application/json', Authorization: 'Bearer op_up' });
    expect(xhr.body!.get('entityId')).toBe('e1');
    expect(xhr.body!.get('entityType')).toBe('test_reports');
    expect(await (xhr.body!.get('file') as File).text()).toBe('<?xml version="1.0"?><TestResults/>');
    xhr.progress(0, 300);
    xhr.progress(120, 300);
    xhr.progress(300, 300);
    xhr.answer(200, { remoteFile: { remoteFileId: 'rf1' } });
    await expect(done).resolves.toEqual({ remoteFile: { remoteFileId: 'rf1' } });
    expect(seen).toEqual([
      [0, 300],
      [120, 300],
      [300, 300],
    ]);
  });

  test('an error body becomes the API error (decoded once, by errorOfResponse)', async () => {
    const done = browser().UploadRemoteFile({ entityId: 'e1', entityType: 'nope', file: file() as never });
    await vi.waitFor(() => expect(ScriptedXhr.last?.body).toBeDefined());
    const details = [
      { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'entity_type', description: 'unknown' }] },
    ];
    ScriptedXhr.last!.answer(400, { code: Code.INVALID_ARGUMENT, message: 'entity_type: unknown', details }, { 'Retry-After': '3' });
    const error = await done.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: Code.INVALID_ARGUMENT, message: 'entity_type: unknown', details, retryAfter: '3' });
  });

  test('a network error, and an upload that stalls, are transport errors', async () => {
    const failed = browser().UploadRemoteFile({ entityId: 'e1', entityType: 'test_reports', file: file() as never });
    await vi.waitFor(() => expect(ScriptedXhr.last?.body).toBeDefined());
    ScriptedXhr.last!.onerror!();
    await expect(failed).rejects.toBeInstanceOf(TransportError);

    vi.useFakeTimers();
    const stalled = browser()
      .UploadRemoteFile({ entityId: 'e1', entityType: 'test_reports', file: file() as never })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    const xhr = ScriptedXhr.last!;
    await vi.advanceTimersByTimeAsync(20_000);
    xhr.progress(10, 300); // progress keeps it alive
    await vi.advanceTimersByTimeAsync(20_000);
    expect(xhr.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(10_001);
    expect(xhr.aborted).toBe(true);
    const error = await stalled;
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toContain('nothing sent or received for 30000 ms');
  });

  test('a request that is not an upload still goes by fetch', async () => {
    const fetched: string[] = [];
    const before = ScriptedXhr.last;
    await expect(browser(fetched).Ping()).resolves.toEqual({ response: 'pong' });
    expect(fetched).toEqual(['http://127.0.0.1:4280/api/v1/ping']);
    expect(ScriptedXhr.last).toBe(before);
  });
});

describe('desktop uploads (IPC)', () => {
  test('the file is read in chunks and each chunk is reported; the bytes sent are the file', async () => {
    const big = new Uint8Array(3 * 1_048_576 + 17).map((_, i) => i % 251);
    const seen: number[] = [];
    const bytes = await readWithProgress(new Blob([big]), (sent, total) => (expect(total).toBe(big.length), seen.push(sent)));
    expect(Buffer.from(bytes).equals(Buffer.from(big))).toBe(true);
    expect(seen).toEqual([0, 1_048_576, 2_097_152, 3_145_728, big.length]);
  });

  test('the client option reaches the IPC transport', async () => {
    const requests: Record<string, unknown>[] = [];
    const bridge: OutpostBridge = {
      invoke: async (_op, request = {}) => (requests.push(request), { ok: true, data: { remoteFile: {} } }),
      onEvent: () => () => {},
    };
    const seen: number[] = [];
    await createClient(electronTransport(bridge)).UploadRemoteFile(
      { entityId: 'e1', entityType: 'test_reports', file: file() as never },
      { onUploadProgress: (s) => seen.push(s) },
    );
    expect(seen.at(-1)).toBe(file().size);
    expect((requests[0].file as { bytes: Uint8Array }).bytes).toEqual(new Uint8Array(await file().arrayBuffer()));
  });
});
