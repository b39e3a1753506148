// The shared client's Transport over node:http(s) with a keep-alive agent:
// the request binding and error mapping of every client (src-shared/httpRequest.ts)
// at a fraction of fetch's per-request cost (push sends thousands of small
// requests), with the response's Date header for the server clock, responses
// streamed to a file, and uploads streamed from disk with a known length and
// the file part's own Content-Encoding header (as the platform's Python client
// sends gzip; standard FormData cannot carry a part header).
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { pipeline } from 'node:stream/promises';
import type { OperationDef } from '../../src-shared/api/operation';
import type { Transport } from '../../src-shared/client';
import { ApiError, Code } from '../../src-shared/errors';
import { errorOfResponse, formFieldText, httpRequestOf, TransportError } from '../../src-shared/httpRequest';

export interface NodeTransportOptions {
  readonly baseUrl: string;
  readonly apiKey?: string | (() => string | undefined);
  readonly timeoutMs?: number;
  /** Called with every response's Date header (epoch ms), when its request left and when its answer began (local ms). */
  readonly onDate?: (serverMs: number, sentMs: number, receivedMs: number) => void;
}

export interface RawTransport {
  /** The response body text of a successful call (errors as in call()). */
  callRaw(op: OperationDef, request: Record<string, unknown>): Promise<string>;
  /** A binary operation's response body streamed into `destPath` (errors as in call()). */
  download(op: OperationDef, request: Record<string, unknown>, destPath: string): Promise<{ bytes: number; contentType: string }>;
}

/** A file part of a multipart request: streamed from disk, never held in memory. */
export interface FilePart {
  readonly path: string;
  readonly fileName: string;
  readonly mimeType: string;
  /** Sent as the part's Content-Encoding header (e.g. gzip), as the platform's Python client does. */
  readonly encoding?: string;
}

export const isFilePart = (v: unknown): v is FilePart => {
  const f = v as Partial<FilePart> | null;
  return (
    typeof f === 'object' && f !== null && typeof f.path === 'string' && typeof f.fileName === 'string' && typeof f.mimeType === 'string'
  );
};

const quoted = (s: string) => s.replace(/["\\\r\n]/g, (c) => encodeURIComponent(c));

/**
 * multipart/form-data with a known Content-Length (no chunked encoding, which some proxies refuse):
 * the text fields, then the file part read from disk while the request is written.
 */
function multipartBody(fields: readonly (readonly [string, unknown])[]): {
  headers: Record<string, string>;
  write(req: ClientRequest): Promise<void>;
} {
  const boundary = `outpost-${randomBytes(12).toString('hex')}`;
  const head: Buffer[] = [];
  let file: FilePart | undefined;
  for (const [k, v] of fields) {
    if (isFilePart(v)) {
      file = v;
      continue;
    }
    head.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${quoted(k)}"\r\n\r\n${formFieldText(v)}\r\n`));
  }
  let filePart = Buffer.alloc(0);
  let fileSize = 0;
  if (file) {
    fileSize = statSync(file.path).size;
    const enc = file.encoding ? `Content-Encoding: ${file.encoding}\r\n` : '';
    filePart = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quoted(file.fileName)}"\r\nContent-Type: ${file.mimeType}\r\n${enc}\r\n`,
    );
  }
  const tail = Buffer.from(`${file ? '\r\n' : ''}--${boundary}--\r\n`);
  const prefix = Buffer.concat([...head, filePart]);
  const length = prefix.length + fileSize + tail.length;
  return {
    headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(length) },
    async write(req) {
      req.write(prefix);
      if (file) await pipeline(createReadStream(file.path), req, { end: false });
      req.end(tail);
    },
  };
}

/** What a successful response is turned into: its text, or its body streamed to a file. */
type Sink<T> = (res: IncomingMessage, where: string) => Promise<T>;

const readBytes: Sink<Buffer> = (res, where) =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('error', (e) => reject(new TransportError(`${where}: ${e.message}`, e)));
    res.on('close', () => {
      if (!res.complete) reject(new TransportError(`${where}: response body lost (connection closed)`));
    });
    res.on('end', () => resolve(Buffer.concat(chunks)));
  });

const readText: Sink<string> = (res, where) => readBytes(res, where).then((b) => b.toString('utf8'));

const toFile =
  (destPath: string): Sink<{ bytes: number; contentType: string }> =>
  async (res, where) => {
    let bytes = 0;
    res.on('data', (c: Buffer) => (bytes += c.length));
    try {
      await pipeline(res, createWriteStream(destPath));
    } catch (e) {
      throw new TransportError(`${where}: response body lost (${(e as Error).message})`, e);
    }
    if (!res.complete) throw new TransportError(`${where}: response body lost (connection closed)`);
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared !== bytes)
      throw new TransportError(`${where}: response body lost (${bytes} of ${declared} bytes)`);
    return { bytes, contentType: String(res.headers['content-type'] ?? 'application/octet-stream') };
  };

export function nodeHttpTransport(options: NodeTransportOptions): Transport & RawTransport & { close(): void } {
  const base = new URL(options.baseUrl);
  const secure = base.protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true, maxSockets: 64 }) : new HttpAgent({ keepAlive: true, maxSockets: 64 });
  const send = secure ? httpsRequest : httpRequest;

  function exchange<T>(op: OperationDef, request: Record<string, unknown>, sink: Sink<T>): Promise<T> {
    const key = typeof options.apiKey === 'function' ? options.apiKey() : options.apiKey;
    const { url, headers, json, form } = httpRequestOf(options.baseUrl, op, request, key);
    if (json !== undefined) headers['Content-Length'] = String(Buffer.byteLength(json));
    let multipart: ReturnType<typeof multipartBody> | undefined;
    if (form) {
      try {
        multipart = multipartBody(form);
      } catch (e) {
        // The local file to send is gone: no request left, so the outcome is known (nothing was created).
        return Promise.reject(
          new ApiError(Code.FAILED_PRECONDITION, `${op.name}: cannot read the file to upload (${(e as Error).message})`),
        );
      }
      Object.assign(headers, multipart.headers);
    }
    const where = `${op.method} ${url.pathname}`;
    const sent = Date.now();
    return new Promise<T>((resolve, reject) => {
      const req = send(url, { method: op.method, headers, agent, timeout: options.timeoutMs ?? 30_000 }, (res: IncomingMessage) => {
        const date = res.headers.date ? Date.parse(res.headers.date) : NaN;
        // When the answer began: a long body read after it says nothing of the server's clock.
        const received = Date.now();
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) {
          sink(res, where).then((value) => {
            if (!Number.isNaN(date)) options.onDate?.(date, sent, received);
            resolve(value);
          }, reject);
          return;
        }
        readText(res, where).then((text) => {
          if (!Number.isNaN(date)) options.onDate?.(date, sent, received);
          const retryAfter = res.headers['retry-after'];
          reject(errorOfResponse(status, text, Array.isArray(retryAfter) ? retryAfter[0] : retryAfter));
        }, reject);
      });
      req.on('timeout', () => req.destroy(new Error(`no response within ${options.timeoutMs ?? 30_000} ms`)));
      req.on('error', (e) => reject(new TransportError(`${where}: ${e.message}`, e)));
      if (multipart) multipart.write(req).catch((e) => req.destroy(e as Error));
      else req.end(json);
    });
  }

  const transport = {
    close: () => agent.destroy(),
    async call(_name: string, op: OperationDef, request: Record<string, unknown>): Promise<unknown> {
      if (op.output === 'binary') return exchange(op, request, readBytes);
      const text = await transport.callRaw(op, request);
      try {
        return JSON.parse(text);
      } catch (e) {
        throw new TransportError(`${op.method} ${op.path}: response body lost (${(e as Error).message})`, e);
      }
    },
    callRaw: (op: OperationDef, request: Record<string, unknown>): Promise<string> => exchange(op, request, readText),
    download: (op: OperationDef, request: Record<string, unknown>, destPath: string) => exchange(op, request, toFile(destPath)),
  };
  return transport;
}
