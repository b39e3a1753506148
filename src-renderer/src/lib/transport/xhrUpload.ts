// Uploads in the browser go by XMLHttpRequest: fetch cannot tell how much of a
// request body has been sent, XHR's upload.onprogress can. The binding
// (httpRequestOf, formDataOf) and the error decoding (errorOfResponse) are the
// shared ones, so an upload travels exactly as the fetch transport would send it.
import type { OperationDef } from '../../../../src-shared/api/operation';
import { formDataOf, type CallOptions } from '../../../../src-shared/client';
import { errorOfResponse, httpRequestOf, TransportError } from '../../../../src-shared/httpRequest';
import type { OperationName } from '../../../../src-shared/operations';

/** The parts of XMLHttpRequest an upload uses (a spec can hand in its own). */
export type XhrLike = Pick<
  XMLHttpRequest,
  | 'open'
  | 'setRequestHeader'
  | 'send'
  | 'abort'
  | 'getResponseHeader'
  | 'status'
  | 'response'
  | 'responseType'
  | 'upload'
  | 'onload'
  | 'onerror'
  | 'onabort'
  | 'onprogress'
>;

export interface XhrUploadOptions {
  readonly baseUrl: string;
  readonly apiKey: () => string | undefined;
  readonly newXhr: () => XhrLike;
  /** An upload with no byte sent or received for this long is given up (a whole-request timeout would fail a big file on a slow link). */
  readonly idleTimeoutMs?: number;
}

export const UPLOAD_IDLE_TIMEOUT_MS = 30_000;

/** Sends one multipart operation; resolves with its decoded response, rejects with the API's error or a TransportError. */
export async function xhrUpload(
  options: XhrUploadOptions,
  name: OperationName,
  op: OperationDef,
  request: Record<string, unknown>,
  call: CallOptions = {},
): Promise<unknown> {
  const http = httpRequestOf(options.baseUrl, op, request, options.apiKey());
  const form = formDataOf(name, http.form ?? []);
  const where = `${op.method} ${http.url.pathname}`;
  const idleMs = options.idleTimeoutMs ?? UPLOAD_IDLE_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const xhr = options.newXhr();
    let idle: ReturnType<typeof setTimeout> | undefined;
    let gaveUp = false;
    const stillAlive = () => {
      clearTimeout(idle);
      idle = setTimeout(() => ((gaveUp = true), xhr.abort()), idleMs);
    };
    xhr.open(http.method, http.url.toString());
    for (const [header, value] of Object.entries(http.headers)) xhr.setRequestHeader(header, value);
    xhr.responseType = op.output === 'binary' ? 'arraybuffer' : 'text';
    xhr.upload.onprogress = (e) => {
      stillAlive();
      if (e.lengthComputable) call.onUploadProgress?.(e.loaded, e.total);
    };
    xhr.onprogress = stillAlive;
    xhr.onerror = () => (clearTimeout(idle), reject(new TransportError(`${where}: network error`)));
    xhr.onabort = () => (
      clearTimeout(idle),
      reject(new TransportError(`${where}: ${gaveUp ? `nothing sent or received for ${idleMs} ms` : 'aborted'}`))
    );
    xhr.onload = () => {
      clearTimeout(idle);
      const ok = xhr.status >= 200 && xhr.status < 300;
      const body = xhr.response as ArrayBuffer | string;
      if (ok && body instanceof ArrayBuffer) return resolve(new Uint8Array(body));
      const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
      if (!ok) return reject(errorOfResponse(xhr.status, text, xhr.getResponseHeader('Retry-After')));
      try {
        resolve(JSON.parse(text));
      } catch (e) {
        reject(new TransportError(`${where}: response body lost (${(e as Error).message})`, e));
      }
    };
    stillAlive();
    xhr.send(form);
  });
}
