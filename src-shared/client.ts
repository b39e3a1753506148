// The typed client: one method per operation of the table, over a Transport:
// HTTP (fetch) in the browser, the CLI and tests; IPC in the desktop renderer.
// Sync's keep-alive transport shares the HTTP binding (httpRequest.ts).
import type { OperationDef, RequestInputOf, ResponseOf } from './api/operation';
import { ApiError } from './errors';
import { errorOfResponse, formFieldText, httpRequestOf, TransportError } from './httpRequest';
import { operations, type OperationName, type Operations } from './operations';

/** What a caller may ask of one call beyond its request; a transport that cannot honour an option ignores it. */
export interface CallOptions {
  /** Bytes of an upload's body sent so far, of `total` (the browser's XMLHttpRequest and the desktop's IPC report it; fetch cannot). */
  readonly onUploadProgress?: (sent: number, total: number) => void;
}

export interface Transport {
  call(name: OperationName, op: OperationDef, request: Record<string, unknown>, options?: CallOptions): Promise<unknown>;
}

export type Client = {
  [K in OperationName]: (request?: RequestInputOf<Operations[K]>, options?: CallOptions) => Promise<ResponseOf<Operations[K]>>;
};

export function createClient(transport: Transport): Client {
  const client = {} as Record<string, (req?: Record<string, unknown>, options?: CallOptions) => Promise<unknown>>;
  for (const [name, op] of Object.entries(operations) as [OperationName, OperationDef][]) {
    client[name] = (req = {}, options) => transport.call(name, op, req, options);
  }
  return client as unknown as Client;
}

export interface HttpTransportOptions {
  readonly baseUrl: string;
  readonly apiKey?: string | (() => string | undefined);
  readonly fetch?: typeof fetch;
  /** Per-request timeout in milliseconds (default 30 s). */
  readonly timeoutMs?: number;
}

/** An upload's form: text fields as text, the `file` field as the Blob it must be (a browser File, or `fs.openAsBlob`). */
export function formDataOf(name: OperationName, fields: readonly (readonly [string, unknown])[]): FormData {
  const form = new FormData();
  for (const [key, value] of fields) {
    if (key !== 'file') form.append(key, formFieldText(value));
    else if (value instanceof Blob) form.append('file', value, (value as File).name || 'file');
    else throw ApiError.invalid('file', `${name} takes the file's content (a File or Blob)`);
  }
  return form;
}

/** The typed client over fetch: JSON calls, uploads (multipart/form-data) and binary downloads. */
export function httpTransport(options: HttpTransportOptions): Transport {
  const doFetch = options.fetch ?? fetch;
  return {
    async call(name, op, request) {
      const key = typeof options.apiKey === 'function' ? options.apiKey() : options.apiKey;
      const http = httpRequestOf(options.baseUrl, op, request, key);
      const body = http.form ? formDataOf(name, http.form) : http.json;
      const where = `${op.method} ${http.url.pathname}`;
      let res: Response;
      try {
        res = await doFetch(http.url, {
          method: http.method,
          headers: http.headers,
          body,
          signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
        });
      } catch (e) {
        throw new TransportError(`${where}: ${(e as Error).message}`, e);
      }
      let payload: Uint8Array | string;
      try {
        payload = op.output === 'binary' && res.ok ? new Uint8Array(await res.arrayBuffer()) : await res.text();
      } catch (e) {
        throw new TransportError(`${where}: response body lost (${(e as Error).message})`, e);
      }
      if (!res.ok) throw errorOfResponse(res.status, payload as string, res.headers.get('Retry-After'));
      if (typeof payload !== 'string') return payload;
      try {
        return JSON.parse(payload);
      } catch (e) {
        throw new TransportError(`${where}: response body lost (${(e as Error).message})`, e);
      }
    },
  };
}
