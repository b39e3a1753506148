// Uploads over HTTP (operations with input `multipart`): the request's `file`
// (a browser File/Blob) becomes the form part `file`; other fields become
// text parts (objects and arrays as JSON). Errors are read as httpTransport does.
import { buildPath, TransportError, type Transport } from '../../../../src-shared/client';
import { ApiError, Code, codeFromHttpStatus, isStatusBody } from '../../../../src-shared/errors';

export interface MultipartOptions {
  readonly baseUrl: string;
  readonly apiKey: () => string | undefined;
  readonly fetch: typeof fetch;
}

export function formDataOf(request: Record<string, unknown>, skip: ReadonlySet<string>): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(request)) {
    if (skip.has(key) || value === undefined || value === null) continue;
    if (key === 'file') {
      if (!(value instanceof Blob)) throw new ApiError(Code.INVALID_ARGUMENT, 'file: must be a File');
      form.append('file', value, (value as File).name || 'file');
    } else {
      form.append(key, typeof value === 'string' ? value : JSON.stringify(value));
    }
  }
  return form;
}

/** Sends multipart operations itself and everything else through `base`. */
export function withMultipart(base: Transport, options: MultipartOptions): Transport {
  return {
    async call(name, op, request) {
      if (op.input !== 'multipart') return base.call(name, op, request);
      const { path, used } = buildPath(op, request);
      const url = new URL(path, options.baseUrl);
      const headers: Record<string, string> = { Accept: 'application/json' };
      const key = options.apiKey();
      if (key) headers.Authorization = `Bearer ${key}`;
      let res: Response;
      try {
        res = await options.fetch(url, { method: op.method, headers, body: formDataOf(request, used) });
      } catch (e) {
        throw new TransportError(`${op.method} ${url.pathname}: ${(e as Error).message}`, e);
      }
      let json: unknown;
      try {
        json = await res.json();
      } catch {
        throw new ApiError(codeFromHttpStatus(res.status), `HTTP ${res.status}`);
      }
      if (!res.ok) throw isStatusBody(json) ? ApiError.fromBody(json) : new ApiError(codeFromHttpStatus(res.status), `HTTP ${res.status}`);
      return json;
    },
  };
}
